import Foundation
import ParallaxDatasets
import ParallaxMath

/// Times the front-end over a dataset (images decoded beforehand, so only the front-end is
/// measured). Wired into `parallax bench`; not used by the unit tests for assertions.
public enum FrontEndBenchmark {
    /// Median and 99th percentile of one stage over all frames, milliseconds.
    public struct Statistics: Sendable {
        /// Median, ms.
        public var median: Double
        /// 99th percentile (nearest rank), ms.
        public var p99: Double
        /// Mean, ms.
        public var mean: Double

        init(_ values: [Double]) {
            let s = values.sorted()
            median = s.isEmpty ? 0 : s[s.count / 2]
            p99 = s.isEmpty ? 0 : s[min(s.count - 1, Int((0.99 * Double(s.count)).rounded(.up)) - 1)]
            mean = s.isEmpty ? 0 : s.reduce(0, +) / Double(s.count)
        }
    }

    /// The benchmark's result.
    public struct Report: Sendable, CustomStringConvertible {
        /// Frames processed (all repetitions).
        public var frames: Int
        /// Whether cam1 was matched too.
        public var stereo: Bool
        /// Mean number of features per frame.
        public var meanFeatures: Double
        /// Mean number of stereo matches per frame.
        public var meanStereoMatches: Double
        /// Per-stage statistics, in pipeline order: pyramid, tracking, ransac, detection, stereo, total.
        public var stages: [(name: String, statistics: Statistics)]

        /// A small table for the terminal.
        public var description: String {
            var lines = [String(format: "front-end: %d frames, %@, %.1f features/frame, %.1f stereo matches/frame",
                                frames, stereo ? "stereo" : "mono", meanFeatures, meanStereoMatches),
                         "stage          median ms   p99 ms   mean ms"]
            for (name, s) in stages {
                lines.append(String(format: "%-14@ %9.3f %8.3f %9.3f", name as NSString, s.median, s.p99, s.mean))
            }
            return lines.joined(separator: "\n")
        }
    }

    /// Runs the tracker over the EuRoC-layout dataset at `url` (the folder holding `mav0`).
    ///
    /// - Parameters:
    ///   - stereo: match cam0→cam1 when the dataset has two cameras.
    ///   - useGyro: pass the gyro-integrated rotation between frames (as the VIO does).
    ///   - maxFrames: limit on frames read.
    ///   - repetitions: passes over the frames (fresh tracker each time).
    /// The gyro bias is estimated as the mean angular velocity over the first second, which
    /// assumes the sequence starts at rest (EuRoC does).
    public static func run(dataset url: URL, stereo: Bool = true, useGyro: Bool = true,
                           maxFrames: Int? = nil, repetitions: Int = 1) throws -> Report {
        let dataset = try EuRoCDataset(url: url)
        var left = try dataset.cameraFrames(0)
        if let maxFrames { left = Array(left.prefix(maxFrames)) }
        let useStereo = stereo && dataset.isStereo
        let rightByTime: [Int64: CameraFrame] = useStereo
            ? Dictionary(try dataset.cameraFrames(1).map { ($0.timestampNs, $0) }, uniquingKeysWith: { a, _ in a })
            : [:]
        var images: [(Int64, FloatPlane, FloatPlane?)] = []
        for f in left {
            let l = try FloatPlane(f.loadGray8())
            let r = try rightByTime[f.timestampNs].map { try FloatPlane($0.loadGray8()) }
            images.append((f.timestampNs, l, r))
        }
        let imu = useGyro ? try dataset.imuSamples() : []
        let R_B_C = dataset.cameras[0].T_body_camera.rotationMatrix
        let bias = GyroIntegration.staticBias(imu: imu, seconds: 1)
        var stageValues = [[Double]](repeating: [], count: 6)
        var features = 0, matches = 0, frames = 0
        for _ in 0..<max(repetitions, 1) {
            var tracker = dataset.makeFeatureTracker()
            var previous: Int64?
            for (t, l, r) in images {
                let R = previous.flatMap { p in
                    useGyro ? GyroIntegration.cameraRotation(imu: imu, from: p, to: t, R_B_C: R_B_C,
                                                             gyroscopeBias: bias) : nil
                }
                let frame = tracker.process(image: l, timestamp: seconds(fromNanoseconds: t),
                                            rightImage: useStereo ? r : nil, predictedRotation: R)
                let s = frame.timings
                for (k, v) in [s.pyramid, s.temporalTracking, s.outlierRejection, s.detection, s.stereo, s.total]
                    .enumerated() { stageValues[k].append(v) }
                features += frame.features.count
                matches += frame.features.filter { $0.rightPixel != nil }.count
                frames += 1
                previous = t
            }
        }
        let names = ["pyramid", "tracking", "ransac", "detection", "stereo", "total"]
        return Report(frames: frames, stereo: useStereo,
                      meanFeatures: Double(features) / Double(max(frames, 1)),
                      meanStereoMatches: Double(matches) / Double(max(frames, 1)),
                      stages: zip(names, stageValues).map { ($0, Statistics($1)) })
    }
}

/// Gyro-only rotation between two camera frames (the prediction the VIO hands the front-end).
public enum GyroIntegration {
    /// `R_cur_prev` for the camera: integrates `ω` (body frame, rad/s) over `[t0, t1]`
    /// (nanoseconds) with the midpoint of consecutive samples, `R_Bprev_Bcur = Π exp(ω̄ Δt)`,
    /// then `R_Ccur_Cprev = R_C_B · R_Bprev_Bcurᵀ · R_B_C`, after subtracting `gyroscopeBias`
    /// (rad/s, body frame). Pass a bias estimate: EuRoC's gyro bias (~0.08 rad/s about the
    /// optical axis) is a 0.2° error per frame, which the 2-point RANSAC would read as
    /// outliers at the image border. Returns `nil` when no IMU sample covers the interval.
    public static func cameraRotation(imu: [IMUSample], from t0: Int64, to t1: Int64, R_B_C: Matrix3,
                                      gyroscopeBias: Vector3 = .zero) -> Matrix3? {
        guard t1 > t0, let first = imu.firstIndex(where: { $0.timestampNs > t0 }) else { return nil }
        var R = Matrix3.identity
        var k = max(first - 1, 0)
        var covered = false
        while k + 1 < imu.count, imu[k].timestampNs < t1 {
            let a = imu[k], b = imu[k + 1]
            let s = max(a.timestampNs, t0), e = min(b.timestampNs, t1)
            if e > s {
                let w = 0.5 * (a.angularVelocity + b.angularVelocity) - gyroscopeBias
                R = R * SO3.exp(w * (Double(e - s) * 1e-9))
                covered = true
            }
            k += 1
        }
        guard covered else { return nil }
        return R_B_C.transpose * R.transpose * R_B_C
    }

    /// Mean angular velocity over the first `seconds` of samples: the gyro bias when the
    /// sensor starts at rest (zero when there are no samples).
    public static func staticBias(imu: [IMUSample], seconds: Double) -> Vector3 {
        guard let t0 = imu.first?.timestampNs else { return .zero }
        let window = imu.prefix { Double($0.timestampNs - t0) * 1e-9 <= seconds }
        return window.reduce(Vector3.zero) { $0 + $1.angularVelocity } / Double(max(window.count, 1))
    }
}
