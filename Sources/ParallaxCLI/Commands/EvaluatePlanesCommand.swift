import ArgumentParser
import Foundation
import ParallaxAR
import ParallaxDatasets
import ParallaxEvaluation

/// `parallax evaluate planes DATASET`: replays a simulated dataset with plane detection and
/// scores the planes against its `truth/planes.json`.
struct EvaluatePlanesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "planes",
        abstract: "Score AR plane detection against a simulated dataset's truth/planes.json.",
        discussion: """
            Runs an AR session (horizontal + vertical plane detection) over DATASET and compares \
            every plane anchor at the end with the truth planes (z-up world): normal error (deg), \
            offset error (cm; signed in the table, + = on the side the truth normal points to), IoU of the polygons on the truth plane, and the time from the start \
            of tracking to the first detection. --pose-source tracking (the default) runs the VIO \
            tracker; --pose-source groundtruth uses the dataset's poses (with points triangulated \
            from the images), which scores plane detection apart from tracking error.
            """)

    @OptionGroup var input: DatasetArgument
    @OptionGroup var poses: PoseSourceOption

    @Option(name: [.customLong("to"), .customLong("until")], parsing: .unconditional,
            help: "Stop this many seconds after the dataset start (positive).")
    var to: Double?

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    func validate() throws {
        if let to { try NumberChecks.positive(to, "--to", atMost: NumberChecks.maxSeconds, unit: "s") }
    }

    func run() throws {
        let source = poses.poseSource
        let report = try PlaneEvaluationRun.run(datasetRoot: input.url, source: source, stopTime: to)
        print(json ? Self.json(report, source: source) : Self.text(report, source: source))
    }

    static func f(_ x: Double?, _ digits: Int = 3) -> String {
        x.map { String(format: "%.\(digits)f", $0) } ?? "-"
    }

    static func text(_ r: PlaneEvaluationReport, source: PoseSourceKind) -> String {
        var s = "source: \(source.rawValue), frames: \(r.frames), planes: \(r.planes.count)\n"
        if let floor = r.floor {
            s += "floor: normal \(f(floor.normalErrorDeg)) deg, offset \(f(floor.offsetErrorCm)) cm, IoU \(f(floor.iou)), "
            s += "detected after \(f(r.floorTimeToDetect, 2)) s of tracking\n"
        } else {
            s += "floor: not detected\n"
        }
        s += "alignment   class    truth                normal°  offset cm  IoU    area m²  t detect s\n"
        for p in r.planes {
            s += p.alignment.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0)
            s += p.classification.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)
            s += (p.truthID ?? "-").padding(toLength: 21, withPad: " ", startingAt: 0)
            s += f(p.normalErrorDeg).padding(toLength: 9, withPad: " ", startingAt: 0)
            s += f(p.signedOffsetCm).padding(toLength: 11, withPad: " ", startingAt: 0)
            s += f(p.iou).padding(toLength: 7, withPad: " ", startingAt: 0)
            s += f(p.area).padding(toLength: 9, withPad: " ", startingAt: 0)
            s += f(p.timeToDetect, 2) + "\n"
        }
        return s.trimmingCharacters(in: .newlines)
    }

    static func json(_ r: PlaneEvaluationReport, source: PoseSourceKind) -> String {
        func n(_ x: Double?) -> String { x.map { String(format: "%.6f", $0) } ?? "null" }
        func score(_ p: PlaneScore) -> String {
            "{\"identifier\": \"\(p.identifier.uuidString)\", \"alignment\": \"\(p.alignment.rawValue)\", "
                + "\"classification\": \"\(p.classification.rawValue)\", "
                + "\"truth\": \(p.truthID.map { "\"\($0)\"" } ?? "null"), \"normalErrorDeg\": \(n(p.normalErrorDeg)), "
                + "\"offsetErrorCm\": \(n(p.offsetErrorCm)), \"signedOffsetCm\": \(n(p.signedOffsetCm)), \"iou\": \(n(p.iou)), \"area\": \(n(p.area)), "
                + "\"timeToDetect\": \(n(p.timeToDetect))}"
        }
        var s = "{\"source\": \"\(source.rawValue)\", \"frames\": \(r.frames), "
        s += "\"floor\": \(r.floor.map(score) ?? "null"), \"floorTimeToDetect\": \(n(r.floorTimeToDetect)), "
        s += "\"planes\": [" + r.planes.map(score).joined(separator: ", ") + "]}"
        return s
    }
}
