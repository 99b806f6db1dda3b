import ArgumentParser
import Foundation
import ParallaxAR
import ParallaxDatasets
import ParallaxTracking

#if canImport(Glibc)
import Glibc
#endif

/// `parallax bench ar-session`: the AR session's cost over a long walk, as a curve.
///
/// Replays a handheld walk through `Scenes/room.json` (simulated once, then reused from the
/// cache folder) through a ``Session`` with tracked poses, plane detection and light estimation,
/// as `parallax replay --planes --light` does, and prints per window (a minute by default): CPU
/// milliseconds per frame of the whole session step (thread time: image decoding, tracking,
/// planes, light, export when asked) and of its stages (``SessionStageTimes``: tracking with
/// decoding, the world map's work on the session thread, planes, light, the rest with the
/// export), map points, anchors and the resident memory at the window's end, with the world map's
/// keyframes (which grow with the area explored). A bounded session shows a flat curve.
struct BenchARSessionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ar-session",
        abstract: "Measure the AR session's CPU time per frame and memory over a long walk.")

    @Option(parsing: .unconditional, help: "Walk length in seconds (simulated if not cached; 1…3600).")
    var duration: Double = 600

    @Option(help: "Dataset to replay instead of the simulated walk.")
    var dataset: String?

    @Option(help: "Folder caching the simulated walks.")
    var cache: String = "/tmp/parallax-sim"

    @Option(parsing: .unconditional, help: "Window of the curve in seconds (1…3600).")
    var window: Double = 60

    @Option(help: "Also write frames.jsonl here (its cost is counted).")
    var export: String?

    @Flag(help: "Track with both cameras (a stereo walk is simulated); default mono.")
    var stereo = false

    func validate() throws {
        try NumberChecks.positive(duration, "--duration", atMost: 3600, unit: "s")
        try NumberChecks.positive(window, "--window", atMost: 3600, unit: "s")
    }

    func run() throws {
        let (root, simulated) = try datasetFolder()
        let session = try Session(datasetAt: root, replay: ReplayOptions(source: .tracking, stopTime: duration,
                                                                         trackerMode: stereo ? .stereo : .mono))
        session.lightEstimator = SceneLightEstimator()
        session.run(WorldTrackingConfiguration(planeDetection: [.horizontal, .vertical], isLightEstimationEnabled: true))
        var exporter = try export.map { try FrameExporter(url: URL(fileURLWithPath: $0)) }
        print("AR session over \(root.path) (\(stereo ? "stereo" : "mono") tracking, planes, light\(export == nil ? "" : ", export")):")
        print("window_s        frames  cpu_ms/frame  tracking_ms  mapping_ms  planes_ms  light_ms  other_ms  map_points  anchors  keyframes  rss_MB")
        var current = Window(start: 0)
        var firstTime: Double?
        while true {
            let before = ThreadClock.milliseconds()
            guard let frame = try session.nextFrame() else { break }
            try exporter?.write(frame)
            let cost = ThreadClock.milliseconds() - before
            let t = frame.timestamp - (firstTime ?? frame.timestamp)
            if firstTime == nil { firstTime = frame.timestamp }
            // A last frame exactly at --duration stays in the last full window.
            if t >= current.start + window, t < duration {
                print(current.line(window: window, session: session))
                current = Window(start: current.start + window)
            }
            current.add(cpu: cost, stages: session.lastStageTimes)
        }
        if current.frames > 0 { print(current.line(window: window, session: session)) }
        try exporter?.close()
        if simulated {
            // The simulation's pages stay resident in this process (about 90 MB more on the
            // 10-minute walk: 159–163 against 69–73 MB on the cached walk, docs/ar-session.md).
            print("note: the walk was simulated by this run, and rss_MB includes what the simulation left resident;"
                  + " run again (the walk is cached now) to compare memory with other runs")
        }
    }

    /// The dataset: `--dataset`, else the cached walk, simulated first when missing (then
    /// `simulated` is true).
    private func datasetFolder() throws -> (url: URL, simulated: Bool) {
        if let dataset { return (URL(fileURLWithPath: dataset), false) }
        let name = "ar-room-handheld-\(Int(duration.rounded(.up)))s-\(stereo ? "stereo" : "mono")"
        let url = URL(fileURLWithPath: cache).appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: url.appendingPathComponent("mav0/cam0/data.csv").path) { return (url, false) }
        print("simulating \(url.path) (\(NumberChecks.text(duration)) s; this takes a while)")
        var arguments = ["--scene", "Scenes/room.json", "--motion", "handheld", "--duration", "\(duration)", "-o", url.path]
        if stereo { arguments.append("--stereo") }
        let simulate = try SimulateCommand.parse(arguments)
        try simulate.run()
        return (url, true)
    }

    /// One window of the curve.
    private struct Window {
        var start: Double
        var frames = 0
        var cpu = 0.0
        var stages = SessionStageTimes()

        mutating func add(cpu c: Double, stages s: SessionStageTimes) {
            frames += 1
            cpu += c
            stages.tracking += s.tracking
            stages.mapping += s.mapping
            stages.planes += s.planes
            stages.light += s.light
        }

        func line(window: Double, session: Session) -> String {
            let n = Double(max(frames, 1))
            let range = String(format: "%5.0f–%-5.0f", start, start + window)
            // The rest of the step (undistortion, feature points, the frame, the export) is what
            // the four measured stages leave of the whole.
            let rest = cpu - stages.tracking - stages.mapping - stages.planes - stages.light
            return range + String(format: "    %6d  %12.2f  %11.2f  %10.2f  %9.2f  %8.2f  %8.2f  %10d  %7d  %9d  %6.0f", frames, cpu / n,
                                  stages.tracking / n, stages.mapping / n, stages.planes / n, stages.light / n, rest / n,
                                  session.mapPointCount, session.anchors.count,
                                  session.worldMapper?.database.keyframes.count ?? 0,
                                  BenchARSessionCommand.residentMegabytes())
        }
    }

    /// Resident memory (MB) from `/proc/self/statm`; 0 where it cannot be read.
    static func residentMegabytes() -> Double {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Double(fields[1]) else { return 0 }
        return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
    }
}
