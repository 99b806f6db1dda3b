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

    @OptionGroup var input: DatasetArgument
    @OptionGroup var range: TimeRangeOptions

    @Option(parsing: .unconditional,
            help: "Replay the dataset this many times and time each frame by its lowest pass: steadier figures on a busy machine (1…20).")
    var repetitions: Int = 1

    func validate() throws {
        try NumberChecks.integer(repetitions, "--repetitions", in: 1...20)
    }

    func run() throws {
        let data = try input.open()
        try range.check(against: data, named: input.dataset)
        let bench = TrackingBenchmark(dataset: data)
        let modes: [TrackerConfiguration.Mode] = data.isStereo ? [.mono, .stereo] : [.mono]
        for mode in modes { print(try bench.run(mode: mode, from: range.from, to: range.to, passes: repetitions).description) }
    }
}
