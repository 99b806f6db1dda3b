import ParallaxMath

// Drawing primitives for debug overlays and plots on RGBA images.
//
// Shapes are rasterised by coverage: a pixel whose centre lies at distance d
// from the ideal shape edge gets coverage clamp(0.5 − d, 0, 1) outside and 1
// inside, a one-pixel linear ramp that anti-aliases cheaply (a box-filter
// approximation; see Gupta & Sproull 1981 for the distance-based idea).
// Colours are composited "source over" with straight alpha (Porter & Duff 1984).
// Everything is clipped to the image, so callers may draw partly off-screen.

/// Converts a pixel coordinate to `Int`, clamping far-off (or NaN) values so
/// drawing with wild coordinates clips instead of trapping.
@inline(__always)
func safeInt(_ value: Double) -> Int {
    if value.isNaN { return 0 }
    return Int(min(max(value, -1e9), 1e9))
}

extension Image where Pixel == RGBA8 {
    /// Composites `color` over the pixel at `(x, y)` with opacity `color.a/255 × coverage`.
    /// Coordinates outside the image are ignored.
    public mutating func blendPixel(x: Int, y: Int, color: RGBA8, coverage: Float = 1) {
        guard contains(x: x, y: y) else { return }
        blend(index: y * width + x, color: color, coverage: coverage)
    }

    @inline(__always)
    mutating func blend(index: Int, color: RGBA8, coverage: Float) {
        let alpha = Float(color.a) * (1 / 255) * coverage
        if alpha <= 0 { return }
        if alpha >= 1 {
            pixels[index] = color
            return
        }
        let d = pixels[index]
        let keep = 1 - alpha
        @inline(__always) func mix(_ s: UInt8, _ t: UInt8) -> UInt8 {
            UInt8(min(255, (Float(s) * alpha + Float(t) * keep).rounded()))
        }
        let outAlpha = alpha * 255 + Float(d.a) * keep
        pixels[index] = RGBA8(
            r: mix(color.r, d.r), g: mix(color.g, d.g), b: mix(color.b, d.b),
            a: UInt8(min(255, outAlpha.rounded())))
    }

    /// Fills the rectangle `x..<x+width`, `y..<y+height` (clipped to the image).
    public mutating func fillRect(x: Int, y: Int, width w: Int, height h: Int, color: RGBA8) {
        let x0 = max(x, 0), y0 = max(y, 0)
        let x1 = min(x + w, width), y1 = min(y + h, height)
        guard x0 < x1, y0 < y1 else { return }
        for row in y0..<y1 {
            for col in x0..<x1 { blend(index: row * width + col, color: color, coverage: 1) }
        }
    }

    /// Outlines the rectangle `x..<x+width`, `y..<y+height` with a border
    /// `thickness` pixels wide drawn inside it.
    public mutating func strokeRect(x: Int, y: Int, width w: Int, height h: Int, color: RGBA8, thickness: Int = 1) {
        guard w > 0, h > 0, thickness > 0 else { return }
        let t = min(thickness, (min(w, h) + 1) / 2)
        fillRect(x: x, y: y, width: w, height: t, color: color)
        fillRect(x: x, y: y + h - t, width: w, height: t, color: color)
        fillRect(x: x, y: y + t, width: t, height: h - 2 * t, color: color)
        fillRect(x: x + w - t, y: y + t, width: t, height: h - 2 * t, color: color)
    }

    /// Draws the segment from `start` to `end` (pixel-centre coordinates) with
    /// round caps, `thickness` pixels wide. With `antialiased`, edge pixels get
    /// partial coverage; otherwise a pixel is set when its centre lies within
    /// `thickness / 2` of the segment.
    public mutating func drawLine(
        from start: Vector2, to end: Vector2, color: RGBA8, thickness: Double = 1, antialiased: Bool = true
    ) {
        guard start.x.isFinite, start.y.isFinite, end.x.isFinite, end.y.isFinite, thickness > 0, !isEmpty else {
            return
        }
        let radius = thickness / 2
        let reach = radius + (antialiased ? 0.5 : 0)
        let delta = end - start
        let lengthSquared = (delta * delta).sum()
        let length = lengthSquared.squareRoot()

        @inline(__always) func coverage(_ px: Int, _ py: Int) -> Float {
            let p = Vector2(Double(px), Double(py))
            var t = lengthSquared > 0 ? ((p - start) * delta).sum() / lengthSquared : 0
            t = min(max(t, 0), 1)
            let q = start + t * delta - p
            let distance = (q * q).sum().squareRoot()
            if antialiased { return Float(min(max(radius + 0.5 - distance, 0), 1)) }
            return distance <= radius ? 1 : 0
        }

        // Walk the major axis; at each step scan the minor axis around the
        // centre line, wide enough (reach / cos θ + 1) to meet every covered pixel.
        let xMajor = abs(delta.x) >= abs(delta.y)
        let (a0, a1) = xMajor ? (start.x, end.x) : (start.y, end.y)
        let (b0, b1) = xMajor ? (start.y, end.y) : (start.x, end.x)
        let majorLimit = xMajor ? width : height, minorLimit = xMajor ? height : width
        let cosine = length > 0 ? abs(a1 - a0) / length : 1
        let halfWindow = reach / max(cosine, 0.5) + 1
        let lo = max(safeInt((min(a0, a1) - reach).rounded(.down)), 0)
        let hi = min(safeInt((max(a0, a1) + reach).rounded(.up)), majorLimit - 1)
        guard lo <= hi else { return }
        for major in lo...hi {
            let t = a1 != a0 ? min(max((Double(major) - a0) / (a1 - a0), 0), 1) : 0
            let centre = b0 + t * (b1 - b0)
            let mlo = max(safeInt((centre - halfWindow).rounded(.down)), 0)
            let mhi = min(safeInt((centre + halfWindow).rounded(.up)), minorLimit - 1)
            guard mlo <= mhi else { continue }
            for minor in mlo...mhi {
                let (px, py) = xMajor ? (major, minor) : (minor, major)
                let c = coverage(px, py)
                if c > 0 { blend(index: py * width + px, color: color, coverage: c) }
            }
        }
    }

    /// Draws connected segments through `points`; `closed` adds the segment back to the first point.
    public mutating func drawPolyline(
        _ points: [Vector2], color: RGBA8, thickness: Double = 1, closed: Bool = false, antialiased: Bool = true
    ) {
        guard points.count > 1 else {
            if let only = points.first { fillCircle(center: only, radius: thickness / 2, color: color) }
            return
        }
        for i in 1..<points.count {
            drawLine(from: points[i - 1], to: points[i], color: color, thickness: thickness, antialiased: antialiased)
        }
        if closed, points.count > 2, let first = points.first, let last = points.last {
            drawLine(from: last, to: first, color: color, thickness: thickness, antialiased: antialiased)
        }
    }

    /// Fills the disc of `radius` around `center` (pixel-centre coordinates).
    public mutating func fillCircle(center: Vector2, radius: Double, color: RGBA8, antialiased: Bool = true) {
        shadeDisc(center: center, reach: radius + (antialiased ? 0.5 : 0), color: color) { distance in
            antialiased ? min(max(radius + 0.5 - distance, 0), 1) : (distance <= radius ? 1 : 0)
        }
    }

    /// Draws a circle outline of `radius` around `center`, `thickness` pixels wide.
    public mutating func strokeCircle(
        center: Vector2, radius: Double, color: RGBA8, thickness: Double = 1, antialiased: Bool = true
    ) {
        let half = thickness / 2
        shadeDisc(center: center, reach: radius + half + (antialiased ? 0.5 : 0), color: color) { distance in
            let off = abs(distance - radius)
            return antialiased ? min(max(half + 0.5 - off, 0), 1) : (off <= half ? 1 : 0)
        }
    }

    /// Draws a "+" marker of half-size `size` centred on `center` (feature overlays).
    public mutating func drawCross(at center: Vector2, size: Double = 3, color: RGBA8, thickness: Double = 1) {
        drawLine(from: center - Vector2(size, 0), to: center + Vector2(size, 0), color: color, thickness: thickness)
        drawLine(from: center - Vector2(0, size), to: center + Vector2(0, size), color: color, thickness: thickness)
    }

    /// Visits every pixel within `reach` of `center` and blends with `coverage(distance)`.
    private mutating func shadeDisc(center: Vector2, reach: Double, color: RGBA8, coverage: (Double) -> Double) {
        guard center.x.isFinite, center.y.isFinite, reach.isFinite, reach > 0, !isEmpty else { return }
        let x0 = max(safeInt((center.x - reach).rounded(.down)), 0)
        let x1 = min(safeInt((center.x + reach).rounded(.up)), width - 1)
        let y0 = max(safeInt((center.y - reach).rounded(.down)), 0)
        let y1 = min(safeInt((center.y + reach).rounded(.up)), height - 1)
        guard x0 <= x1, y0 <= y1 else { return }
        for y in y0...y1 {
            for x in x0...x1 {
                let dx = Double(x) - center.x, dy = Double(y) - center.y
                let c = coverage((dx * dx + dy * dy).squareRoot())
                if c > 0 { blend(index: y * width + x, color: color, coverage: Float(c)) }
            }
        }
    }
}
