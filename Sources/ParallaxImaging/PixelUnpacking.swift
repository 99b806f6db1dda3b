/// Conversion between packed PNG sample bytes and typed pixel arrays.
///
/// 16-bit PNG samples are big-endian (PNG spec §7.1, "network byte order"),
/// so they are assembled explicitly as `hi << 8 | lo` instead of reinterpreting
/// memory, which would be wrong on little-endian hosts.
enum PixelUnpacking {
    /// Builds an ``AnyImage`` from packed rows: `channels` 1…4, `bitDepth` 8 or 16.
    /// Grey+alpha (2 channels) becomes RGBA with the grey replicated.
    static func unpack(
        _ s: UnsafeBufferPointer<UInt8>, width: Int, height: Int, channels: Int, bitDepth: Int
    ) -> AnyImage {
        let n = width * height
        if bitDepth == 8 {
            switch channels {
            case 1:
                return .gray8(Image(uncheckedWidth: width, height: height, pixels: Array(s[0..<n])))
            case 2:
                return .rgba8(Image(uncheckedWidth: width, height: height, pixels: build(n) { i in
                    RGBA8(gray: s[2 * i], a: s[2 * i + 1])
                }))
            case 3:
                return .rgb8(Image(uncheckedWidth: width, height: height, pixels: build(n) { i in
                    RGB8(r: s[3 * i], g: s[3 * i + 1], b: s[3 * i + 2])
                }))
            default:
                return .rgba8(Image(uncheckedWidth: width, height: height, pixels: build(n) { i in
                    RGBA8(r: s[4 * i], g: s[4 * i + 1], b: s[4 * i + 2], a: s[4 * i + 3])
                }))
            }
        }
        @inline(__always) func be(_ k: Int) -> UInt16 { UInt16(s[2 * k]) << 8 | UInt16(s[2 * k + 1]) }
        switch channels {
        case 1:
            return .gray16(Image(uncheckedWidth: width, height: height, pixels: build(n) { i in be(i) }))
        case 2:
            return .rgba16(Image(uncheckedWidth: width, height: height, pixels: build(n) { i in
                let g = be(2 * i)
                return RGBA16(r: g, g: g, b: g, a: be(2 * i + 1))
            }))
        case 3:
            return .rgb16(Image(uncheckedWidth: width, height: height, pixels: build(n) { i in
                RGB16(r: be(3 * i), g: be(3 * i + 1), b: be(3 * i + 2))
            }))
        default:
            return .rgba16(Image(uncheckedWidth: width, height: height, pixels: build(n) { i in
                RGBA16(r: be(4 * i), g: be(4 * i + 1), b: be(4 * i + 2), a: be(4 * i + 3))
            }))
        }
    }

    /// Packs an image's samples row-major, 16-bit samples big-endian.
    static func pack(_ image: AnyImage) -> [UInt8] {
        switch image {
        case .gray8(let i):
            return i.pixels
        case .rgb8(let i):
            return i.pixels.withUnsafeBufferPointer { p in
                build(p.count * 3) { k in
                    let px = p[k / 3]
                    switch k % 3 { case 0: return px.r; case 1: return px.g; default: return px.b }
                }
            }
        case .rgba8(let i):
            return i.pixels.withUnsafeBufferPointer { p in
                build(p.count * 4) { k in
                    let px = p[k >> 2]
                    switch k & 3 { case 0: return px.r; case 1: return px.g; case 2: return px.b; default: return px.a }
                }
            }
        case .gray16(let i):
            return packBE(i.pixels, samplesPerPixel: 1) { px, _ in px }
        case .rgb16(let i):
            return packBE(i.pixels, samplesPerPixel: 3) { px, c in c == 0 ? px.r : (c == 1 ? px.g : px.b) }
        case .rgba16(let i):
            return packBE(i.pixels, samplesPerPixel: 4) { px, c in
                switch c { case 0: return px.r; case 1: return px.g; case 2: return px.b; default: return px.a }
            }
        }
    }

    private static func packBE<P>(_ pixels: [P], samplesPerPixel: Int, sample: (P, Int) -> UInt16) -> [UInt8] {
        let total = pixels.count * samplesPerPixel * 2
        return pixels.withUnsafeBufferPointer { p in
            [UInt8](unsafeUninitializedCapacity: total) { out, initialized in
                var o = 0
                for px in p {
                    for c in 0..<samplesPerPixel {
                        let v = sample(px, c)
                        out[o] = UInt8(v >> 8)
                        out[o + 1] = UInt8(v & 0xFF)
                        o += 2
                    }
                }
                initialized = total
            }
        }
    }

    /// An array of `count` elements produced by `element(i)`, without intermediate copies.
    @inline(__always)
    static func build<T>(_ count: Int, _ element: (Int) -> T) -> [T] {
        [T](unsafeUninitializedCapacity: count) { out, initialized in
            for i in 0..<count { (out.baseAddress! + i).initialize(to: element(i)) }
            initialized = count
        }
    }
}
