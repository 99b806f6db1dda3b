import Foundation
import ParallaxImaging
import ParallaxMath

/// The TUM RGB-D trajectory text format: one pose per line,
/// `timestamp tx ty tz qx qy qz qw` (seconds, metres, Hamilton quaternion with **w last**),
/// separated by spaces or tabs. Lines starting with `#` and blank lines are skipped; columns
/// after the eighth are ignored (some tools append covariances).
///
/// Reference: Sturm et al., "A Benchmark for the Evaluation of RGB-D SLAM Systems", IROS 2012,
/// and the file format page of the TUM RGB-D benchmark.
public enum TUMTrajectory {
    /// Reads a TUM file; errors name the file and line.
    public static func read(contentsOf url: URL) throws -> Trajectory {
        let (path, lines) = try TrajectoryText.lines(of: url)
        var trajectory = try parse(lines: lines, name: path)
        trajectory.name = url.lastPathComponent
        return trajectory
    }

    /// Parses TUM text; `name` labels errors and the trajectory.
    public static func parse(_ text: String, name: String = "trajectory") throws -> Trajectory {
        try parse(lines: TrajectoryText.lines(of: text), name: name)
    }

    static func parse(lines: [(number: Int, text: Substring)], name: String) throws -> Trajectory {
        var poses: [TrajectoryPose] = []
        var previousLine = 0
        for (number, line) in lines where !TrajectoryText.isCommentOrBlank(line) {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 8 else {
                throw TrajectoryError(file: name, line: number, "expected 8 numbers, found \(fields.count)")
            }
            var v = [Double](repeating: 0, count: 8)
            for c in 0..<8 {
                v[c] = try TrajectoryText.number(fields[c], column: c + 1, file: name, line: number)
            }
            let q = Quaternion(w: v[7], x: v[4], y: v[5], z: v[6])
            try checkUnit(q, file: name, line: number)
            if let last = poses.last, !(v[0] > last.time) {
                throw TrajectoryError(
                    file: name, line: number,
                    "timestamp \(fields[0]) is not after \(last.time) on line \(previousLine) (times must increase)")
            }
            poses.append(TrajectoryPose(
                time: v[0], timeNs: TrajectoryText.nanoseconds(fromSeconds: fields[0]),
                T_world_body: RigidTransform(rotation: q, translation: Vector3(v[1], v[2], v[3]))))
            previousLine = number
        }
        return Trajectory(poses: poses, name: name)
    }

    /// Rejects quaternions that are clearly not unit (zero, or columns in the wrong place);
    /// small rounding in files (6 decimals) is accepted and normalised during evaluation.
    static func checkUnit(_ q: Quaternion, file: String, line: Int) throws {
        let n = q.norm
        guard abs(n - 1) <= 1e-2 else {
            throw TrajectoryError(file: file, line: line, "quaternion norm \(n) is not 1")
        }
    }

    /// The TUM text for a trajectory. Every number is printed so that `parse` returns the
    /// identical trajectory (exact round trip, including `timeNs` where it is consistent).
    public static func format(_ trajectory: Trajectory) -> String {
        var out = "# timestamp tx ty tz qx qy qz qw\n"
        out.reserveCapacity(trajectory.count * 90)
        for pose in trajectory.poses {
            let t = pose.T_world_body.translation
            let q = pose.T_world_body.rotation
            out += TrajectoryText.timeText(pose.time, nanoseconds: pose.timeNs)
            for value in [t.x, t.y, t.z, q.x, q.y, q.z, q.w] {
                out += " \(value)"
            }
            out += "\n"
        }
        return out
    }

    /// Writes the TUM text of `trajectory` to `url`.
    public static func write(_ trajectory: Trajectory, to url: URL) throws {
        do {
            try Data(format(trajectory).utf8).write(to: url, options: .atomic)
        } catch {
            throw TrajectoryError("\(url.path): cannot write the file (\(FileReadability.describe(error, writing: url)))")
        }
    }
}
