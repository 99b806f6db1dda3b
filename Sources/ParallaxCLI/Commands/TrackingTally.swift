import Foundation
import ParallaxDatasets
import ParallaxEvaluation
import ParallaxTracking

/// Tracking figures gathered from the AR session's own tracker (`parallax replay --planes` and
/// friends run one pass: the session drives the tracker, and this tally reads each frame's
/// ``TrackingResult``), printed like the tracking-only replay's report.
struct TrackingTally {
    /// Frames seen.
    var frames = 0
    /// Frames reported `normal`.
    var normalFrames = 0
    /// `normal` frames once the first second is over (the figure).
    var normalAfterFirstSecond = NormalAfterFirstSecond()
    /// Seconds from the first frame to the first pose and to the first normal frame.
    var initializationTime: Double?
    /// Time from the first frame to the first camera orientation (attitude before the first pose).
    var orientationTime: Double?
    var timeToNormal: Double?
    /// Losses of the pose after the first one and how long each lasted.
    var recoveries = PoseRecoveries()
    /// Per-frame CPU milliseconds of the tracker's front-end and back-end.
    var frontEndMs: [Double] = []
    var backEndMs: [Double] = []
    /// Per-frame wall-clock milliseconds of the same work (``TrackingTimings/wall``).
    var wallMs: [Double] = []
    /// Estimated body trajectory (IMU clock).
    var trajectory = Trajectory(poses: [], name: "estimate")
    /// Camera–IMU time offset of the last frame with a pose.
    var finalTimeOffset: Double?
    private var firstFrame: Double?

    /// Adds one frame's result.
    mutating func add(_ r: TrackingResult) {
        frames += 1
        if firstFrame == nil { firstFrame = r.timestamp }
        let since = r.timestamp - (firstFrame ?? r.timestamp)
        normalAfterFirstSecond.add(secondsSinceFirstFrame: since, normal: r.trackingState == .normal)
        if r.trackingState == .normal {
            normalFrames += 1
            if timeToNormal == nil { timeToNormal = since }
        }
        if orientationTime == nil, r.displayedCamera != nil { orientationTime = since }
        recoveries.add(timestamp: r.timestamp, hasPose: r.T_world_body != nil)
        if let T = r.T_world_body {
            if initializationTime == nil { initializationTime = since }
            trajectory.poses.append(TrajectoryPose(time: r.timestamp + r.timeOffset, timeNs: r.poseTimestampNs, T_world_body: T))
            finalTimeOffset = r.timeOffset
        }
        frontEndMs.append(r.timings.frontEnd)
        backEndMs.append(r.timings.backEnd)
        wallMs.append(r.timings.wall)
    }

    /// The report lines (same layout as the tracking-only `parallax replay`).
    func report(mode: TrackerConfiguration.Mode) -> String {
        func f(_ v: Double) -> String { String(format: "%.2f", v) }
        func q(_ xs: [Double], _ p: Double) -> String { f(SampleStatistics.quantile(xs, p)) }
        let total = zip(frontEndMs, backEndMs).map { $0 + $1 }
        let normal = frames > 0 ? 100 * Double(normalFrames) / Double(frames) : 0
        let later = 100 * normalAfterFirstSecond.fraction
        return """
        mode \(mode.rawValue) (one pass, inside the AR session): \(frames) frames, normal \(f(normal)) % \
        (\(normalFrames)/\(frames)), after the first second \(f(later)) %; \
        initialised after \(initializationTime.map { f($0) + " s" } ?? "never"), \
        normal after \(timeToNormal.map { f($0) + " s" } ?? "never"), \
        orientation after \(orientationTime.map { f($0) + " s" } ?? "never")
        \(recoveries.report)
        tracking ms per frame (median / p99): total \(q(total, 0.5)) / \(q(total, 0.99)), front-end \
        \(q(frontEndMs, 0.5)) / \(q(frontEndMs, 0.99)), back-end \(q(backEndMs, 0.5)) / \(q(backEndMs, 0.99))
        slowest frame: \(f(total.max() ?? 0)) ms of CPU, \(f(wallMs.max() ?? 0)) ms of wall clock
        """ + (finalTimeOffset.map { String(format: "\ncamera–IMU time offset (timeshift_cam_imu): %.3f ms", $0 * 1e3) } ?? "")
    }

    /// ATE (posyaw, 10 ms association) against the dataset's ground truth, when it has one.
    func evaluation(against data: EuRoCDataset) throws -> TrajectoryEvaluation? {
        let states = try data.groundTruth()
        guard !states.isEmpty, trajectory.count >= 3 else { return nil }
        let gt = Trajectory(poses: states.map { TrajectoryPose(time: $0.timestamp, timeNs: $0.timestampNs, T_world_body: $0.T_world_body) },
                            name: "groundtruth")
        return try TrajectoryEvaluation(estimate: trajectory, reference: gt, options: EvaluationOptions())
    }
}
