import Foundation
import ParallaxMath

/// One timestamped pose of a trajectory.
public struct TrajectoryPose: Equatable, Sendable {
    /// Time in seconds (the clock of the file it came from).
    public var time: Double
    /// The same time in integer nanoseconds, when known: EuRoC CSV states it; TUM text gives
    /// it exactly up to nine decimals and rounded to the nearest nanosecond beyond.
    public var timeNs: Int64?
    /// The body pose in the world frame: `p_world = T_world_body * p_body`.
    ///
    /// The quaternion is kept exactly as read (not re-normalised) so that writing the
    /// trajectory back reproduces the file's numbers; evaluation normalises it before use.
    public var T_world_body: RigidTransform

    /// Creates a pose.
    public init(time: Double, timeNs: Int64? = nil, T_world_body: RigidTransform) {
        self.time = time
        self.timeNs = timeNs
        self.T_world_body = T_world_body
    }
}

/// A time-ordered sequence of body poses in a world frame (estimate or ground truth).
public struct Trajectory: Equatable, Sendable {
    /// The poses, with strictly increasing times.
    public var poses: [TrajectoryPose]
    /// A label for messages and plots (usually the file name).
    public var name: String

    /// Creates a trajectory; the caller guarantees increasing times (readers check it).
    public init(poses: [TrajectoryPose], name: String = "trajectory") {
        self.poses = poses
        self.name = name
    }

    /// Number of poses.
    public var count: Int { poses.count }
    /// True when there are no poses.
    public var isEmpty: Bool { poses.isEmpty }
    /// Times in seconds.
    public var timestamps: [Double] { poses.map(\.time) }
    /// Positions of the body in the world frame.
    public var positions: [Vector3] { poses.map(\.T_world_body.translation) }

    /// Time span covered, or `nil` when empty.
    public var timeRange: ClosedRange<Double>? {
        guard let first = poses.first, let last = poses.last else { return nil }
        return first.time...last.time
    }

    /// Length of the polyline through the positions, in metres.
    public var pathLength: Double {
        var total = 0.0
        for i in poses.indices.dropFirst() {
            total += (poses[i].T_world_body.translation - poses[i - 1].T_world_body.translation).norm
        }
        return total
    }

    /// The trajectory restricted to the poses at `indices` (in the given order).
    public func subset(_ indices: [Int]) -> Trajectory {
        Trajectory(poses: indices.map { poses[$0] }, name: name)
    }
}

/// A malformed or unreadable trajectory file; the message names the file and, where it
/// applies, the line (`file:line: message`).
public struct TrajectoryError: Error, CustomStringConvertible, Equatable {
    /// The full message, `file:line: what is wrong`.
    public let message: String

    /// Creates an error with a complete message.
    public init(_ message: String) { self.message = message }

    /// Creates an error located at `line` (1-based) of `file`.
    public init(file: String, line: Int, _ what: String) { self.message = "\(file):\(line): \(what)" }

    /// The message.
    public var description: String { message }
}
