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

    /// A divergence reset keeps the last pose as the new start's anchor: position and heading stay,
    /// so the world frame does not move. The new start's velocity, solved in the body frame by the
    /// visual–inertial alignment, must turn with that heading. Until 2026-11-30 it did not: the
    /// pose took the old heading and the velocity stayed in the new start's own (arbitrary) yaw,
    /// so the filter began with a velocity pointing elsewhere (a phone V2_02 start diverged twice
    /// more this way, 38 cm ATE).
    @Test("After a divergence reset in flight, the new start's velocity agrees with the truth in the body frame",
          .needsSharedTrajectories)
    func velocityAfterDivergenceReset() throws {
        let (loaded, name) = try TrackingFixtures.simulated(trajectory: "euroc_V1_01_easy", stereo: false)
        let dataset = try #require(loaded, "\(name)")
        let vio = try VisualInertialOdometry(configuration: TrackerConfiguration(mode: .mono),
                                             camera0: dataset.cameras[0], camera1: nil, imu: dataset.imu)
        let start = try #require(try dataset.startTimestampNs())
        var pending: [Double] = [8, 14, 19]
        var waiting = false
        var truth: GroundTruthState?
        var errors: [Double] = []
        let iterator = try dataset.replay(includeGroundTruth: true).makeIterator()
        while let event = try iterator.next() {
            switch event {
            case .imu(let s): vio.process(imu: s)
            case .groundTruth(let g): truth = g
            case .frame(let f):
                let t = Double(f.timestampNs - start) * 1e-9
                if let next = pending.first, t >= next, let s = vio.core.state {
                    pending.removeFirst()
                    vio.core.resetAfterDivergence(s, at: vio.core.state?.timestamp ?? f.timestamp)
                    waiting = true
                }
                let r = try vio.process(timestamp: f.timestamp, timestampNs: f.timestampNs, image0: try f.loadGray8(0), image1: nil)
                if waiting, let pose = r.T_world_body, let g = truth {
                    waiting = false
                    let estimated = pose.rotationMatrix.transpose * r.velocity
                    let actual = g.orientation.rotationMatrix.transpose * g.velocity
                    errors.append((estimated - actual).norm)
                    print(String(format: "reset at %.2f s: body velocity %.3f m/s off (true speed %.2f m/s)",
                                 t, (estimated - actual).norm, actual.norm))
                }
            }
        }
        #expect(errors.count == 3)
        // Measured: 0.06, 0.05 and 0.08 m/s (true speeds 0.23, 0.34 and 0.51 m/s); with the
        // velocity left in the start's own heading the first two were 0.09 and 0.34 m/s off.
        for e in errors { #expect(e < 0.15) }
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
