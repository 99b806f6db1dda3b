import ArgumentParser
import Foundation
import ParallaxDatasets
import ParallaxEvaluation
import ParallaxMapping
import ParallaxTracking

/// `parallax evaluate second-session MAP_DATASET SESSION_DATASET`: how soon a session that loads a
/// saved map localizes in it, and how far session 1's anchors appear from where they were placed.
struct EvaluateSecondSessionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "second-session",
        abstract: "Measure second sessions in a saved map: time to localize and anchor error against the ground truth.",
        discussion: """
            Session 1 tracks and maps MAP_DATASET (--map-from/--map-to) and saves the map through the \
            file format, with an anchor 1.5 m in front of every 5th keyframe. For each --start, a \
            session of --duration seconds over SESSION_DATASET loads that map and must localize in \
            it. Reported per start: seconds until the first frame tracked normally and placed in the \
            map; the anchor error (the distance, in the real world, between where session 1 showed an \
            anchor and where this session shows it, over every frame with the anchor in view, from \
            the two ground truths alone); and the body position error in the map world through a \
            posyaw alignment fitted on session 1. Two different datasets must both be simulations of \
            one scene (their truth/planes.json relates the two ground truths); one dataset can serve \
            both sessions.
            """)

    @Argument(help: "Dataset folder session 1 maps (EuRoC/ASL layout with ground truth).")
    var mapDataset: String

    @Argument(help: "Dataset folder the second sessions run on (the same scene; may be MAP_DATASET).")
    var sessionDataset: String

    @OptionGroup var cameras: CameraOptions
    @OptionGroup var loops: LoopOptions

    @Option(parsing: .unconditional, help: "Session 1 starts this many seconds after MAP_DATASET's start.")
    var mapFrom: Double?

    @Option(parsing: .unconditional, help: "Session 1 stops this many seconds after MAP_DATASET's start.")
    var mapTo: Double?

    @Option(parsing: .singleValue, help: "Start of a second session, seconds after SESSION_DATASET's start (repeat for several).")
    var start: [Double] = [0]

    @Option(parsing: .unconditional, help: "Length of each second session in seconds (1…600).")
    var duration: Double = 12

    @Option(parsing: .unconditional, help: "Bound for the time to localize that the summary counts against (s).")
    var localizeBound: Double = 2

    @Option(parsing: .unconditional, help: "Bound for the anchor error that the summary counts against (m).")
    var anchorBound: Double = 0.05

    @Flag(help: "Per start, also print the body error second by second after localizing.")
    var verbose = false

    func validate() throws {
        try TimeRangeOptions.validate(from: mapFrom, to: mapTo, names: ("--map-from", "--map-to"))
        guard !start.isEmpty, start.count <= 100 else { throw ValidationError("give 1 to 100 --start values") }
        for s in start { try NumberChecks.nonNegative(s, "--start", atMost: NumberChecks.maxSeconds, unit: "s") }
        try NumberChecks.positive(duration, "--duration", atMost: 600, unit: "s")
        try NumberChecks.positive(localizeBound, "--localize-bound", atMost: 600, unit: "s")
        try NumberChecks.positive(anchorBound, "--anchor-bound", atMost: 100, unit: "m")
    }

    func run() throws {
        let mapData = try EuRoCDataset(url: URL(fileURLWithPath: mapDataset), policy: .lenient)
        let sessionData = try EuRoCDataset(url: URL(fileURLWithPath: sessionDataset), policy: .lenient)
        for (data, name) in [(mapData, mapDataset), (sessionData, sessionDataset)] where !data.hasGroundTruth {
            throw CLIError("\(name) has no ground truth (mav0/state_groundtruth_estimate0); second sessions are measured against it")
        }
        let mode = try cameras.mode(for: mapData, named: mapDataset)
        if mode == .stereo && !sessionData.isStereo { throw CLIError("\(sessionDataset) has one camera; pass --mono") }
        if let mapFrom { try DatasetLength.check(mapFrom, option: "--map-from", within: mapData, named: mapDataset) }
        let length = try DatasetLength.seconds(of: sessionData)  // read once, not once per start
        for s in start { try DatasetLength.check(s, option: "--start", length: length, named: sessionDataset) }

        var evaluation = SecondSessionEvaluation(mapDataset: mapData, sessionDataset: sessionData, mode: mode)
        evaluation.mapRange = (mapFrom, mapTo)
        loops.apply(to: &evaluation.configuration.loopClosure)
        let (map, results) = try evaluation.run(starts: start, duration: duration)
        print(String(format: "session 1 (%@, %@): map %d keyframes, %d points; %d anchors; session ATE posyaw %.1f mm",
                     mapDataset, mode.rawValue, map.keyframes, map.points, map.anchors, map.sessionATE * 1000))
        print(SecondSessionReport(results: results, localizeBound: localizeBound, anchorBound: anchorBound, verbose: verbose).text)
    }
}

/// The per-start lines and the summary of ``EvaluateSecondSessionCommand``.
struct SecondSessionReport {
    let results: [SecondSessionEvaluation.Start]
    let localizeBound: Double
    let anchorBound: Double
    var verbose = false

    var text: String {
        func mm(_ v: [Double], _ q: Double) -> String { String(format: "%.0f", SampleStatistics.quantile(v, q) * 1000) }
        var lines: [String] = []
        for r in results {
            guard let after = r.localizedAfter else {
                lines.append(String(format: "start %6.1f s: never localized (%d frames)", r.start, r.frames))
                continue
            }
            var line = String(format: "start %6.1f s: localized after %.2f s", r.start, after)
            if !r.cameraErrors.isEmpty {
                line += "; body error median \(mm(r.cameraErrors, 0.5)) / p90 \(mm(r.cameraErrors, 0.9)) / max \(mm(r.cameraErrors, 1)) mm"
            }
            line += r.anchorErrors.isEmpty ? "; no anchor in view"
                : "; anchors (\(r.anchorsSeen) seen, \(r.anchorErrors.count) views) median \(mm(r.anchorErrors, 0.5)) / p90 \(mm(r.anchorErrors, 0.9)) / max \(mm(r.anchorErrors, 1)) mm"
            lines.append(line)
            if verbose, let last = r.cameraErrorTimes.last {
                let seconds = (Int(after)...Int(last)).map { second -> String in
                    let inSecond = zip(r.cameraErrorTimes, r.cameraErrors).filter { Int($0.0) == second }.map(\.1)
                    return inSecond.isEmpty ? "-" : mm(inSecond, 0.5)
                }
                lines.append("  body error (mm, median per second from \(Int(after)) s): " + seconds.joined(separator: " "))
                lines.append("  loops: \(r.loopsClosed) optimised, \(r.loopsRefused.count) refused")
                lines += r.loopsRefused.map { "    refused: \($0)" }
            }
        }
        let within = results.filter { ($0.localizedAfter ?? .infinity) <= localizeBound }.count
        let localized = results.filter { $0.localizedAfter != nil }.count
        let anchors = results.flatMap(\.anchorErrors), bodies = results.flatMap(\.cameraErrors)
        var summary = String(format: "localized within %.1f s: %d of %d starts (%d at all)", localizeBound, within, results.count, localized)
        if !bodies.isEmpty { summary += "; body error median \(mm(bodies, 0.5)) / p90 \(mm(bodies, 0.9)) mm" }
        if !anchors.isEmpty {
            let share = Double(anchors.filter { $0 <= anchorBound }.count) / Double(anchors.count) * 100
            summary += String(format: "; anchor error median %@ / p90 %@ mm, %.1f %% of views within %.0f mm",
                              mm(anchors, 0.5), mm(anchors, 0.9), share, anchorBound * 1000)
        }
        lines.append(summary)
        return lines.joined(separator: "\n")
    }
}
