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

    @Argument(help: "The dataset folder (containing mav0).")
    var dataset: String

    @Option(help: "Seconds after the dataset start to replay to.")
    var time: Double

    @Option(name: .customLong("point"), help: "A normalised image point x,y (repeatable).")
    var points: [String] = []

    @Option(name: .customLong("points-file"), help: "File of points, one x,y per line ('-' for stdin).")
    var pointsFile: String?

    @Option(help: "Comma-separated result types: featurePoint, estimatedHorizontalPlane, estimatedVerticalPlane, existingPlane, existingPlaneUsingExtent, existingPlaneUsingGeometry (default: all).")
    var types: String?

    @Option(help: "Pose source: groundtruth or tracking.")
    var source: String = "groundtruth"

    @Flag(help: "Print JSON instead of text.")
    var json = false

    static func parsePoint(_ text: String, origin: String) throws -> Vector2 {
        let parts = text.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }).map(String.init)
        guard parts.count == 2, let x = Double(parts[0]), let y = Double(parts[1]), x.isFinite, y.isFinite else {
            throw ValidationError("\(origin): expected a point 'x,y', got '\(text)'")
        }
        return Vector2(x, y)
    }

    func readPoints() throws -> [Vector2] {
        var result = try points.map { try Self.parsePoint($0, origin: "--point") }
        if let pointsFile {
            let text: String
            if pointsFile == "-" {
                text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
            } else {
                guard let data = FileManager.default.contents(atPath: pointsFile) else {
                    throw ValidationError("\(pointsFile): cannot read the points file")
                }
                text = String(decoding: data, as: UTF8.self)
            }
            for (i, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first
                    .map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
                if line.isEmpty { continue }
                result.append(try Self.parsePoint(line, origin: "\(pointsFile == "-" ? "stdin" : pointsFile):\(i + 1)"))
            }
        }
        guard !result.isEmpty else { throw ValidationError("give at least one --point or a --points-file") }
        return result
    }

    func resultTypes() throws -> HitTestResultType {
        guard let types else { return .all }
        var set: HitTestResultType = []
        for name in types.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !name.isEmpty {
            guard let t = HitTestResultType(name: name) else {
                throw ValidationError("--types: unknown type '\(name)'; known: \(HitTestResultType.names.map(\.0).joined(separator: ", "))")
            }
            set.insert(t)
        }
        return set
    }

    func run() throws {
        guard let kind = PoseSourceKind(rawValue: source.lowercased()) else {
            throw ValidationError("--source must be groundtruth or tracking, not '\(source)'")
        }
        let queries = try readPoints()
        let typeSet = try resultTypes()
        let frame: Frame
        do {
            let session = try Session(datasetAt: URL(fileURLWithPath: dataset), replay: ReplayOptions(source: kind))
            session.run(WorldTrackingConfiguration(planeDetection: [.horizontal, .vertical], isLightEstimationEnabled: false))
            guard let f = try session.advance(to: time) else {
                throw SessionError("\(dataset): no frame at or before \(time) s")
            }
            frame = f
        } catch {
            FileHandle.standardError.write(Data("parallax hittest: \(error)\n".utf8))
            throw ExitCode.failure
        }
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
