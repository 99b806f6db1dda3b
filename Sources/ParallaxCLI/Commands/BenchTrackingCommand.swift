import ArgumentParser
import Foundation
import ParallaxDatasets
import ParallaxEvaluation
import ParallaxTracking

/// `parallax bench tracking DATASET`: milliseconds per frame of the whole tracker (front-end and
/// back-end, thread CPU time), median and p99, mono and stereo.
struct BenchTrackingCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tracking", abstract: "Measure the tracker's time per frame (front-end and back-end).")

    @Argument(help: "Dataset folder (EuRoC/ASL layout).")
    var dataset: String

    @Option(help: "Start time, seconds from the dataset start.")
    var from: Double?

    @Option(help: "End time, seconds from the dataset start.")
    var to: Double?

    func run() throws {
        let data = try EuRoCDataset(url: URL(fileURLWithPath: dataset))
        let bench = TrackingBenchmark(dataset: data)
        let modes: [TrackerConfiguration.Mode] = data.isStereo ? [.mono, .stereo] : [.mono]
        for mode in modes { print(try bench.run(mode: mode, from: from, to: to).description) }
    }
}
