import ArgumentParser
import Foundation
import ParallaxAR
import ParallaxMath

/// `parallax hittest DATASET --time T --point x,y …`: replays an AR session to a time and prints
/// the hit-test results of normalised image points.
struct HitTestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hittest",
        abstract: "Replay an AR session to a time and hit-test image points.",
        discussion: """
            Points are normalised image coordinates of the (undistorted) captured image: (0,0) is \
            the top-left corner, (1,1) the bottom-right. Results are sorted by distance and give \
            the type, distance (m), the hit position in the AR world (y up, origin at the first \
            camera position) and the plane anchor hit. A points file holds one "x,y" (or "x y") \
            per line; '#' starts a comment; '-' reads standard input.
            """)

    @OptionGroup var input: DatasetArgument

    @Option(parsing: .unconditional, help: "Seconds after the dataset start to replay to (≥ 0, within the dataset).")
    var time: Double

    @Option(name: .customLong("point"), parsing: .unconditionalSingleValue,
            help: "A normalised image point x,y with both in [0, 1] (repeatable).")
    var points: [String] = []

    @Option(name: .customLong("points-file"), help: "File of points, one x,y per line ('-' for stdin).")
    var pointsFile: String?

    @Option(help: "Comma-separated result types to report (default: all).")
    var types: HitTestTypeList?

    @OptionGroup var poses: PoseSourceOption
    @OptionGroup var cameras: CameraOptions

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func validate() throws {
        try NumberChecks.nonNegative(time, "--time", atMost: NumberChecks.maxSeconds, unit: "s")
        for text in points { _ = try Self.parsePoint(text, origin: "--point") }
        if points.isEmpty && pointsFile == nil { throw ValidationError("give at least one --point or a --points-file") }
    }

    /// Parses "x,y" (or "x y") and checks that the point lies in the image, [0, 1]².
    static func parsePoint(_ text: String, origin: String) throws -> Vector2 {
        let parts = text.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }).map(String.init)
        guard parts.count == 2, let x = Double(parts[0]), let y = Double(parts[1]) else {
            throw ValidationError("\(origin): expected a point 'x,y', got '\(text)'")
        }
        guard (0...1).contains(x), (0...1).contains(y) else {
            throw ValidationError("\(origin): x and y must be in [0, 1] (normalised image coordinates), got '\(text)'")
        }
        return Vector2(x, y)
    }

    /// The --point values, then those of the points file (whose mistakes are runtime errors with file:line).
    func readPoints() throws -> [Vector2] {
        var result = try points.map { try Self.parsePoint($0, origin: "--point") }
        guard let pointsFile else { return result }
        let text: String
        if pointsFile == "-" {
            text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
        } else {
            guard let data = FileManager.default.contents(atPath: pointsFile) else {
                throw CLIError("\(pointsFile): cannot read the points file")
            }
            text = String(decoding: data, as: UTF8.self)
        }
        let name = pointsFile == "-" ? "stdin" : pointsFile
        for (i, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first
                .map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            if line.isEmpty { continue }
            do {
                result.append(try Self.parsePoint(line, origin: "\(name):\(i + 1)"))
            } catch let error as ValidationError {
                throw CLIError(error.message)
            }
        }
        guard !result.isEmpty else { throw CLIError("\(name): no points in the points file") }
        return result
    }

    func run() throws {
        let queries = try readPoints()
        let session = try Session(datasetAt: input.url, replay: ReplayOptions(source: poses.poseSource))
        try DatasetLength.check(time, option: "--time", within: session.dataset, named: input.dataset)
        session.replayOptions.trackerMode = try cameras.mode(for: session.dataset, named: input.dataset)
        session.run(WorldTrackingConfiguration(planeDetection: [.horizontal, .vertical], isLightEstimationEnabled: false))
        guard let frame = try session.advance(to: time) else {
            throw CLIError("\(input.dataset): no frame at or before \(NumberChecks.text(time)) s")
        }
        let typeSet = types?.set ?? .all
        let results = queries.map { frame.hitTest($0, types: typeSet) }
        print(json ? Self.json(frame, queries, results) : Self.text(frame, queries, results))
    }

    static func n(_ x: Double) -> String { String(format: "%.6f", abs(x) < 5e-7 ? 0 : x) }

    static func text(_ frame: Frame, _ queries: [Vector2], _ results: [[HitTestResult]]) -> String {
        var s = "frame t=\(n(frame.timestamp)) tracking=\(frame.camera.trackingState) planes=\(frame.planeAnchors.count)\n"
        for (q, rs) in zip(queries, results) {
            s += "point (\(n(q.x)), \(n(q.y))): \(rs.count) result(s)\n"
            for r in rs {
                let p = r.position
                s += "  \(r.type.name) distance \(n(r.distance)) m at (\(n(p.x)), \(n(p.y)), \(n(p.z)))"
                if let a = r.anchor { s += " plane \(a.identifier.uuidString) \(a.classification.rawValue)" }
                s += "\n"
            }
        }
        return s.trimmingCharacters(in: .newlines)
    }

    static func json(_ frame: Frame, _ queries: [Vector2], _ results: [[HitTestResult]]) -> String {
        func m(_ t: Matrix4) -> String {
            "[" + (0..<4).map { r in "[" + (0..<4).map { c in n(t[r, c]) }.joined(separator: ", ") + "]" }.joined(separator: ", ") + "]"
        }
        let items = zip(queries, results).map { q, rs in
            "{\"point\": [\(n(q.x)), \(n(q.y))], \"results\": [" + rs.map { r in
                "{\"type\": \"\(r.type.name)\", \"distance\": \(n(r.distance)), \"worldTransform\": \(m(r.worldTransform)), "
                    + "\"localTransform\": \(m(r.localTransform)), "
                    + "\"anchor\": \(r.anchor.map { "\"\($0.identifier.uuidString)\"" } ?? "null")}"
            }.joined(separator: ", ") + "]}"
        }
        return "{\"timestamp\": \(frame.timestampNs), \"trackingState\": \"\(frame.camera.trackingState.name)\", "
            + "\"queries\": [" + items.joined(separator: ", ") + "]}"
    }
}
