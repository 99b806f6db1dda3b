import Foundation
import ParallaxMath
import Testing

@testable import ParallaxTracking

/// The rolling-shutter readout estimated from frame pairs (gyro rates, gyro rotation, tracks).
@Suite("Rolling-shutter readout from the gyro and the tracks")
struct ReadoutEstimatorTests {
    /// A camera that turns with a changing rate and walks, seeing points 1.5–5 m away; each point is
    /// observed at the row its own row time puts it in (`readout` top to bottom, the frame time at
    /// the middle row), with 0.3 px of noise.
    struct Scene {
        let f = 460.0, cx = 376.0, cy = 240.0, height = 480
        let frameInterval = 0.05
        var points: [Vector3] = []
        var noise: UInt64 = 0x9E37_79B9_7F4A_7C15

        init() {
            var rng = SplitMix64(seed: 7)
            for _ in 0..<150 {
                let depth = 1.5 + 3.5 * Double.random(in: 0..<1, using: &rng)
                points.append(Vector3(Double.random(in: -0.7..<0.7, using: &rng) * depth, Double.random(in: -0.45..<0.45, using: &rng) * depth, depth))
            }
        }

        /// Camera-to-world rotation and centre at time t: a wobbling turn (the rate changes by
        /// 0.2–1 rad/s between frames, as a hand's does) and a 0.4 m/s walk.
        func pose(_ t: Double) -> (Matrix3, Vector3) {
            let angle = Vector3(0.25 * sin(7 * t) + 0.4 * t, 0.3 * sin(5 * t + 1), 0.15 * sin(9 * t))
            return (SO3.exp(angle), Vector3(0.4 * t, 0.05 * sin(3 * t), 0.1 * t))
        }

        /// Turn rate in the camera frame at t (numerical: R(t)ᵀ R(t + ε)).
        func rate(_ t: Double) -> Vector3 {
            let e = 1e-6
            return SO3.log(pose(t).0.transpose * pose(t + e).0) / e
        }

        /// Point `i` as seen in frame `k`: normalised coordinates and row, nil outside the image.
        mutating func observe(_ i: Int, frame k: Int, readout: Double) -> (normalized: Vector2, row: Double)? {
            let t = Double(k) * frameInterval
            var row = cy
            var n = Vector2(0, 0)
            for _ in 0..<5 {  // the row fixes the time, the time the row
                let (R, c) = pose(t + (row - Double(height - 1) / 2) * readout / Double(height))
                let p = R.transpose * (points[i] - c)
                guard p.z > 0.1 else { return nil }
                n = Vector2(p.x / p.z, p.y / p.z)
                row = cy + f * n.y
            }
            guard row >= 0, row < Double(height), abs(f * n.x) < cx else { return nil }
            var rng = SplitMix64(seed: noise)
            noise = noise &* 6364136223846793005 &+ 1442695040888963407
            let jitter = Vector2(rng.gaussian(), rng.gaussian()) * (0.3 / f)
            return (n + jitter, row)
        }

        /// Feeds `pairs` consecutive frame pairs to `estimator`.
        mutating func feed(_ estimator: inout ReadoutEstimator, readout: Double, pairs: Int) {
            for k in 0..<pairs {
                var previous: [(normalized: Vector2, row: Double)] = [], current: [(normalized: Vector2, row: Double)] = []
                for i in points.indices {
                    guard let a = observe(i, frame: k, readout: readout), let b = observe(i, frame: k + 1, readout: readout) else { continue }
                    previous.append(a)
                    current.append(b)
                }
                let t0 = Double(k) * frameInterval, t1 = t0 + frameInterval
                estimator.add(previous: previous, current: current, ratePrevious: rate(t0), rateCurrent: rate(t1),
                              rotation: pose(t1).0.transpose * pose(t0).0)
            }
        }
    }

    @Test("a 20 ms readout is found within 1.5 ms; a global shutter gives 0", arguments: [0.02, 0.0])
    func recovers(readout: Double) throws {
        var scene = Scene()
        var estimator = ReadoutEstimator(height: scene.height)
        scene.feed(&estimator, readout: readout, pairs: 120)
        let estimate = try #require(estimator.estimate)
        print(String(format: "readout %.1f ms: estimated %.2f ms over %d pairs", readout * 1e3, estimate * 1e3, estimator.pairs))
        #expect(estimator.pairs >= 30)  // frame pairs whose turn rate changed enough to tell
        #expect(abs(estimate - readout) < 0.0015)
    }

    @Test("no estimate before enough informative pairs; a steady turn informs nothing")
    func needsChangingRates() {
        var estimator = ReadoutEstimator(height: 480)
        let features = (0..<40).map { (normalized: Vector2(Double($0) * 0.01, 0.1), row: Double($0 * 10)) }
        for _ in 0..<50 {  // the same rate in both frames: no rolling-shutter signal
            estimator.add(previous: features, current: features, ratePrevious: Vector3(0, 1, 0), rateCurrent: Vector3(0, 1, 0),
                          rotation: .identity)
        }
        #expect(estimator.pairs == 0)
        #expect(estimator.estimate == nil)
    }
}
