import Foundation
import ParallaxImaging

/// Measures the relative brightness change between consecutive frames from the *same* scene
/// points, so that real light and exposure changes are told apart from the camera simply
/// looking at brighter or darker things.
///
/// Each frame is reduced to a small linear-light thumbnail (block means). The previous
/// thumbnail is aligned to the current one by an exhaustive search over integer shifts (the
/// frame-to-frame image motion of a handheld camera at 10–30 Hz is mostly a translation at this
/// scale); at the best shift, the median of the per-pixel log ratios is the brightness change.
/// This is the affine-brightness idea of direct visual odometry (Engel et al., "Direct Sparse
/// Odometry", TPAMI 2018, §2.1) reduced to a single gain, made robust by the median.
public struct BrightnessChangeTracker: Sendable {
    /// Thumbnail block size (px).
    public var block: Int
    /// Largest shift searched, in thumbnail cells (each way).
    public var maxShift: Int
    /// Smallest linear value used in ratios (darker cells are too noisy).
    public var minimumValue: Float
    private var previous: (w: Int, h: Int, log: [Float], valid: [Bool])?

    /// Creates a tracker (8-pixel blocks, ±8 cells = ±64 px search).
    public init(block: Int = 8, maxShift: Int = 8, minimumValue: Float = 0.01) {
        self.block = max(1, block); self.maxShift = max(0, maxShift); self.minimumValue = minimumValue
    }

    /// Feeds a frame (decoded with `table`, 256 linear values) and returns ln(brightness now /
    /// brightness before), nil for the first frame or when the frames share too little.
    public mutating func update(_ image: AnyImage, table: [Double]) -> Double? {
        let thumb = Self.thumbnail(image, block: block, table: table)
        let logs = thumb.values.map { $0 > minimumValue ? log($0) : 0 }
        let valid = thumb.values.map { $0 > minimumValue && $0 < 0.98 }
        defer { previous = (thumb.w, thumb.h, logs, valid) }
        guard let prev = previous, prev.w == thumb.w, prev.h == thumb.h else { return nil }
        let w = thumb.w, h = thumb.h
        // Coarse search: mean squared deviation of the log ratio from its mean at each shift.
        // Validity enters as 0/1 weights (an invalid cell adds exactly zero), which keeps the
        // inner loop free of branches and lets it run on vectors.
        let weights = valid.map { $0 ? Float(1) : 0 }, previousWeights = prev.valid.map { $0 ? Float(1) : 0 }
        var best: (dx: Int, dy: Int, score: Float) = (0, 0, .infinity)
        logs.withUnsafeBufferPointer { logs in
            prev.log.withUnsafeBufferPointer { previousLogs in
                weights.withUnsafeBufferPointer { weights in
                    previousWeights.withUnsafeBufferPointer { previousWeights in
                        for dy in -maxShift...maxShift {
                            for dx in -maxShift...maxShift {
                                let (sum, sum2, n) = Self.shiftSums(logs, previousLogs, weights, previousWeights,
                                                                    w: w, h: h, dx: dx, dy: dy)
                                guard n >= Float(max(16, w * h / 4)) else { continue }
                                let mean = sum / n
                                let score = sum2 / n - mean * mean
                                if score < best.score { best = (dx, dy, score) }
                            }
                        }
                    }
                }
            }
        }
        guard best.score.isFinite else { return nil }
        // Refine to a quarter cell: the previous thumbnail is sampled bilinearly at the shifted
        // positions; the shift with the least log-ratio variance wins.
        let prevLinear = prev.log.map { exp($0) }, curLinear = logs.map { exp($0) }
        var refined: (score: Float, ratios: [Double]) = (.infinity, [])
        let regionColumn = Self.regionColumns(width: w)
        for fy in stride(from: -0.5 as Float, through: 0.5, by: 0.25) {
            for fx in stride(from: -0.5 as Float, through: 0.5, by: 0.25) {
                let r = compare(prev: prevLinear, prevValid: prev.valid, cur: curLinear, curValid: valid, w: w, h: h,
                                regionColumn: regionColumn, sx: Float(best.dx) + fx, sy: Float(best.dy) + fy)
                if r.score < refined.score { refined = r }
            }
        }
        var ratios = refined.ratios
        guard !ratios.isEmpty else { return nil }
        ratios.sort()
        let n = ratios.count
        return n % 2 == 1 ? ratios[n / 2] : 0.5 * (ratios[n / 2 - 1] + ratios[n / 2])
    }

    /// Σ r, Σ r² and the number of cells valid in both thumbnails, where r is the log ratio of
    /// cell (x + dx, y + dy) now to cell (x, y) before. The search evaluates this at every integer
    /// shift (289 shifts of about 5 600 cells per frame), so each row runs on 8-lane vectors.
    @inline(__always)
    private static func shiftSums(_ logs: UnsafeBufferPointer<Float>, _ previousLogs: UnsafeBufferPointer<Float>,
                                  _ weights: UnsafeBufferPointer<Float>, _ previousWeights: UnsafeBufferPointer<Float>,
                                  w: Int, h: Int, dx: Int, dy: Int) -> (sum: Float, sum2: Float, n: Float) {
        typealias Lanes = SIMD8<Float>
        var sum = Lanes(), sum2 = Lanes(), count = Lanes()
        var tail: (sum: Float, sum2: Float, n: Float) = (0, 0, 0)
        let x0 = max(0, -dx), x1 = min(w, w - dx)
        guard let L = logs.baseAddress, let P = previousLogs.baseAddress,
              let W = weights.baseAddress, let V = previousWeights.baseAddress, x1 > x0 else { return (0, 0, 0) }
        @inline(__always) func load(_ p: UnsafePointer<Float>) -> Lanes { UnsafeRawPointer(p).loadUnaligned(as: Lanes.self) }
        for y in max(0, -dy)..<min(h, h - dy) {
            let i = y * w, j = (y + dy) * w + dx
            var x = x0
            while x + Lanes.scalarCount <= x1 {
                let weight = load(W + j + x) * load(V + i + x)
                let r = weight * (load(L + j + x) - load(P + i + x))
                sum += r; sum2 += r * r; count += weight
                x += Lanes.scalarCount
            }
            while x < x1 {
                let weight = W[j + x] * V[i + x]
                let r = weight * (L[j + x] - P[i + x])
                tail.sum += r; tail.sum2 += r * r; tail.n += weight
                x += 1
            }
        }
        return (sum.sum() + tail.sum, sum2.sum() + tail.sum2, count.sum() + tail.n)
    }

    /// Compares the current thumbnail with the previous one displaced by (sx, sy) cells (a scene
    /// point at cell x before is at x + sx now); both are linear values. Returns the variance of the per-cell log ratios
    /// and, per region of a 4×4 grid over the overlap, the log ratio of the summed linear values
    /// (region sums are insensitive to residual misalignment; the caller's median over regions
    /// rejects regions where something moved or a highlight appeared).
    /// `regionColumn[x]` is the region column of cell column x (``regionColumns(width:)``). The
    /// loop reads every buffer without bounds checks: with them it ran measurably slower
    /// (`evaluate light` 6.1–6.6 against 7.3–8.0 s over 601 frames, interleaved).
    private func compare(prev: [Float], prevValid: [Bool], cur: [Float], curValid: [Bool], w: Int, h: Int,
                         regionColumn: [Int], sx: Float, sy: Float) -> (score: Float, ratios: [Double]) {
        let grid = Self.regionGrid
        var sumPrev = [Float](repeating: 0, count: grid * grid), sumCur = sumPrev
        var counts = [Int](repeating: 0, count: grid * grid)
        var sum: Float = 0, sum2: Float = 0, n = 0
        prev.withUnsafeBufferPointer { prev in
        prevValid.withUnsafeBufferPointer { prevValid in
        cur.withUnsafeBufferPointer { cur in
        curValid.withUnsafeBufferPointer { curValid in
        regionColumn.withUnsafeBufferPointer { regionColumn in
        sumPrev.withUnsafeMutableBufferPointer { sumPrev in
        sumCur.withUnsafeMutableBufferPointer { sumCur in
        counts.withUnsafeMutableBufferPointer { counts in
            for y in 0..<h {
                let py = Float(y) - sy
                guard py >= 0, py < Float(h - 1) else { continue }
                let y0 = Int(py), ty = py - Float(y0)
                let regionRow = min(grid - 1, y * grid / h) * grid
                for x in 0..<w {
                    let px = Float(x) - sx
                    guard px >= 0, px < Float(w - 1), curValid[y * w + x] else { continue }
                    let x0 = Int(px), tx = px - Float(x0)
                    let i00 = y0 * w + x0, i01 = i00 + 1, i10 = i00 + w, i11 = i10 + 1
                    guard prevValid[i00], prevValid[i01], prevValid[i10], prevValid[i11] else { continue }
                    let top = prev[i00] + (prev[i01] - prev[i00]) * tx
                    let bottom = prev[i10] + (prev[i11] - prev[i10]) * tx
                    let p = top + (bottom - top) * ty
                    let c = cur[y * w + x]
                    guard p > 0 else { continue }
                    let r = log(c / p)
                    sum += r; sum2 += r * r; n += 1
                    let g = regionRow + regionColumn[x]
                    sumPrev[g] += p; sumCur[g] += c; counts[g] += 1
                }
            }
        }}}}}}}}
        guard n >= max(16, w * h / 4) else { return (.infinity, []) }
        let mean = sum / Float(n)
        var ratios: [Double] = []
        for g in 0..<(grid * grid) where counts[g] >= 4 && sumPrev[g] > 0 && sumCur[g] > 0 {
            ratios.append(Double(log(sumCur[g] / sumPrev[g])))
        }
        return (sum2 / Float(n) - mean * mean, ratios)
    }

    /// Side of the grid of regions whose summed values give the brightness ratios.
    private static let regionGrid = 4

    /// The region column of every cell column of a `w`-wide thumbnail: computed once per frame
    /// rather than divided out per cell in each of the 25 comparisons.
    private static func regionColumns(width w: Int) -> [Int] { (0..<w).map { min(regionGrid - 1, $0 * regionGrid / w) } }

    /// Forgets the previous frame.
    public mutating func reset() { previous = nil }

    /// Block means of linear luminance.
    static func thumbnail(_ image: AnyImage, block: Int, table: [Double]) -> (w: Int, h: Int, values: [Float]) {
        let w = image.width / block, h = image.height / block
        var out = [Float](repeating: 0, count: max(0, w * h))
        guard w > 0, h > 0 else { return (0, 0, []) }
        let t = table.map { Float($0) }
        let scale = 1 / Float(block * block)
        // One loop per pixel type (the AR session's grey frames take the first): the type test
        // and bounds checks stay out of the per-pixel work; the sums are the same, in the same order.
        func blockMeans(_ value: (Int) -> Float) {
            for by in 0..<h {
                for bx in 0..<w {
                    var s: Float = 0
                    for y in (by * block)..<((by + 1) * block) {
                        let row = y * image.width
                        for x in (bx * block)..<((bx + 1) * block) { s += value(row + x) }
                    }
                    out[by * w + bx] = s * scale
                }
            }
        }
        t.withUnsafeBufferPointer { t in
            if case .gray8(let gray) = image {
                gray.pixels.withUnsafeBufferPointer { px in blockMeans { t[Int(px[$0])] } }
            } else {
                let rgba = image.toRGBA8()
                rgba.pixels.withUnsafeBufferPointer { px in
                    blockMeans { let p = px[$0]; return 0.2126 * t[Int(p.r)] + 0.7152 * t[Int(p.g)] + 0.0722 * t[Int(p.b)] }
                }
            }
        }
        return (w, h, out)
    }
}
