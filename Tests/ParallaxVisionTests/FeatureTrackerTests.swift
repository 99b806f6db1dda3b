import Foundation
import ParallaxMath
import Testing
@testable import ParallaxVision

@Test func trackerKeepsIdsOnASlowlyPanningTexture() {
    let w = 320, h = 240
    let tex = AnalyticTexture(seed: 21, width: w, height: h)
    let cam = PinholeRadTanCamera(width: w, height: h, fx: 300, fy: 300, cx: 160, cy: 120)
    var config = FeatureTrackerConfiguration()
    config.maxFeatures = 60
    config.detector = GridCornerDetector(gridColumns: 10, gridRows: 8, minDistance: 15)
    var tracker = FeatureTracker(camera: cam, configuration: config)
    let step = Vector2(0.27, -0.19)
    var frames: [FeatureFrame] = []
    for k in 0..<10 {
        frames.append(tracker.process(image: tex.render(width: w, height: h, shift: step * Double(k)),
                                      timestamp: Double(k) * 0.05))
    }
    let first = frames[0]
    #expect(first.features.count >= 50)
    #expect(first.features.map(\.id) == Array(0..<first.features.count))
    let start = Dictionary(uniqueKeysWithValues: first.features.map { ($0.id, $0.pixel) })
    let last = frames[9]
    var survived = 0
    for f in last.features {
        guard let p0 = start[f.id] else { continue }
        survived += 1
        #expect(f.trackLength == 10)
        // Nine chained frame-to-frame tracks, each resampling a subpixel template: the
        // single-shift accuracy (< 0.05 px) accumulates like a random walk, ~3× over 9 steps.
        #expect(((f.pixel - p0) - 9 * step).norm < 0.1)
        #expect((cam.distortToPixel(f.normalized) - f.pixel).norm < 1e-6)
        #expect(f.rightPixel == nil)
    }
    #expect(survived >= first.features.count * 9 / 10, "\(survived) of \(first.features.count)")
    #expect(frames.allSatisfy { $0.rejectedByRansac == 0 })
}

@Test func trackerMatchesASyntheticStereoPair() {
    // A fronto-parallel textured plane at 2 m seen by two undistorted cameras 11 cm apart:
    // the right image is the left shifted by the disparity f·b/Z = 300·0.11/2 = 16.5 px.
    let w = 320, h = 240
    let tex = AnalyticTexture(seed: 4, width: w, height: h)
    let cam = PinholeRadTanCamera(width: w, height: h, fx: 300, fy: 300, cx: 160, cy: 120)
    let T_r_l = RigidTransform(rotation: .identity, translation: Vector3(-0.11, 0, 0))
    var config = FeatureTrackerConfiguration()
    config.maxFeatures = 60
    config.detector = GridCornerDetector(gridColumns: 10, gridRows: 8, minDistance: 15, border: 20)
    var tracker = FeatureTracker(camera: cam, rightCamera: cam, T_right_left: T_r_l, configuration: config)
    let left = tex.render(width: w, height: h)
    let right = tex.render(width: w, height: h, shift: Vector2(-16.5, 0))
    let frame = tracker.process(image: left, timestamp: 0, rightImage: right)
    let matched = frame.features.filter { $0.rightPixel != nil }
    // Features within 16.5 px of the left border leave the right image.
    #expect(matched.count >= frame.features.count * 8 / 10, "\(matched.count) of \(frame.features.count)")
    for f in matched {
        let r = f.rightPixel ?? .zero
        #expect(abs(r.x - (f.pixel.x - 16.5)) < 0.05 && abs(r.y - f.pixel.y) < 0.05)
    }
}

@Test func stereoDepthFromAMatchAndRejectionOfPointsBehind() {
    let cam = PinholeRadTanCamera(width: 320, height: 240, fx: 300, fy: 300, cx: 160, cy: 120)
    // A slightly rotated, 11 cm baseline pair, as EuRoC's.
    let T_r_l = RigidTransform(rotation: Quaternion(axis: Vector3(0, 1, 0), angle: 0.01),
                               translation: Vector3(-0.11, 0.001, 0.002))
    let matcher = StereoMatcher(left: cam, right: cam, T_right_left: T_r_l)
    for point in [Vector3(0.3, -0.2, 2), Vector3(-1, 0.5, 7.5), Vector3(0.05, 0.1, 0.4)] {
        let q = T_r_l * point
        let z = matcher.depth(leftNormalized: Vector2(point.x / point.z, point.y / point.z),
                              rightNormalized: Vector2(q.x / q.z, q.y / q.z))
        #expect(abs((z ?? 0) - point.z) < 1e-9 * point.z, "\(String(describing: z)) for \(point)")
    }
    // A right point on the wrong side (negative disparity) implies a point behind the cameras.
    let behind = matcher.depth(leftNormalized: Vector2(0, 0), rightNormalized: Vector2(0.06, 0))
    #expect((behind ?? -1) < 0)
}

/// A repetitive texture (period 20 × 16 px, like bricks or tiles) moved by 14 px between frames, as a
/// camera walking past a near wall moves it: started where the rotation alone puts each feature
/// (here: where it was), KLT locks onto the neighbouring period (−6 px); started where the predicted
/// translation at the feature's depth puts it, it finds the true motion.
@Test func translationPredictionKeepsKLTOnTheRightPeriodOfARepetitiveTexture() {
    let w = 320, h = 240, f = 300.0, depth = 1.5, shift = 14.0
    let cam = PinholeRadTanCamera(width: w, height: h, fx: f, fy: f, cx: 160, cy: 120)
    func image(_ dx: Double) -> FloatPlane {
        var img = FloatPlane(width: w, height: h)
        for y in 0..<h {
            for x in 0..<w {
                let u = Double(x) - dx, v = Double(y)
                img[x, y] = Float(128 + 50 * sin(2 * .pi * u / 20) * sin(2 * .pi * v / 16) + 20 * sin(2 * .pi * (u + v) / 20))
            }
        }
        return img
    }
    var config = FeatureTrackerConfiguration()
    config.maxFeatures = 60
    config.detector = GridCornerDetector(gridColumns: 10, gridRows: 8, minDistance: 15)
    func motions(prediction: TranslationPrediction?) -> [Double] {
        var tracker = FeatureTracker(camera: cam, configuration: config)
        let first = tracker.process(image: image(0), timestamp: 0, predictedRotation: .identity)
        let start = Dictionary(uniqueKeysWithValues: first.features.map { ($0.id, $0.pixel) })
        let second = tracker.process(image: image(shift), timestamp: 0.1, predictedRotation: .identity, translation: prediction)
        return second.features.compactMap { g in start[g.id].map { g.pixel.x - $0.x } }
    }
    // p_cur = p_prev + t: a point at depth d moves by f·t_x/d pixels.
    let depths = Dictionary(uniqueKeysWithValues: (0..<200).map { ($0, depth) })
    let predicted = motions(prediction: TranslationPrediction(t_cur_prev: Vector3(shift * depth / f, 0, 0), depths: depths))
    let rotationOnly = motions(prediction: nil)
    #expect(predicted.count >= 20)
    #expect(predicted.filter { abs($0 - shift) < 0.5 }.count >= predicted.count * 9 / 10)
    #expect(rotationOnly.count >= 20)  // tracked, and consistently wrong: RANSAC cannot tell
    #expect(rotationOnly.filter { abs($0 - shift) < 0.5 }.count <= rotationOnly.count / 10)
}

/// The predicted patch warp (what temporal KLT resamples its template with): a roll turns the patch
/// by the roll, walking towards a point at 2 m by 6 cm enlarges it by 2 / 1.94, and a pure shift of
/// the camera sideways leaves a patch parallel to the image unwarped.
@Test func patchWarpFollowsTheCameraMotion() throws {
    let cam = PinholeRadTanCamera(width: 320, height: 240, fx: 300, fy: 300, cx: 160, cy: 120)
    let tracker = FeatureTracker(camera: cam)
    let pixel = Vector2(200, 90)
    let f = TrackedFeature(id: 7, pixel: pixel, normalized: cam.undistort(pixel), rightPixel: nil, rightNormalized: nil, trackLength: 3)
    func near(_ w: PatchWarp, _ a: PatchWarp, _ tolerance: Double) -> Bool {
        max(abs(w.a11 - a.a11), abs(w.a12 - a.a12), abs(w.a21 - a.a21), abs(w.a22 - a.a22)) < tolerance
    }
    // Roll by 3° about the optical axis (p_cur = R p_prev): the patch turns by the same angle.
    let roll = 3 * Double.pi / 180
    let turned = try #require(tracker.patchWarp(f, rotation: SO3.exp(Vector3(0, 0, roll)), translation: nil))
    #expect(near(turned, PatchWarp(a11: cos(roll), a12: -sin(roll), a21: sin(roll), a22: cos(roll)), 1e-3))
    // Towards the point: depth 2 m → 1.94 m.
    let forward = TranslationPrediction(t_cur_prev: Vector3(0, 0, -0.06), depths: [7: 2.0])
    let closer = try #require(tracker.patchWarp(f, rotation: .identity, translation: forward))
    #expect(near(closer, PatchWarp(scale: 2 / 1.94), 1e-3))
    // Sideways: shifted, not warped.
    let sideways = TranslationPrediction(t_cur_prev: Vector3(0.05, 0, 0), depths: [7: 2.0])
    let shifted = try #require(tracker.patchWarp(f, rotation: .identity, translation: sideways))
    #expect(shifted.departure < 1e-6)
    // Without the feature's depth only the rotation counts.
    let unknown = TranslationPrediction(t_cur_prev: Vector3(0, 0, -0.06), depths: [8: 2.0])
    #expect(try #require(tracker.patchWarp(f, rotation: .identity, translation: unknown)).departure < 1e-6)
}
