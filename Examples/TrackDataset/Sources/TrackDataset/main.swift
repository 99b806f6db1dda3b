// Example (a): track a dataset and print the poses.
//
//   swift run TrackDataset [DATASET]     (default: Parallax's bundled Datasets/sample)
//
// Any SensorSource works the same way; here it is an EuRoC/ASL (or TUM-VI) folder.
import Foundation
import Parallax

let repository = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
let path = CommandLine.arguments.dropFirst().first ?? repository.appendingPathComponent("Datasets/sample").path

do {
    let dataset = try EuRoCDataset(url: URL(fileURLWithPath: path))
    print("\(dataset.origin): \(dataset.cameras.count) camera(s), IMU at \(dataset.imu.rateHz) Hz")
    let runner = try DatasetRunner(source: dataset, configuration: TrackerConfiguration(mode: .stereo))
    let summary = try runner.run { result, _ in
        guard let T = result.T_world_body else {
            print(String(format: "%.3f s  %@", result.timestamp, "\(result.trackingState)"))
            return
        }
        let p = T.translation
        print(String(format: "%.3f s  %@  position %.3f %.3f %.3f m", result.timestamp, "\(result.trackingState)",
                     p.x, p.y, p.z))
    }
    print("\(summary.frames) frames, \(summary.normalFrames) with normal tracking, \(summary.trajectory.poses.count) poses")
} catch {
    FileHandle.standardError.write(Data("TrackDataset: \(error)\n".utf8))
    exit(1)
}
