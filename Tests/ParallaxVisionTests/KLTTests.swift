import ParallaxMath
import Testing
@testable import ParallaxVision

@Test func pyramidHalvesAndPreservesMean() {
    let img = AnalyticTexture(seed: 3, width: 160, height: 120).render(width: 160, height: 120)
    let pyr = ImagePyramid(base: img, levelCount: 4)
    #expect(pyr.levels.map(\.width) == [160, 80, 40, 20])
    #expect(pyr.levels.map(\.height) == [120, 60, 30, 15])
    let mean0 = img.pixels.reduce(0, +) / Float(img.pixels.count)
    let mean1 = pyr.levels[1].pixels.reduce(0, +) / Float(pyr.levels[1].pixels.count)
    #expect(abs(mean0 - mean1) < 1.0)
    // A constant image stays constant (kernel sums to 1, borders replicated).
    let flat = ImagePyramid(base: FloatPlane(width: 33, height: 17, fill: 77), levelCount: 2)
    #expect(flat.levels[1].pixels.allSatisfy { abs($0 - 77) < 1e-4 })
}

@Test func kltRecoversKnownSubpixelShift() throws {
    let w = 320, h = 240
    let tex = AnalyticTexture(seed: 42, width: w, height: h)
    let shift = Vector2(3.37, -1.81)
    let a = ImagePyramid(base: tex.render(width: w, height: h), levelCount: 3)
    let b = ImagePyramid(base: tex.render(width: w, height: h, shift: shift), levelCount: 3)
    let corners = GridCornerDetector(gridColumns: 8, gridRows: 6, minDistance: 15)
        .detect(in: a.base, existing: [], maxCount: 40)
    #expect(corners.count >= 30)
    let pts = corners.map(\.position)
    let klt = LucasKanadeTracker()
    let tracked = klt.trackChecked(from: a, to: b, points: pts)
    var errors: [Double] = []
    for (p, q) in zip(pts, tracked) {
        guard let q else { continue }
        errors.append(((q - p) - shift).norm)
    }
    #expect(errors.count >= pts.count * 9 / 10, "tracked \(errors.count) of \(pts.count)")
    let worst = errors.max() ?? .infinity
    #expect(worst < 0.05, "worst error \(worst) px")
}

@Test func kltUsesInitialGuessForLargeMotion() {
    let w = 320, h = 240
    let tex = AnalyticTexture(seed: 7, width: w, height: h)
    let shift = Vector2(-41.3, 22.6)  // beyond what 3 levels of 15×15 recover unaided
    let a = ImagePyramid(base: tex.render(width: w, height: h), levelCount: 3)
    let b = ImagePyramid(base: tex.render(width: w, height: h, shift: shift), levelCount: 3)
    let pts = [Vector2(160, 100), Vector2(200, 120), Vector2(120, 90)]
    let guesses = pts.map { $0 + shift + Vector2(1.5, -2.0) }
    let tracked = LucasKanadeTracker().track(from: a, to: b, points: pts, guesses: guesses)
    for (p, q) in zip(pts, tracked) {
        let q = try? #require(q)
        if let q { #expect(((q - p) - shift).norm < 0.05) }
    }
}

@Test func kltRejectsPointsThatLeaveTheImage() {
    let w = 200, h = 150
    let tex = AnalyticTexture(seed: 9, width: w, height: h)
    let a = ImagePyramid(base: tex.render(width: w, height: h), levelCount: 3)
    let b = ImagePyramid(base: tex.render(width: w, height: h, shift: Vector2(-30, 0)), levelCount: 3)
    let tracked = LucasKanadeTracker().track(from: a, to: b, points: [Vector2(15, 75)],
                                             guesses: [Vector2(-15, 75)])
    #expect(tracked[0] == nil)
}

@Test func detectorSpreadsCornersAndRespectsMask() {
    let w = 320, h = 240
    let img = AnalyticTexture(seed: 5, width: w, height: h).render(width: w, height: h)
    let det = GridCornerDetector(gridColumns: 8, gridRows: 6, minDistance: 20)
    let all = det.detect(in: img, existing: [], maxCount: 100)
    // One per cell at most; a cell loses its corner only to the minimum distance.
    #expect(all.count >= 30 && all.count <= 48, "\(all.count) corners")
    for (i, a) in all.enumerated() {
        for b in all[(i + 1)...] { #expect(squaredDistance(a.position, b.position) >= 400) }
    }
    // With existing features, new corners avoid their cells and keep the minimum distance.
    let existing = Array(all.prefix(20)).map(\.position)
    let more = det.detect(in: img, existing: existing, maxCount: 100)
    for c in more {
        #expect(existing.allSatisfy { squaredDistance($0, c.position) >= 400 })
    }
    #expect(more.count <= 48 - 20)
    // Deterministic.
    #expect(det.detect(in: img, existing: existing, maxCount: 100) == more)
    // Respects maxCount, keeping the strongest.
    let few = det.detect(in: img, existing: [], maxCount: 5)
    #expect(few.count == 5 && few == Array(all.prefix(5)))
}

@Test func kltTracksFromASmallTemplatePatchIntoAFullImage() throws {
    // The template image may be a patch cut from an earlier frame: the border test must use the
    // image tracked into, not the patch (it used to reject every such track).
    let w = 320, h = 240
    let tex = AnalyticTexture(seed: 5, width: w, height: h)
    let full = tex.render(width: w, height: h)
    let shifted = ImagePyramid(base: tex.render(width: w, height: h, shift: Vector2(0.6, -0.4)), levelCount: 1)
    let corner = try #require(GridCornerDetector(gridColumns: 4, gridRows: 3, minDistance: 30)
        .detect(in: full, existing: [], maxCount: 1).first).position
    let x0 = Int(corner.x) - 12, y0 = Int(corner.y) - 12
    var patch = FloatPlane(width: 26, height: 26)
    for y in 0..<26 { for x in 0..<26 { patch.pixels[y * 26 + x] = full.pixels[(y0 + y) * w + x0 + x] } }
    let inPatch = corner - Vector2(Double(x0), Double(y0))
    let result = LucasKanadeTracker().track(from: ImagePyramid(base: patch, levelCount: 1), to: shifted,
                                            points: [inPatch], guesses: [corner])[0]
    let q = try #require(result)
    #expect((q - corner - Vector2(0.6, -0.4)).norm < 0.05, "tracked to \(q), expected \(corner + Vector2(0.6, -0.4))")
}

/// An exposure change between frames (every pixel scaled by 1.3, plus an offset): with the gain
/// term KLT still lands on the true shift; with the offset alone it is biased or loses points.
@Test func kltWithGainFollowsAnExposureChange() throws {
    let w = 320, h = 240
    let tex = AnalyticTexture(seed: 11, width: w, height: h)
    let shift = Vector2(2.41, 1.17)
    let a = ImagePyramid(base: tex.render(width: w, height: h), levelCount: 3)
    var brighter = tex.render(width: w, height: h, shift: shift)
    brighter.pixels = brighter.pixels.map { 1.3 * $0 + 6 }
    let b = ImagePyramid(base: brighter, levelCount: 3)
    let pts = GridCornerDetector(gridColumns: 8, gridRows: 6, minDistance: 15)
        .detect(in: a.base, existing: [], maxCount: 40).map(\.position)
    #expect(pts.count >= 30)
    func errors(_ klt: LucasKanadeTracker) -> [Double] {
        zip(pts, klt.trackChecked(from: a, to: b, points: pts)).compactMap { p, q in q.map { (($0 - p) - shift).norm } }
    }
    let withGain = errors(LucasKanadeTracker(compensatesGain: true))
    let offsetOnly = errors(LucasKanadeTracker(compensatesGain: false))
    #expect(withGain.count >= pts.count * 9 / 10, "tracked \(withGain.count) of \(pts.count)")
    #expect((withGain.max() ?? .infinity) < 0.05, "worst error with gain \(withGain.max() ?? .infinity) px")
    let rms = { (e: [Double]) in (e.map { $0 * $0 }.reduce(0, +) / Double(max(e.count, 1))).squareRoot() }
    #expect(offsetOnly.count < withGain.count || rms(offsetOnly) > 2 * rms(withGain),
            "offset only: \(offsetOnly.count) tracked, rms \(rms(offsetOnly)); with gain: rms \(rms(withGain))")
}

/// A camera moving towards the scene enlarges each patch (here 3 % about the image centre, a walker
/// at 1.4 m/s past a point 2.3 m away at 20 Hz): the translation-only window is pulled off the
/// point, and told the scale it resamples its template and lands on it.
@Test func kltWithAKnownScaleFollowsAnEnlargingPatch() throws {
    let w = 400, h = 300, s = 1.03
    let tex = AnalyticTexture(seed: 11, width: w, height: h)
    let c = Vector2(Double(w) / 2, Double(h) / 2)
    var zoomed = FloatPlane(width: w, height: h)
    for y in 0..<h {
        for x in 0..<w { zoomed[x, y] = Float(tex.value(c.x + (Double(x) - c.x) / s, c.y + (Double(y) - c.y) / s)) }
    }
    let a = ImagePyramid(base: tex.render(width: w, height: h), levelCount: 3)
    let b = ImagePyramid(base: zoomed, levelCount: 3)
    let points = GridCornerDetector(gridColumns: 8, gridRows: 6, minDistance: 15)
        .detect(in: a.base, existing: [], maxCount: 40).map(\.position)
        .filter { ($0 - c).norm < 120 }  // inside the zoomed image, away from its border
    #expect(points.count >= 15)
    let truth = points.map { c + ($0 - c) * s }
    let guesses = truth.map { $0 + Vector2(0.8, -0.6) }
    func rms(_ tracked: [Vector2?]) -> (rms: Double, count: Int) {
        let e = zip(tracked, truth).compactMap { q, t in q.map { squaredDistance($0, t) } }
        return ((e.reduce(0, +) / Double(max(e.count, 1))).squareRoot(), e.count)
    }
    let klt = LucasKanadeTracker()
    let plain = rms(klt.track(from: a, to: b, points: points, guesses: guesses))
    let scaled = rms(klt.track(from: a, to: b, points: points, guesses: guesses, warps: Array(repeating: PatchWarp(scale: s), count: points.count)))
    print("KLT on a patch enlarged by \(s): plain \(plain.rms) px rms, scaled \(scaled.rms) px rms over \(scaled.count) points")
    #expect(scaled.count >= plain.count)
    #expect(scaled.rms < 0.03, "with the scale: \(scaled.rms) px rms")
    #expect(scaled.rms < plain.rms / 3, "plain \(plain.rms) px, scaled \(scaled.rms) px")
    // A scale of exactly 1 is the plain window, bit for bit.
    let one = klt.track(from: a, to: b, points: points, guesses: guesses, warps: Array(repeating: .identity, count: points.count))
    #expect(one == klt.track(from: a, to: b, points: points, guesses: guesses))
}
