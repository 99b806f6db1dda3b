import Foundation
import ParallaxDatasets
import ParallaxMath
import ParallaxVision

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
            median = values.isEmpty ? 0 : SampleStatistics.upperMedian(values)
            p99 = SampleStatistics.quantile(values, 0.99)
            mean = values.isEmpty ? 0 : values.sorted().reduce(0, +) / Double(values.count)
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
                lines.append(name.padding(toLength: 14, withPad: " ", startingAt: 0)
                    + String(format: " %9.3f %8.3f %9.3f", s.median, s.p99, s.mean))
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
            var tracker = try dataset.makeFeatureTracker()
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
