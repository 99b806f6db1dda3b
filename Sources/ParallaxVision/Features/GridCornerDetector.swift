import ParallaxMath

/// A detected corner: position in pixels (level 0) and its Shi–Tomasi score.
public struct Corner: Sendable, Equatable {
    /// Pixel position (integer pixel centre of the score maximum).
    public var position: Vector2
    /// Minimum eigenvalue of the mean structure tensor, in (grey levels / px)².
    public var score: Float
}

/// Shi–Tomasi ("Good Features to Track", Shi & Tomasi 1994) corners, one per grid cell.
///
/// **Why Shi–Tomasi rather than FAST.** The Shi–Tomasi score is the smallest eigenvalue of
/// the 2×2 structure tensor `G = Σ ∇I ∇Iᵀ` over the window, i.e. exactly the normal-equation
/// matrix that Lucas–Kanade inverts; a large `λ_min` is by construction a point KLT can
/// track well-conditioned in both directions. FAST-9 (Rosten & Drummond 2006) is cheaper per
/// pixel but fires on points whose LK system may be ill-conditioned. The extra cost is
/// bounded here because scores are computed **only in cells that need a new feature**
/// (cells holding a tracked feature are skipped), so at steady state detection touches a
/// small part of the image.
///
/// Selection: in each empty cell, the highest-scoring pixel not within ``minDistance``
/// of a tracked (or already selected) feature; candidates are then accepted strongest
/// first, above `max(minScore, qualityLevel × best)`, up to the requested count. Ties
/// are broken by cell index, so the result is deterministic.
public struct GridCornerDetector: Sendable {
    /// Grid columns.
    public var gridColumns: Int
    /// Grid rows.
    public var gridRows: Int
    /// Minimum distance (px) between a new corner and any existing or new feature.
    public var minDistance: Double
    /// Relative threshold against the strongest candidate of this call (OpenCV-style).
    public var qualityLevel: Float
    /// Absolute threshold on `λ_min` in (grey levels / px)².
    public var minScore: Float
    /// Radius of the structure-tensor window (window is `2r + 1` square).
    public var windowRadius: Int
    /// Pixels near the border excluded from detection (KLT needs its window inside).
    public var border: Int

    /// Creates a detector; defaults suit 752×480 EuRoC frames with 150–200 features.
    public init(gridColumns: Int = 20, gridRows: Int = 12, minDistance: Double = 20,
                qualityLevel: Float = 0.001, minScore: Float = 4, windowRadius: Int = 2,
                border: Int = 10) {
        self.gridColumns = gridColumns
        self.gridRows = gridRows
        self.minDistance = minDistance
        self.qualityLevel = qualityLevel
        self.minScore = minScore
        self.windowRadius = windowRadius
        self.border = border
    }

    /// Detects up to `maxCount` new corners in `image`, away from `existing` features.
    public func detect(in image: FloatPlane, existing: [Vector2], maxCount: Int) -> [Corner] {
        guard maxCount > 0 else { return [] }
        let w = image.width, h = image.height
        let cellW = Double(w) / Double(gridColumns), cellH = Double(h) / Double(gridRows)
        var occupied = [Bool](repeating: false, count: gridColumns * gridRows)
        for p in existing {
            let c = cellIndex(p, cellW, cellH)
            if c >= 0 { occupied[c] = true }
        }
        let md2 = minDistance * minDistance
        let border = max(self.border, windowRadius + 1)
        var scratch = ScoreScratch()
        var candidates: [(cell: Int, corner: Corner)] = []
        for row in 0..<gridRows {
            for col in 0..<gridColumns {
                let cell = row * gridColumns + col
                if occupied[cell] { continue }
                let x0 = max(Int((Double(col) * cellW).rounded(.up)), border)
                let x1 = min(Int((Double(col + 1) * cellW).rounded(.up)), w - border)
                let y0 = max(Int((Double(row) * cellH).rounded(.up)), border)
                let y1 = min(Int((Double(row + 1) * cellH).rounded(.up)), h - border)
                guard x1 > x0, y1 > y0 else { continue }
                if let c = bestCorner(image, x0, x1, y0, y1, existing, md2, &scratch) {
                    candidates.append((cell, c))
                }
            }
        }
        guard let best = candidates.map(\.corner.score).max() else { return [] }
        let threshold = max(minScore, qualityLevel * best)
        candidates.sort { a, b in
            a.corner.score != b.corner.score ? a.corner.score > b.corner.score : a.cell < b.cell
        }
        var chosen: [Corner] = []
        for (_, c) in candidates where c.score >= threshold {
            if chosen.contains(where: { squaredDistance($0.position, c.position) < md2 }) { continue }
            chosen.append(c)
            if chosen.count == maxCount { break }
        }
        return chosen
    }

    @inline(__always)
    private func cellIndex(_ p: Vector2, _ cellW: Double, _ cellH: Double) -> Int {
        let c = Int(p.x / cellW), r = Int(p.y / cellH)
        guard p.x >= 0, p.y >= 0, c < gridColumns, r < gridRows else { return -1 }
        return r * gridColumns + c
    }

    /// Reused buffers for the per-cell tensor computation (no per-cell allocation once warm).
    struct ScoreScratch {
        var gxx: [Float] = [], gxy: [Float] = [], gyy: [Float] = []
        var rowSum: [Float] = []
    }

    /// Scores pixels of `[x0, x1) × [y0, y1)` and returns the best one clear of `existing`.
    private func bestCorner(_ image: FloatPlane, _ x0: Int, _ x1: Int, _ y0: Int, _ y1: Int,
                            _ existing: [Vector2], _ md2: Double,
                            _ s: inout ScoreScratch) -> Corner? {
        let r = windowRadius
        // Gradient products on the region grown by r (needs 1 more px for central differences;
        // `border ≥ r + 1` keeps every access inside the image).
        let gx0 = x0 - r, gy0 = y0 - r
        let gw = x1 - x0 + 2 * r, gh = y1 - y0 + 2 * r
        let n = gw * gh
        if s.gxx.count < n {
            s.gxx = [Float](repeating: 0, count: n)
            s.gxy = s.gxx
            s.gyy = s.gxx
        }
        let cw = x1 - x0
        if s.rowSum.count < 3 * cw * gh { s.rowSum = [Float](repeating: 0, count: 3 * cw * gh) }
        let W = image.width
        let inv = 1 / Float((2 * r + 1) * (2 * r + 1))
        var bestScore: Float = -1
        var bestX = 0, bestY = 0
        var blockedBest = true
        image.pixels.withUnsafeBufferPointer { img in
            s.gxx.withUnsafeMutableBufferPointer { pxx in
            s.gxy.withUnsafeMutableBufferPointer { pxy in
            s.gyy.withUnsafeMutableBufferPointer { pyy in
            s.rowSum.withUnsafeMutableBufferPointer { rs in
                let I = img.baseAddress!
                for j in 0..<gh {
                    let y = gy0 + j
                    let row = I + y * W
                    for i in 0..<gw {
                        let x = gx0 + i
                        let dx = 0.5 * (row[x + 1] - row[x - 1])
                        let dy = 0.5 * (row[x + W] - row[x - W])
                        let k = j * gw + i
                        pxx[k] = dx * dx
                        pxy[k] = dx * dy
                        pyy[k] = dy * dy
                    }
                }
                // Horizontal box sums: cw × gh for each of the three products.
                let sxx = rs.baseAddress!, sxy = sxx + cw * gh, syy = sxy + cw * gh
                for j in 0..<gh {
                    for i in 0..<cw {
                        var a: Float = 0, b: Float = 0, c: Float = 0
                        let base = j * gw + i
                        for t in 0...(2 * r) {
                            a += pxx[base + t]
                            b += pxy[base + t]
                            c += pyy[base + t]
                        }
                        sxx[j * cw + i] = a
                        sxy[j * cw + i] = b
                        syy[j * cw + i] = c
                    }
                }
                // Vertical sums and λ_min = (a + c)/2 − √(((a − c)/2)² + b²).
                for j in 0..<(y1 - y0) {
                    for i in 0..<cw {
                        var a: Float = 0, b: Float = 0, c: Float = 0
                        for t in 0...(2 * r) {
                            let k = (j + t) * cw + i
                            a += sxx[k]
                            b += sxy[k]
                            c += syy[k]
                        }
                        a *= inv; b *= inv; c *= inv
                        let half = 0.5 * (a - c)
                        let lmin = 0.5 * (a + c) - (half * half + b * b).squareRoot()
                        if lmin > bestScore {
                            let p = Vector2(Double(x0 + i), Double(y0 + j))
                            if !existing.contains(where: { squaredDistance($0, p) < md2 }) {
                                bestScore = lmin
                                bestX = x0 + i
                                bestY = y0 + j
                                blockedBest = false
                            }
                        }
                    }
                }
            }}}}
        }
        if blockedBest { return nil }
        return Corner(position: Vector2(Double(bestX), Double(bestY)), score: bestScore)
    }
}

/// `‖a − b‖²` for 2-D points.
@inlinable @inline(__always)
public func squaredDistance(_ a: Vector2, _ b: Vector2) -> Double {
    let d = a - b
    return d.x * d.x + d.y * d.y
}
