import ParallaxMath
@testable import ParallaxVision
import Testing
@testable import ParallaxTracking

/// The rolling-shutter rows' turn: the gyro rate fitted over the readout (``IMUBuffer/gyroFit(at:halfWidth:)``)
/// and the second-order turn it gives each row (``RollingShutterCorrection/apply(_:angularVelocity:angularAcceleration:)``).
@Suite("Rolling-shutter row turn")
struct RollingShutterTurnTests {
    /// A buffer of 200 Hz samples whose rate is `rate(t)`.
    static func buffer(from t0: Double, count: Int, rate: (Double) -> Vector3) -> IMUBuffer {
        var imu = IMUBuffer()
        for k in 0..<count {
            let t = t0 + Double(k) * 0.005
            imu.add(IMUMeasurement(timestamp: t, gyro: rate(t), accel: Vector3(0, 0, 9.81)), filterTime: nil)
        }
        return imu
    }

    @Test("A rate changing linearly is recovered exactly, between samples too")
    func linearRateIsExact() throws {
        let a = Vector3(0.3, -1.2, 0.8), b = Vector3(4, 2, -6)
        let imu = Self.buffer(from: 10, count: 40) { a + b * ($0 - 10.05) }
        // The frame time falls between samples (10.0525), as with a time offset or another camera rate.
        let fit = try #require(imu.gyroFit(at: 10.0525, halfWidth: 0.01))
        #expect((fit.rate - (a + b * 0.0025)).norm < 1e-9)
        #expect((fit.acceleration - b).norm < 1e-6)
        // The reading in force is the one 2.5 ms earlier: the error the fit removes.
        let held = try #require(imu.gyro(at: 10.0525))
        #expect((held - (a + b * 0.0025)).norm > 0.01)
    }

    @Test("Too few samples in the window: interpolation, then the reading in force")
    func fallbacks() throws {
        let imu = Self.buffer(from: 0, count: 3) { Vector3($0 * 100, 0, 0) }   // 0, 0.5, 1.0 rad/s at 0, 5, 10 ms
        // One sample within ±1 ms of 2.5 ms: none; the two around it are interpolated.
        let between = try #require(imu.gyroFit(at: 0.0025, halfWidth: 0.001))
        #expect(abs(between.rate.x - 0.25) < 1e-12)
        #expect(between.acceleration == .zero)
        // After the last sample: that reading.
        let after = try #require(imu.gyroFit(at: 0.02, halfWidth: 0.001))
        #expect(abs(after.rate.x - 1.0) < 1e-12)
        #expect(IMUBuffer().gyroFit(at: 0, halfWidth: 0.01) == nil)
    }

    @Test("A row read during an angular acceleration is turned back to second order")
    func secondOrderTurn() throws {
        // cam0 = body (identity extrinsics); a 480-row image read over 20 ms, the stamp at the middle row.
        let rig = CameraRig.identity
        let correction = RollingShutterCorrection(lineDelay: 0.02 / 480, height0: 480, height1: nil, rig: rig)
        let w = Vector3(0.4, 2.0, -0.6), alpha = Vector3(-30, 25, 40)
        // Body attitude over time, R(t) = R(0) Exp(w t + ½ α t²), and a point seen from the origin.
        func attitude(_ t: Double) -> Matrix3 { SO3.exp(w * t + alpha * (0.5 * t * t)) }
        let point = Vector3(0.4, 0.3, 2.0)
        for row in [0.0, 60, 420, 479] {
            let delay = (row - 239.5) * 0.02 / 480
            let seen = attitude(delay).transpose * point
            let observed = Vector2(seen.x / seen.z, seen.y / seen.z)
            let feature = TrackedFeature(id: 1, pixel: Vector2(300, row), normalized: observed, rightPixel: nil,
                                         rightNormalized: nil, trackLength: 1)
            let frame = FeatureFrame(timestamp: 0, features: [feature], trackedBeforeRansac: 1, rejectedByRansac: 0,
                                     newFeatures: 0, timings: FrontEndTimings())
            let truth = Vector2(point.x / point.z, point.y / point.z)
            let firstOrder = correction.apply(frame, angularVelocity: w).features[0].normalized
            let secondOrder = correction.apply(frame, angularVelocity: w, angularAcceleration: alpha).features[0].normalized
            // ½ α δ² at δ = 10 ms and |α| ≈ 56 rad/s² is 2.8 mrad: the rate alone leaves about that.
            #expect((firstOrder - truth).norm > 5e-4)
            #expect((secondOrder - truth).norm < 2e-5)
        }
    }

    /// The start window keeps its frames' rows until the readout is known, then corrects them: the
    /// same turn, row for row, as a front-end frame gets (cam0 and cam1), and the rows are dropped.
    @Test("A start window's frame is corrected as a front-end frame is")
    func startWindowFrame() throws {
        let rig = CameraRig(R_body_cam0: SO3.exp(Vector3(-.pi / 2, 0, 0)), p_body_cam0: .zero,
                            R_c1_c0: SO3.exp(Vector3(0, 0.02, 0)), t_c1_c0: Vector3(-0.11, 0, 0), hasRight: true)
        let correction = RollingShutterCorrection(lineDelay: 0.02 / 480, height0: 480, height1: 480, rig: rig)
        let w = Vector3(2.0, 0.4, -0.6), alpha = Vector3(-30, 25, 40)   // mostly about cam0's x axis
        let pixels = [(Vector2(100, 12), Vector2(90, 15)), (Vector2(500, 250), Vector2(480, 240)), (Vector2(300, 470), Vector2(280, 466))]
        let features = pixels.enumerated().map { k, p in
            TrackedFeature(id: k, pixel: p.0, normalized: Vector2(0.1 * Double(k) - 0.1, 0.2), rightPixel: p.1,
                           rightNormalized: Vector2(0.1 * Double(k) - 0.3, 0.21), trackLength: 1)
        }
        let frame = FeatureFrame(timestamp: 0, features: features, trackedBeforeRansac: 3, rejectedByRansac: 0,
                                 newFeatures: 0, timings: FrontEndTimings())
        let kept = VisualInertialAlignment.Frame(time: 0, observations: features.map { ($0.id, $0.normalized, $0.rightNormalized) },
                                                 rowOffsets: features.map { ($0.pixel.y - 239.5, $0.rightPixel.map { $0.y - 239.5 }) })
        let expected = correction.apply(frame, angularVelocity: w, angularAcceleration: alpha)
        let corrected = correction.apply(kept, angularVelocity: w, angularAcceleration: alpha)
        #expect(corrected.rowOffsets.isEmpty)
        for (o, f) in zip(corrected.observations, expected.features) {
            #expect((o.left - f.normalized).norm < 1e-15)
            #expect((try #require(o.right) - (try #require(f.rightNormalized))).norm < 1e-15)
            if abs(features[o.id].pixel.y - 239.5) > 200 {
                #expect((o.left - features[o.id].normalized).norm > 1e-3)   // a row near the top or bottom did turn
            }
        }
        // Without rows nothing is turned.
        var bare = kept
        bare.rowOffsets = []
        #expect(correction.apply(bare, angularVelocity: w).observations.map(\.left) == kept.observations.map(\.left))
    }
}
