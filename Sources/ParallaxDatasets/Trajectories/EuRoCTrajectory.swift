import Foundation
import ParallaxImaging
import ParallaxMath

/// The EuRoC / ASL ground-truth CSV (`state_groundtruth_estimate0/data.csv`):
/// `#timestamp [ns], p_RS_R_x, p_RS_R_y, p_RS_R_z, q_RS_w, q_RS_x, q_RS_y, q_RS_z, ...`
/// with the quaternion's **w first**. Columns after the eighth (velocity, biases) are ignored.
///
/// Reference: Burri et al., "The EuRoC micro aerial vehicle datasets", IJRR 2016.
public enum EuRoCTrajectory {
    /// Reads a EuRoC ground-truth CSV; errors name the file and line.
    public static func read(contentsOf url: URL) throws -> Trajectory {
        let (path, lines) = try TrajectoryText.lines(of: url)
        var trajectory = try parse(lines: lines, name: path)
        trajectory.name = url.lastPathComponent
        return trajectory
    }

    /// Parses EuRoC CSV text; `name` labels errors and the trajectory.
    public static func parse(_ text: String, name: String = "trajectory") throws -> Trajectory {
        try parse(lines: TrajectoryText.lines(of: text), name: name)
    }

    static func parse(lines: [(number: Int, text: Substring)], name: String) throws -> Trajectory {
        var poses: [TrajectoryPose] = []
        var previousLine = 0
        for (number, line) in lines where !TrajectoryText.isCommentOrBlank(line) {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count >= 8 else {
                throw TrajectoryError(file: name, line: number, "expected at least 8 comma-separated numbers, found \(fields.count)")
            }
            let stampText = fields[0].trimmingCharacters(in: .whitespaces)
            guard let ns = Int64(stampText) else {
                throw TrajectoryError(file: name, line: number, "column 1: '\(stampText)' is not an integer timestamp in nanoseconds")
            }
            var v = [Double](repeating: 0, count: 8)
            for c in 1..<8 {
                v[c] = try TrajectoryText.number(fields[c], column: c + 1, file: name, line: number)
            }
            let q = Quaternion(w: v[4], x: v[5], y: v[6], z: v[7])
            try TUMTrajectory.checkUnit(q, file: name, line: number)
            if let last = poses.last, let lastNs = last.timeNs, ns <= lastNs {
                throw TrajectoryError(
                    file: name, line: number,
                    "timestamp \(ns) is not after \(lastNs) on line \(previousLine) (times must increase)")
            }
            // Same conversion as evo (`float(ns) / 1e9`), so that both see identical seconds.
            poses.append(TrajectoryPose(
                time: Double(ns) / 1e9, timeNs: ns,
                T_world_body: RigidTransform(rotation: q, translation: Vector3(v[1], v[2], v[3]))))
            previousLine = number
        }
        return Trajectory(poses: poses, name: name)
    }

    /// The CSV text (pose columns only). Poses without `timeNs` use the time rounded to the
    /// nearest nanosecond.
    public static func format(_ trajectory: Trajectory) -> String {
        var out = "#timestamp [ns],p_RS_R_x [m],p_RS_R_y [m],p_RS_R_z [m],q_RS_w [],q_RS_x [],q_RS_y [],q_RS_z []\n"
        for pose in trajectory.poses {
            let t = pose.T_world_body.translation
            let q = pose.T_world_body.rotation
            let ns = pose.timeNs ?? Int64((pose.time * 1e9).rounded())
            out += "\(ns)," + [t.x, t.y, t.z, q.w, q.x, q.y, q.z].map { "\($0)" }.joined(separator: ",") + "\n"
        }
        return out
    }

    /// Writes the CSV text of `trajectory` to `url`.
    public static func write(_ trajectory: Trajectory, to url: URL) throws {
        do {
            try Data(format(trajectory).utf8).write(to: url, options: .atomic)
        } catch {
            throw TrajectoryError("\(url.path): cannot write the file (\(FileReadability.describe(error, writing: url)))")
        }
    }
}

/// The trajectory file formats Parallax reads and writes.
public enum TrajectoryFormat: String, Sendable, CaseIterable {
    /// `timestamp tx ty tz qx qy qz qw` text (seconds).
    case tum
    /// EuRoC ground-truth CSV (nanoseconds, quaternion w first).
    case euroc

    /// Guesses the format: `.csv` means EuRoC, `.txt`/`.tum` mean TUM; otherwise the first
    /// data line decides (a comma means EuRoC CSV).
    public static func detect(url: URL, text: String) -> TrajectoryFormat {
        switch url.pathExtension.lowercased() {
        case "csv": return .euroc
        case "txt", "tum": return .tum
        default:
            let first = TrajectoryText.lines(of: text).first { !TrajectoryText.isCommentOrBlank($0.text) }
            return first?.text.contains(",") == true ? .euroc : .tum
        }
    }
}

extension Trajectory {
    /// Reads a trajectory file in either format, detected by `TrajectoryFormat.detect`.
    public static func read(contentsOf url: URL) throws -> Trajectory {
        let (path, lines) = try TrajectoryText.lines(of: url)
        let text = lines.prefix(50).map { String($0.text) }.joined(separator: "\n")
        var trajectory: Trajectory
        switch TrajectoryFormat.detect(url: url, text: text) {
        case .tum: trajectory = try TUMTrajectory.parse(lines: lines, name: path)
        case .euroc: trajectory = try EuRoCTrajectory.parse(lines: lines, name: path)
        }
        trajectory.name = url.lastPathComponent   // errors carry the path, labels the file name
        return trajectory
    }

    /// Writes the trajectory in `format`.
    public func write(to url: URL, format: TrajectoryFormat) throws {
        switch format {
        case .tum: try TUMTrajectory.write(self, to: url)
        case .euroc: try EuRoCTrajectory.write(self, to: url)
        }
    }
}
