import Foundation

// Camera and IMU streams that are each fine but do not fit together: no common time, an IMU that
// stops for an hour, or one that starts long after the first frame. The tracker needs IMU data
// between every two frames; before these checks such a replay tracked nothing and exited 0
// (issue 13).
//
// Policy: what makes tracking impossible or meaningless is an error naming the file; what only
// costs some frames is a warning with a count (``EuRoCDataset/checkTimelines(stereo:)`` returns
// them, `parallax info --validate` lists them).

/// The time ranges of cam0 and the IMU and the longest interval in each, from one pass over
/// each CSV file.
public struct SensorTimelines: Sendable, Equatable {
    /// One sensor's first and last timestamps (ns), row count and longest interval.
    public struct Range: Sendable, Equatable {
        /// First and last timestamps in nanoseconds (nil without rows).
        public var firstNs: Int64?, lastNs: Int64?
        /// Rows read.
        public var count = 0
        /// The longest interval between consecutive rows (s) and the timestamp (ns) before it.
        public var longestGapSeconds = 0.0, longestGapAfterNs: Int64?

        mutating func add(_ t: Int64) {
            if let last = lastNs {
                let gap = seconds(fromNanoseconds: t - last)
                if gap > longestGapSeconds { longestGapSeconds = gap; longestGapAfterNs = last }
            } else {
                firstNs = t
            }
            lastNs = t
            count += 1
        }
    }

    /// cam0's rows.
    public var camera = Range()
    /// imu0's rows.
    public var imu = Range()
    /// cam0 frames before the first and after the last IMU sample (they cannot be tracked).
    public var framesBeforeIMU = 0, framesAfterIMU = 0

    /// The longest IMU interval accepted, seconds: the tracker bridges short dropouts by
    /// integration, not a stop of a second or more (EuRoC and TUM-VI run at 200 Hz).
    public static let maximumIMUGapSeconds = 1.0
    /// The longest camera interval accepted, seconds: over longer gaps the IMU-only prediction
    /// has drifted by metres and the frame after the gap cannot be matched.
    public static let maximumCameraGapSeconds = 10.0
    /// The largest fraction of frames that may lie outside the IMU's time range.
    public static let maximumFractionOutsideIMU = 0.5

    /// Reads the timestamps of `imu0/data.csv`, then of `cam0/data.csv`.
    init(_ dataset: EuRoCDataset) throws {
        let imuStream = try dataset.imuStream()
        while let s = try imuStream.next() { imu.add(s.timestampNs) }
        let cam = try dataset.cameraStream(0)
        while let f = try cam.next() {
            camera.add(f.timestampNs)
            if let first = imu.firstNs, f.timestampNs < first { framesBeforeIMU += 1 }
            if let last = imu.lastNs, f.timestampNs > last { framesAfterIMU += 1 }
        }
    }

    /// Throws for ranges that cannot be tracked; returns warnings for frames that will be lost.
    func check(camera cameraName: String) throws -> [String] {
        let cameraFile = "mav0/\(cameraName)/data.csv", imuFile = "mav0/imu0/data.csv"
        guard let c0 = camera.firstNs, let c1 = camera.lastNs, let i0 = imu.firstNs, let i1 = imu.lastNs else { return [] }
        func s(_ ns: Int64) -> String { String(format: "%.3f", seconds(fromNanoseconds: ns)) }
        func s(_ seconds: Double) -> String { String(format: "%.3f", seconds) }
        if c1 < i0 || i1 < c0 {
            throw DatasetError(.inconsistentStreams, file: imuFile,
                               "IMU time range \(s(i0))…\(s(i1)) s does not overlap \(cameraName)'s \(s(c0))…\(s(c1)) s; "
                               + "the two sensors must share a clock")
        }
        if imu.longestGapSeconds > Self.maximumIMUGapSeconds, let after = imu.longestGapAfterNs {
            throw DatasetError(.inconsistentStreams, file: imuFile,
                               "the IMU stops for \(s(imu.longestGapSeconds)) s after t = \(after) ns "
                               + "(at most \(s(Self.maximumIMUGapSeconds)) s is accepted)")
        }
        if camera.longestGapSeconds > Self.maximumCameraGapSeconds, let after = camera.longestGapAfterNs {
            throw DatasetError(.inconsistentStreams, file: cameraFile,
                               "no frame for \(s(camera.longestGapSeconds)) s after t = \(after) ns "
                               + "(at most \(s(Self.maximumCameraGapSeconds)) s is accepted)")
        }
        let outside = framesBeforeIMU + framesAfterIMU
        let fraction = Double(outside) / Double(max(camera.count, 1))
        let detail = "\(outside) of \(camera.count) \(cameraName) frames lie outside the IMU's time range "
            + "\(s(i0))…\(s(i1)) s (\(framesBeforeIMU) before, \(framesAfterIMU) after)"
        guard fraction <= Self.maximumFractionOutsideIMU else {
            throw DatasetError(.inconsistentStreams, file: imuFile,
                               detail + "; more than \(Int(Self.maximumFractionOutsideIMU * 100)) % of the frames cannot be tracked")
        }
        return outside > 0 ? ["\(cameraName)/imu0: " + detail + "; they are not tracked"] : []
    }
}

extension EuRoCDataset {
    /// Checks that the streams fit together for tracking: cam0 and the IMU share a time range
    /// without long gaps (``SensorTimelines``) and, with `stereo`, that cam1's frames pair with
    /// cam0's (``StereoPairing``). Reads only the CSV files (no images), in constant memory.
    /// - Returns: warnings for frames that will be lost (each with a count).
    /// - Throws: a ``DatasetError`` naming the file when tracking would be impossible.
    public func checkTimelines(stereo: Bool) throws -> [String] {
        var warnings = try SensorTimelines(self).check(camera: cameras[0].name)
        if stereo, isStereo, let w = try StereoPairing(self).check(cam0: cameras[0].name, cam1: cameras[1].name) {
            warnings.append(w)
        }
        return warnings
    }
}
