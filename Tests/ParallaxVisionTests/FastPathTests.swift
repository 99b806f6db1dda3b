import ParallaxMath
import Testing
@testable import ParallaxVision

// The pyramid and the corner detector run on explicit vectors, branch-free interiors and
// padded buffers for speed. These tests hold them to the plain per-pixel formulas they
// implement, bit for bit, so a later speed-up cannot change results unnoticed.

/// `[1 4 6 4 1] / 16` blur and decimation, one output pixel at a time, borders replicated.
private func referenceDownsample(_ src: FloatPlane) -> FloatPlane {
    let w = src.width, h = src.height, w2 = (w + 1) / 2, h2 = (h + 1) / 2
    func at(_ x: Int, _ y: Int) -> Float { src[min(max(x, 0), w - 1), min(max(y, 0), h - 1)] }
    func horizontal(_ i: Int, _ y: Int) -> Float {
        let x = 2 * i
        return (at(x - 2, y) + at(x + 2, y) + 4 * (at(x - 1, y) + at(x + 1, y)) + 6 * at(x, y)) * (1.0 / 16.0)
    }
    var out = FloatPlane(width: w2, height: h2)
    for j in 0..<h2 {
        for i in 0..<w2 {
            let y = 2 * j
            func row(_ yy: Int) -> Float { horizontal(i, min(max(yy, 0), h - 1)) }
            out[i, j] = (row(y - 2) + row(y + 2) + 4 * (row(y - 1) + row(y + 1)) + 6 * row(y)) * (1.0 / 16.0)
        }
    }
    return out
}

@Test(arguments: [(33, 17), (40, 30), (161, 97)])
func downsampleMatchesPerPixelFormula(size: (Int, Int)) {
    let img = AnalyticTexture(seed: 11, width: size.0, height: size.1).render(width: size.0, height: size.1)
    #expect(ImagePyramid.downsample(img) == referenceDownsample(img))
}

/// Shi–Tomasi `λ_min` of the mean structure tensor at `(x, y)`, summed as the detector
/// documents: each window row left to right, then the row sums top to bottom.
private func referenceScore(_ img: FloatPlane, _ x: Int, _ y: Int, r: Int) -> Float {
    func products(_ u: Int, _ v: Int) -> (Float, Float, Float) {
        let dx = 0.5 * (img[u + 1, v] - img[u - 1, v]), dy = 0.5 * (img[u, v + 1] - img[u, v - 1])
        return (dx * dx, dx * dy, dy * dy)
    }
    var a: Float = 0, b: Float = 0, c: Float = 0
    for t in 0...(2 * r) {
        var (ra, rb, rc) = products(x - r, y - r + t)
        for u in 1...(2 * r) {
            let p = products(x - r + u, y - r + t)
            ra += p.0; rb += p.1; rc += p.2
        }
        if t == 0 { (a, b, c) = (ra, rb, rc) } else { a += ra; b += rb; c += rc }
    }
    let inv = 1 / Float((2 * r + 1) * (2 * r + 1))
    a *= inv; b *= inv; c *= inv
    let half = 0.5 * (a - c)
    return 0.5 * (a + c) - (half * half + b * b).squareRoot()
}

/// The detector's documented selection with scores from ``referenceScore``.
private func referenceDetect(_ det: GridCornerDetector, _ img: FloatPlane, existing: [Vector2],
                             maxCount: Int) -> [Corner] {
    let w = img.width, h = img.height
    let cellW = Double(w) / Double(det.gridColumns), cellH = Double(h) / Double(det.gridRows)
    var occupied = Set<Int>()
    for p in existing {
        let c = Int(p.x / cellW), r = Int(p.y / cellH)
        if p.x >= 0, p.y >= 0, c < det.gridColumns, r < det.gridRows { occupied.insert(r * det.gridColumns + c) }
    }
    let md2 = det.minDistance * det.minDistance
    let border = max(det.border, det.windowRadius + 1)
    var candidates: [(cell: Int, corner: Corner)] = []
    for row in 0..<det.gridRows {
        for col in 0..<det.gridColumns where !occupied.contains(row * det.gridColumns + col) {
            let x0 = max(Int((Double(col) * cellW).rounded(.up)), border)
            let x1 = min(Int((Double(col + 1) * cellW).rounded(.up)), w - border)
            let y0 = max(Int((Double(row) * cellH).rounded(.up)), border)
            let y1 = min(Int((Double(row + 1) * cellH).rounded(.up)), h - border)
            guard x1 > x0, y1 > y0 else { continue }
            var best: Corner?
            for y in y0..<y1 {
                for x in x0..<x1 {
                    let s = referenceScore(img, x, y, r: det.windowRadius)
                    let p = Vector2(Double(x), Double(y))
                    if s > (best?.score ?? -1), !existing.contains(where: { squaredDistance($0, p) < md2 }) {
                        best = Corner(position: p, score: s)
                    }
                }
            }
            if let best { candidates.append((row * det.gridColumns + col, best)) }
        }
    }
    guard let top = candidates.map(\.corner.score).max() else { return [] }
    let threshold = max(det.minScore, det.qualityLevel * top)
    candidates.sort { $0.corner.score != $1.corner.score ? $0.corner.score > $1.corner.score : $0.cell < $1.cell }
    var chosen: [Corner] = []
    for (_, c) in candidates where c.score >= threshold {
        if chosen.contains(where: { squaredDistance($0.position, c.position) < md2 }) { continue }
        chosen.append(c)
        if chosen.count == maxCount { break }
    }
    return chosen
}

@Test func detectorMatchesPerPixelReference() {
    let w = 203, h = 151  // cells of uneven, non-multiple-of-8 widths
    let img = AnalyticTexture(seed: 17, width: w, height: h).render(width: w, height: h)
    for det in [GridCornerDetector(gridColumns: 7, gridRows: 5, minDistance: 12),
                GridCornerDetector(gridColumns: 6, gridRows: 4, minDistance: 18, windowRadius: 3, border: 6)] {
        let fresh = det.detect(in: img, existing: [], maxCount: 100)
        #expect(!fresh.isEmpty)
        #expect(fresh == referenceDetect(det, img, existing: [], maxCount: 100))
        // Existing features block whole cells and, near them, single pixels of other cells.
        let existing = stride(from: 0, to: fresh.count, by: 3).map { fresh[$0].position + Vector2(3.5, -2.25) }
        #expect(det.detect(in: img, existing: existing, maxCount: 100)
                == referenceDetect(det, img, existing: existing, maxCount: 100))
    }
}

@Test func kltTracksPointsWhoseWindowsCrossTheBorder() {
    // Near the border the coarse-level windows are clamped (replicated border) and the
    // vectorised sampler takes its per-lane path; level 0 still recovers the shift.
    let w = 320, h = 240
    let tex = AnalyticTexture(seed: 8, width: w, height: h)
    let shift = Vector2(1.23, -0.71)
    let a = ImagePyramid(base: tex.render(width: w, height: h), levelCount: 3)
    let b = ImagePyramid(base: tex.render(width: w, height: h, shift: shift), levelCount: 3)
    let pts = [Vector2(12, 14), Vector2(307, 120), Vector2(160, 226), Vector2(14, 225), Vector2(305, 16)]
    let tracked = LucasKanadeTracker().track(from: a, to: b, points: pts)
    for (p, q) in zip(pts, tracked) {
        #expect(q != nil, "lost \(p)")
        if let q { #expect(((q - p) - shift).norm < 0.05, "\(p) → \(q)") }
    }
}
