// Sub-pixel sampling and image pyramids for feature tracking.
//
// Coordinates follow the OpenCV convention used throughout Parallax: the
// centre of pixel (i, j) is at (x, y) = (i, j), so x ∈ [0, width − 1] covers
// the sampled area. Bilinear interpolation is the standard choice for KLT
// (Lucas & Kanade 1981; Bouguet, "Pyramidal implementation of the Lucas
// Kanade feature tracker", 2000, §2.3).

extension Image where Pixel == Float {
    /// Bilinearly interpolated value at `(x, y)`. Coordinates outside the image
    /// are clamped to the border (edge pixels are replicated). Returns NaN for
    /// non-finite coordinates or an empty image.
    @inlinable
    public func bilinear(x: Float, y: Float) -> Float {
        guard width > 0, height > 0, x.isFinite, y.isFinite else { return .nan }
        let xc = Swift.min(Swift.max(x, 0), Float(width - 1))
        let yc = Swift.min(Swift.max(y, 0), Float(height - 1))
        let x0 = Int(xc), y0 = Int(yc)
        let x1 = Swift.min(x0 + 1, width - 1), y1 = Swift.min(y0 + 1, height - 1)
        let ax = xc - Float(x0), ay = yc - Float(y0)
        return pixels.withUnsafeBufferPointer { p in
            let r0 = y0 * width, r1 = y1 * width
            let top = p[r0 + x0] + ax * (p[r0 + x1] - p[r0 + x0])
            let bottom = p[r1 + x0] + ax * (p[r1 + x1] - p[r1 + x0])
            return top + ay * (bottom - top)
        }
    }

    /// Bilinearly interpolated value at `point`, border-clamped.
    @inlinable
    public func bilinear(at point: SIMD2<Float>) -> Float { bilinear(x: point.x, y: point.y) }

    /// Bilinear value when `(x, y)` lies within the pixel-centre rectangle
    /// `[0, width − 1] × [0, height − 1]`, otherwise `nil` (the tracker uses this
    /// to drop features whose window leaves the image).
    @inlinable
    public func bilinearIfInside(x: Float, y: Float) -> Float? {
        guard x >= 0, y >= 0, x <= Float(width - 1), y <= Float(height - 1) else { return nil }
        return bilinear(x: x, y: y)
    }

    /// Half-size image by averaging 2×2 blocks. Output size is
    /// `((width + 1) / 2, (height + 1) / 2)`; an odd last column/row is replicated.
    public func downsampled() -> FloatImage {
        let ow = (width + 1) / 2, oh = (height + 1) / 2
        guard ow > 0, oh > 0 else { return FloatImage(width: ow, height: oh, fill: 0) }
        let out = pixels.withUnsafeBufferPointer { p in
            [Float](unsafeUninitializedCapacity: ow * oh) { o, n in
                for y in 0..<oh {
                    let r0 = 2 * y * width, r1 = Swift.min(2 * y + 1, height - 1) * width
                    for x in 0..<ow {
                        let c0 = 2 * x, c1 = Swift.min(2 * x + 1, width - 1)
                        o[y * ow + x] = 0.25 * (p[r0 + c0] + p[r0 + c1] + p[r1 + c0] + p[r1 + c1])
                    }
                }
                n = ow * oh
            }
        }
        return FloatImage(uncheckedWidth: ow, height: oh, pixels: out)
    }

    /// One Gaussian pyramid level down: blur with the separable binomial kernel
    /// [1 4 6 4 1] / 16 (Burt & Adelson 1983, "The Laplacian pyramid as a compact
    /// image code") and keep every second pixel, with mirrored borders
    /// (reflect-101, `…2 1 | 0 1 2…`). Output size `((width + 1) / 2, (height + 1) / 2)`,
    /// the same as OpenCV's `pyrDown`.
    public func pyramidDown() -> FloatImage {
        let ow = (width + 1) / 2, oh = (height + 1) / 2
        guard ow > 0, oh > 0 else { return FloatImage(width: ow, height: oh, fill: 0) }
        let w = width, h = height
        @inline(__always) func reflect(_ i: Int, _ n: Int) -> Int {
            if n == 1 { return 0 }
            var j = i
            if j < 0 { j = -j }
            if j >= n { j = 2 * (n - 1) - j }
            return Swift.min(Swift.max(j, 0), n - 1)
        }
        // Horizontal pass at the even columns only: w → ow columns, h rows.
        let horizontal = pixels.withUnsafeBufferPointer { p in
            [Float](unsafeUninitializedCapacity: ow * h) { o, n in
                for y in 0..<h {
                    let row = y * w
                    for x in 0..<ow {
                        let c = 2 * x
                        let s = p[row + reflect(c - 2, w)] + p[row + reflect(c + 2, w)]
                            + 4 * (p[row + reflect(c - 1, w)] + p[row + reflect(c + 1, w)]) + 6 * p[row + c]
                        o[y * ow + x] = s * (1 / 16)
                    }
                }
                n = ow * h
            }
        }
        // Vertical pass at the even rows.
        let out = horizontal.withUnsafeBufferPointer { p in
            [Float](unsafeUninitializedCapacity: ow * oh) { o, n in
                for y in 0..<oh {
                    let r = 2 * y
                    let rm2 = reflect(r - 2, h) * ow, rm1 = reflect(r - 1, h) * ow
                    let rp1 = reflect(r + 1, h) * ow, rp2 = reflect(r + 2, h) * ow, r0 = r * ow
                    for x in 0..<ow {
                        let s = p[rm2 + x] + p[rp2 + x] + 4 * (p[rm1 + x] + p[rp1 + x]) + 6 * p[r0 + x]
                        o[y * ow + x] = s * (1 / 16)
                    }
                }
                n = ow * oh
            }
        }
        return FloatImage(uncheckedWidth: ow, height: oh, pixels: out)
    }

    /// A Gaussian pyramid: level 0 is this image, each further level is
    /// ``pyramidDown()`` of the previous one. Stops early once a level would be
    /// smaller than `minimumSide` pixels on a side.
    public func pyramid(levels: Int, minimumSide: Int = 8) -> [FloatImage] {
        var result = [self]
        while result.count < levels, let last = result.last,
            (last.width + 1) / 2 >= minimumSide, (last.height + 1) / 2 >= minimumSide
        {
            result.append(last.pyramidDown())
        }
        return result
    }
}

extension Image where Pixel == UInt8 {
    /// Bilinearly interpolated grey value (0…255 scale) at `(x, y)`, border-clamped.
    /// NaN for non-finite coordinates or an empty image.
    @inlinable
    public func bilinear(x: Float, y: Float) -> Float {
        guard width > 0, height > 0, x.isFinite, y.isFinite else { return .nan }
        let xc = Swift.min(Swift.max(x, 0), Float(width - 1))
        let yc = Swift.min(Swift.max(y, 0), Float(height - 1))
        let x0 = Int(xc), y0 = Int(yc)
        let x1 = Swift.min(x0 + 1, width - 1), y1 = Swift.min(y0 + 1, height - 1)
        let ax = xc - Float(x0), ay = yc - Float(y0)
        return pixels.withUnsafeBufferPointer { p in
            let r0 = y0 * width, r1 = y1 * width
            let a = Float(p[r0 + x0]), b = Float(p[r0 + x1]), c = Float(p[r1 + x0]), d = Float(p[r1 + x1])
            let top = a + ax * (b - a)
            let bottom = c + ax * (d - c)
            return top + ay * (bottom - top)
        }
    }

    /// Half-size image by averaging 2×2 blocks with rounding; size
    /// `((width + 1) / 2, (height + 1) / 2)`, odd last column/row replicated.
    public func downsampled() -> GrayImage {
        let ow = (width + 1) / 2, oh = (height + 1) / 2
        guard ow > 0, oh > 0 else { return GrayImage(width: ow, height: oh, fill: 0) }
        let out = pixels.withUnsafeBufferPointer { p in
            [UInt8](unsafeUninitializedCapacity: ow * oh) { o, n in
                for y in 0..<oh {
                    let r0 = 2 * y * width, r1 = Swift.min(2 * y + 1, height - 1) * width
                    for x in 0..<ow {
                        let c0 = 2 * x, c1 = Swift.min(2 * x + 1, width - 1)
                        let sum = Int(p[r0 + c0]) + Int(p[r0 + c1]) + Int(p[r1 + c0]) + Int(p[r1 + c1])
                        o[y * ow + x] = UInt8((sum + 2) >> 2)
                    }
                }
                n = ow * oh
            }
        }
        return GrayImage(uncheckedWidth: ow, height: oh, pixels: out)
    }
}

extension Image {
    /// An independent copy, for symmetry with ``ImageView/copy()``. `Image`
    /// already has value semantics (copy-on-write), so this equals assigning it.
    public func copy() -> Image<Pixel> { self }
}
