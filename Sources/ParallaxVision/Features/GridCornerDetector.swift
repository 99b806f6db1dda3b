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
public struct GridCornerDetector: Sendable, Equatable {
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
        /// Gradient products `Ix²`, `IxIy`, `Iy²` over the grown region, then their
        /// horizontal box sums, then one row of vertical sums and scores.
        var buffer: [Float] = []
        /// The existing features that can block a pixel of the current cell.
        var nearby: [Vector2] = []
    }

    /// Scores pixels of `[x0, x1) × [y0, y1)` and returns the best one clear of `existing`.
    ///
    /// Each stage runs on explicit 8-lane vectors over contiguous rows (the compiler cannot
    /// vectorise the scalar loops itself: it must assume the buffers alias). Every lane
    /// does the scalar arithmetic of its pixel, and the box sums add their `2r + 1` terms
    /// first to last, so the scores are those of the plain per-pixel formula.
    private func bestCorner(_ image: FloatPlane, _ x0: Int, _ x1: Int, _ y0: Int, _ y1: Int,
                            _ existing: [Vector2], _ md2: Double,
                            _ s: inout ScoreScratch) -> Corner? {
        let r = windowRadius, taps = 2 * r + 1
        // Only features closer than `minDistance` to the cell rectangle can block one of its
        // pixels; testing just those keeps the per-candidate check short.
        s.nearby.removeAll(keepingCapacity: true)
        let left = Double(x0), right = Double(x1 - 1), top = Double(y0), bottom = Double(y1 - 1)
        for p in existing {
            let dx = max(left - p.x, 0, p.x - right), dy = max(top - p.y, 0, p.y - bottom)
            if dx * dx + dy * dy < md2 { s.nearby.append(p) }
        }
        // Gradient products on the region grown by r (needs 1 more px for central differences;
        // `border ≥ r + 1` keeps every access inside the image). Rows of every buffer are
        // padded to whole vectors; padding columns hold zeros and their scores are ignored.
        typealias Lanes = SIMD8<Float>
        let L = Lanes.scalarCount
        let gx0 = x0 - r, gy0 = y0 - r
        let cw = x1 - x0, ch = y1 - y0
        let cwp = (cw + L - 1) / L * L           // padded cell width
        let gw = cw + 2 * r, gwp = cwp + 2 * r   // grown width, padded
        let gh = ch + 2 * r
        let products = gwp * gh, sums = cwp * gh
        let needed = 3 * products + 3 * sums + cwp
        if s.buffer.count < needed { s.buffer = [Float](repeating: 0, count: needed) }
        let W = image.width
        let inv = Lanes(repeating: 1 / Float(taps * taps))
        var bestScore: Float = -1
        var bestX = 0, bestY = 0
        var blockedBest = true
        let nearby = s.nearby
        image.pixels.withUnsafeBufferPointer { img in
            s.buffer.withUnsafeMutableBufferPointer { buf in
                @inline(__always) func load(_ q: UnsafePointer<Float>) -> Lanes {
                    UnsafeRawPointer(q).loadUnaligned(as: Lanes.self)
                }
                @inline(__always) func store(_ v: Lanes, _ q: UnsafeMutablePointer<Float>) {
                    UnsafeMutableRawPointer(q).storeBytes(of: v, as: Lanes.self)
                }
                let I = img.baseAddress!
                let pxx = buf.baseAddress!, pxy = pxx + products, pyy = pxy + products
                let half = Lanes(repeating: 0.5)
                for j in 0..<gh {
                    let row = I + (gy0 + j) * W + gx0
                    let up = row - W, down = row + W
                    let oxx = pxx + j * gwp, oxy = pxy + j * gwp, oyy = pyy + j * gwp
                    var i = 0
                    while i + L <= gw {
                        let dx = half * (load(row + i + 1) - load(row + i - 1))
                        let dy = half * (load(down + i) - load(up + i))
                        store(dx * dx, oxx + i)
                        store(dx * dy, oxy + i)
                        store(dy * dy, oyy + i)
                        i += L
                    }
                    while i < gw {
                        let dx = 0.5 * (row[i + 1] - row[i - 1])
                        let dy = 0.5 * (down[i] - up[i])
                        oxx[i] = dx * dx
                        oxy[i] = dx * dy
                        oyy[i] = dy * dy
                        i += 1
                    }
                    for i in gw..<gwp { oxx[i] = 0; oxy[i] = 0; oyy[i] = 0 }
                }
                // Horizontal box sums: cwp × gh for each of the three products.
                let sxx = pyy + products, sxy = sxx + sums, syy = sxy + sums
                @inline(__always) func horizontal(_ srow: UnsafePointer<Float>, _ drow: UnsafeMutablePointer<Float>) {
                    for c in stride(from: 0, to: cwp, by: L) {
                        var acc = load(srow + c)
                        for t in 1..<taps { acc += load(srow + c + t) }
                        store(acc, drow + c)
                    }
                }
                for j in 0..<gh {
                    horizontal(pxx + j * gwp, sxx + j * cwp)
                    horizontal(pxy + j * gwp, sxy + j * cwp)
                    horizontal(pyy + j * gwp, syy + j * cwp)
                }
                // Vertical sums and λ_min = (a + c)/2 − √(((a − c)/2)² + b²), one row at a time.
                let score = syy + sums
                @inline(__always) func vertical(_ top: UnsafePointer<Float>) -> Lanes {
                    var acc = load(top)
                    for t in 1..<taps { acc += load(top + t * cwp) }
                    return acc * inv
                }
                for j in 0..<ch {
                    for c in stride(from: 0, to: cwp, by: L) {
                        let k = j * cwp + c
                        let a = vertical(sxx + k), b = vertical(sxy + k), cc = vertical(syy + k)
                        let h = half * (a - cc)
                        store(half * (a + cc) - (h * h + b * b).squareRoot(), score + c)
                    }
                    for i in 0..<cw where score[i] > bestScore {
                        let p = Vector2(Double(x0 + i), Double(y0 + j))
                        if !nearby.contains(where: { squaredDistance($0, p) < md2 }) {
                            bestScore = score[i]
                            bestX = x0 + i
                            bestY = y0 + j
                            blockedBest = false
                        }
                    }
                }
            }
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
