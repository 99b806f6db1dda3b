/// A Gaussian image pyramid: level 0 is the input, each next level is blurred with the
/// 5-tap binomial kernel `[1 4 6 4 1] / 16` (separable) and decimated by 2, the classic
/// construction of Burt & Adelson (1983) used by pyramidal Lucas–Kanade (Bouguet 2001).
/// Level `l` has size `⌈w / 2^l⌉ × ⌈h / 2^l⌉`, and a point `p` at level 0 lies at
/// `p / 2^l` there (pixel centres at integers at every level, an approximation of
/// ≤ 0.25 px at level 1 that the coarse-to-fine refinement absorbs).
public struct ImagePyramid: Sendable {
    /// Levels, finest first. Intensities 0…255.
    public let levels: [FloatPlane]

    /// Builds `levelCount` levels (at least 1) from `base`; stops early when a level would
    /// be smaller than 8 pixels across.
    public init(base: FloatPlane, levelCount: Int) {
        var levels = [base]
        levels.reserveCapacity(max(levelCount, 1))
        while levels.count < levelCount {
            let prev = levels[levels.count - 1]
            guard prev.width >= 16, prev.height >= 16 else { break }
            levels.append(ImagePyramid.downsample(prev))
        }
        self.levels = levels
    }

    /// The finest level.
    public var base: FloatPlane { levels[0] }

    /// Blur with `[1 4 6 4 1]/16` in x and y, keep even rows and columns.
    ///
    /// Borders are replicated. The interior columns run in a branch-free loop and the
    /// buffers are written without a zero fill first; the arithmetic (and so every output
    /// value) is the same expression as at the borders.
    public static func downsample(_ src: FloatPlane) -> FloatPlane {
        let w = src.width, h = src.height
        let w2 = (w + 1) / 2, h2 = (h + 1) / 2
        // Output columns i with 2 ≤ 2i and 2i + 2 < w need no clamping.
        let interiorStart = min(1, w2), interiorEnd = max(interiorStart, min(w2, (w - 1) / 2))
        // Horizontal pass at even columns only: w2 × h.
        let tmp = [Float](unsafeUninitializedCapacity: w2 * h) { t, count in
            src.pixels.withUnsafeBufferPointer { s in
                let sb = s.baseAddress!, tb = t.baseAddress!
                @inline(__always) func clamped(_ row: UnsafePointer<Float>, _ i: Int) -> Float {
                    let x = 2 * i
                    let xm2 = max(x - 2, 0), xm1 = max(x - 1, 0)
                    let xp1 = min(x + 1, w - 1), xp2 = min(x + 2, w - 1)
                    return (row[xm2] + row[xp2] + 4 * (row[xm1] + row[xp1]) + 6 * row[x]) * (1.0 / 16.0)
                }
                for y in 0..<h {
                    let row = sb + y * w
                    let trow = tb + y * w2
                    for i in 0..<interiorStart { trow[i] = clamped(row, i) }
                    for i in interiorStart..<interiorEnd {
                        let c = row + 2 * i
                        trow[i] = (c[-2] + c[2] + 4 * (c[-1] + c[1]) + 6 * c[0]) * (1.0 / 16.0)
                    }
                    for i in interiorEnd..<w2 { trow[i] = clamped(row, i) }
                }
            }
            count = w2 * h
        }
        // Vertical pass at even rows (contiguous rows).
        let out = [Float](unsafeUninitializedCapacity: w2 * h2) { o, count in
            tmp.withUnsafeBufferPointer { t in
                let tb = t.baseAddress!
                for j in 0..<h2 {
                    let y = 2 * j
                    let rm2 = tb + max(y - 2, 0) * w2, rm1 = tb + max(y - 1, 0) * w2
                    let r0 = tb + y * w2
                    let rp1 = tb + min(y + 1, h - 1) * w2, rp2 = tb + min(y + 2, h - 1) * w2
                    let orow = o.baseAddress! + j * w2
                    for i in 0..<w2 {
                        orow[i] = (rm2[i] + rp2[i] + 4 * (rm1[i] + rp1[i]) + 6 * r0[i]) * (1.0 / 16.0)
                    }
                }
            }
            count = w2 * h2
        }
        return FloatPlane(width: w2, height: h2, pixels: out)!
    }
}
