import Foundation
import ParallaxDatasets
import ParallaxMath
@testable import ParallaxTracking
import Testing

/// After a reset while the camera moves (ARKit's `run(_:options: .resetTracking)` mid-walk, or a
/// divergence), tracking must come back within about a second: a hand-held mono walk and a stereo
/// flight, each reset at three moments of motion. Measured: stereo V1_01 first pose after 0.65 s,
/// `normal` after 0.75–0.90 s; mono room3 first pose after 1.05 s (the visual–inertial alignment
/// does not succeed that early mid-walk, so the 1 s `alignmentTimeout` starts from tilt alone),
/// `normal` after 1.35–1.50 s (1.30–1.45 before the alignment could solve for the accelerometer
/// bias, 2026-11-27). A 0.8 s timeout gave the pose at 0.85 s but one `normal` only
/// after 3 s, so it stays at 1 s.
@Suite("Re-initialisation while moving", .serialized)
struct ReinitializationTests {
    /// Seconds from each reset to the first pose and to the first `normal` frame.
    static func recoveryTimes(trajectory: String, stereo: Bool, resets: [Double]) throws -> [(pose: Double?, normal: Double?)] {
        let (loaded, name) = try TrackingFixtures.simulated(trajectory: trajectory, stereo: stereo)
        let dataset = try #require(loaded, "\(name)")
        let vio = try VisualInertialOdometry(configuration: TrackerConfiguration(mode: stereo ? .stereo : .mono),
                                             camera0: dataset.cameras[0], camera1: stereo ? dataset.cameras[1] : nil,
                                             imu: dataset.imu)
        let start = try #require(try dataset.startTimestampNs())
        var pending = resets
        var times: [(pose: Double?, normal: Double?)] = []
        var resetAt: Double?
        let iterator = try dataset.replay().makeIterator()
        while let event = try iterator.next() {
            switch event {
            case .imu(let s): vio.process(imu: s)
            case .frame(let f):
                let t = Double(f.timestampNs - start) * 1e-9
                if let next = pending.first, t >= next {
                    pending.removeFirst()
                    vio.reset()
                    resetAt = t
                    times.append((nil, nil))
                }
                let r = stereo ? try vio.process(frame: f)
                    : try vio.process(timestamp: f.timestamp, timestampNs: f.timestampNs, image0: try f.loadGray8(0), image1: nil)
                if let r0 = resetAt, var last = times.last {
                    if last.pose == nil, r.T_world_body != nil { last.pose = t - r0 }
                    if last.normal == nil, r.trackingState == .normal { last.normal = t - r0 }
                    times[times.count - 1] = last
                }
            case .groundTruth: break
            }
        }
        return times
    }

    /// Replays a fixture along `trajectory` (mono unless `stereo`), standing in for a divergence (the filter dropped
    /// as the health tests drop it) at the first frame at or after each of `resets` (seconds), and
    /// hands each frame's result to `body` with the latest ground truth and whether a reset was
    /// forced just before that frame.
    static func replayWithDivergenceResets(trajectory: String, stereo: Bool = false, resets: [Double],
                                           _ body: (Double, TrackingResult, GroundTruthState?, Bool) -> Void) throws {
        let (loaded, name) = try TrackingFixtures.simulated(trajectory: trajectory, stereo: stereo)
        let dataset = try #require(loaded, "\(name)")
        let vio = try VisualInertialOdometry(configuration: TrackerConfiguration(mode: stereo ? .stereo : .mono),
                                             camera0: dataset.cameras[0], camera1: stereo ? dataset.cameras[1] : nil,
                                             imu: dataset.imu)
        let start = try #require(try dataset.startTimestampNs())
        var pending = resets
        var truth: GroundTruthState?
        let iterator = try dataset.replay(includeGroundTruth: true).makeIterator()
        while let event = try iterator.next() {
            switch event {
            case .imu(let s): vio.process(imu: s)
            case .groundTruth(let g): truth = g
            case .frame(let f):
                let t = Double(f.timestampNs - start) * 1e-9
                var reset = false
                if let next = pending.first, t >= next, let s = vio.core.state {
                    pending.removeFirst()
                    vio.core.resetAfterDivergence(s, at: s.timestamp)
                    reset = true
                }
                let r = stereo ? try vio.process(frame: f)
                    : try vio.process(timestamp: f.timestamp, timestampNs: f.timestampNs, image0: try f.loadGray8(0), image1: nil)
                body(t, r, truth, reset)
            }
        }
    }

    /// A divergence reset keeps the world frame: the new start's position and heading come from the
    /// old filter's (``ResetBridge``). The new start's velocity, solved in the body frame by the
    /// visual–inertial alignment, must turn with that heading. Until 2026-11-30 it did not: the
    /// pose took the old heading and the velocity stayed in the new start's own (arbitrary) yaw,
    /// so the filter began with a velocity pointing elsewhere (a phone V2_02 start diverged twice
    /// more this way, 38 cm ATE).
    @Test("After a divergence reset in flight, the new start's velocity agrees with the truth in the body frame",
          .needsSharedTrajectories)
    func velocityAfterDivergenceReset() throws {
        var waiting = false
        var errors: [Double] = []
        try Self.replayWithDivergenceResets(trajectory: "euroc_V1_01_easy", resets: [8, 14, 19]) { t, r, truth, reset in
            if reset { waiting = true }
            if waiting, let pose = r.T_world_body, let g = truth {
                waiting = false
                let estimated = pose.rotationMatrix.transpose * r.velocity
                let actual = g.orientation.rotationMatrix.transpose * g.velocity
                errors.append((estimated - actual).norm)
                print(String(format: "reset at %.2f s: body velocity %.3f m/s off (true speed %.2f m/s)",
                             t, (estimated - actual).norm, actual.norm))
            }
        }
        #expect(errors.count == 3)
        // Measured: 0.06, 0.05 and 0.08 m/s (true speeds 0.23, 0.34 and 0.51 m/s); with the
        // velocity left in the start's own heading the first two were 0.09 and 0.34 m/s off.
        for e in errors { #expect(e < 0.15) }
    }

    /// A divergence reset in motion keeps the world frame: the new start continues from the old
    /// filter's pose half a second before the reset, bridged to its own time with the IMU
    /// (``ResetBridge``). Measured against the truth carried on from before the reset (the
    /// estimate's pose then, moved by the true relative motion). Until 2026-11-30 the new start
    /// took the last pose and heading as they were, so the motion while it waited for its
    /// alignment (about 1 s) became a jump of the world.
    @Test("After a divergence reset in motion, the new start continues where the truth moved",
          .needsSharedTrajectories, arguments: [("euroc_V1_01_easy", false), ("tumvi_room3", false), ("euroc_V1_01_easy", true)])
    func worldKeptAcrossDivergenceReset(_ trajectory: String, _ stereo: Bool) throws {
        var lastPose: (estimate: RigidTransform, truth: GroundTruthState)?
        var before: (estimate: RigidTransform, truth: GroundTruthState)?
        var jumps: [(position: Double, rotation: Double, heading: Double)] = []
        func transform(_ g: GroundTruthState) -> RigidTransform {
            RigidTransform(rotationMatrix: g.orientation.rotationMatrix, translation: g.position)
        }
        try Self.replayWithDivergenceResets(trajectory: trajectory, stereo: stereo, resets: [8, 14, 19]) { t, r, truth, reset in
            if reset { before = lastPose }
            guard let pose = r.T_world_body, let g = truth else { return }
            if let b = before {
                before = nil
                // Where the estimate should be: its pose before the reset, moved as the truth moved.
                let expected = b.estimate * (transform(b.truth).inverse * transform(g))
                let position = (pose.translation - expected.translation).norm
                let m = pose.rotationMatrix * expected.rotationMatrix.transpose
                let rotation = SO3.log(m).norm * 180 / .pi
                let heading = abs(atan2(m[1, 0] - m[0, 1], m[0, 0] + m[1, 1])) * 180 / .pi
                jumps.append((position, rotation, heading))
                print(String(format: "%@ %@ reset at %.2f s: the new start %.1f cm, %.2f° (heading %.2f°) from where the truth moved",
                             trajectory, stereo ? "stereo" : "mono", t, 100 * position, rotation, heading))
            }
            lastPose = (pose, g)
        }
        // Measured: mono V1_01 1.1 / 1.9 / 0.6 cm, room3 1.0 / 0.8 / 0.3 cm, stereo V1_01
        // 2.4 / 1.0 / 0.6 cm; rotations 0.34–1.14°
        // (the tilt is the new start's own, from its alignment's gravity, σ 1.1°), headings
        // 0.01–1.08° (1.5 s of gyro with the old filter's bias). With the last pose kept as it
        // was (mono): 14–52 cm and 1.3–33°.
        #expect(jumps.count == 3)
        for j in jumps {
            #expect(j.position < 0.05)
            #expect(j.heading < 2.0)
            #expect(j.rotation < 2.0)
        }
    }

    @Test("Hand-held mono (TUM-VI room3) and stereo (EuRoC V1_01): a pose within 1.1 s, normal within 1.5 s",
          .needsSharedTrajectories,
          arguments: [("tumvi_room3", false), ("euroc_V1_01_easy", true)])
    func recovers(_ trajectory: String, _ stereo: Bool) throws {
        let times = try Self.recoveryTimes(trajectory: trajectory, stereo: stereo, resets: [8, 14, 20])
        #expect(times.count == 3)
        for (k, t) in times.enumerated() {
            print(String(format: "%@ %@ reset %d: first pose after %@ s, normal after %@ s", trajectory, stereo ? "stereo" : "mono",
                         k + 1, t.pose.map { String(format: "%.2f", $0) } ?? "never",
                         t.normal.map { String(format: "%.2f", $0) } ?? "never"))
            // About 1 s: the alignment timeout plus one 20 Hz frame. The times are differences of
            // frame stamps in seconds, so a frame exactly 30 frames on reads 1.5000000000000018:
            // compare with a rounding allowance of a nanosecond, not a frame.
            #expect((t.pose ?? .infinity) <= 1.1 + 1e-9)
            #expect((t.normal ?? .infinity) <= 1.5 + 1e-9)
        }
    }
}
