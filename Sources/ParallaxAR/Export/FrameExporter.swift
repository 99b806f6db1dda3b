import Foundation
import ParallaxDatasets
import ParallaxMath
import ParallaxTracking

/// Writes frames as JSON Lines (`frames.jsonl`, schema `docs/frames.schema.json`, described in
/// `docs/export.md`): one object per frame, keys in a fixed order, numbers with fixed precision
/// (`%.6f`; nanosecond timestamps as integers), so the same session gives byte-identical files.
///
/// Line layout (version ``FrameExporter/version``):
/// `{"version": 2, "timestamp": ns, "time": s, "camera": {"transform": 4×4 row-major,
/// "intrinsics": [fx, fy, cx, cy], "resolution": [w, h], "trackingState": "normal|limited|notAvailable",
/// "trackingStateReason": str|null, "eulerAngles": [pitch, yaw, roll]}, "featurePoints": [[id, x, y, z], …],
/// "anchorEvents": {"added": [anchor…], "updated": [anchor…], "removed": [identifier…]},
/// "anchors": [anchor…] (snapshot frames only), "lightEstimate": {…}|null}` — AR world (y up),
/// metres, radians.
///
/// Anchors follow ARKit's delegate model: a line lists the anchors added, updated or removed
/// since the previous line, so a file does not repeat every anchor on every frame. With
/// ``anchorSnapshotInterval`` set, every N-th line (the first included) also carries the full list.
public struct FrameExporter {
    /// The schema version written in every line.
    public static let version = TrackingFrameExporter.schemaVersion

    private let handle: FileHandle?
    /// Lines written so far.
    public private(set) var lineCount = 0
    /// Write the full anchor list every this many lines (nil: never, events only).
    public var anchorSnapshotInterval: Int?
    /// The JSON of each anchor on the previous line, to tell updates from unchanged anchors.
    private var written: [UUID: String] = [:]

    /// Creates (truncates) `url` for writing.
    public init(url: URL, anchorSnapshotInterval: Int? = nil) throws {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw SessionError("\(url.path): cannot create the file")
        }
        do { handle = try FileHandle(forWritingTo: url) } catch {
            throw SessionError("\(url.path): cannot open for writing (\(error.localizedDescription))")
        }
        self.anchorSnapshotInterval = anchorSnapshotInterval.map { max(1, $0) }
    }

    /// Appends one frame.
    public mutating func write(_ frame: Frame) throws {
        let line = nextLine(for: frame) + "\n"
        do { try handle?.write(contentsOf: Data(line.utf8)) } catch {
            throw SessionError("frames.jsonl: write failed (\(error.localizedDescription))")
        }
        lineCount += 1
    }

    /// Closes the file.
    public func close() throws { try handle?.close() }

    /// The line for `frame` in this file: anchor events against the previous line, and the full
    /// list when a snapshot is due. Updates the record of written anchors.
    mutating func nextLine(for frame: Frame) -> String {
        var now: [UUID: String] = [:]
        var added: [String] = [], updated: [String] = []
        for a in frame.anchors {
            let json = Self.anchor(a)
            now[a.identifier] = json
            if let old = written[a.identifier] {
                if old != json { updated.append(json) }
            } else {
                added.append(json)
            }
        }
        let removed = written.keys.filter { now[$0] == nil }.sorted { $0.uuidString < $1.uuidString }
        written = now
        let snapshot = anchorSnapshotInterval.map { lineCount % $0 == 0 } ?? false
        let events = "{\"added\": [\(added.joined(separator: ", "))], \"updated\": [\(updated.joined(separator: ", "))], "
            + "\"removed\": [\(removed.map { "\"\($0.uuidString)\"" }.joined(separator: ", "))]}"
        return Self.line(for: frame, events: events, snapshot: snapshot)
    }

    /// The self-contained JSON line of a frame (without the newline): every anchor is listed as
    /// added and in the snapshot, as on the first line of a file.
    public static func line(for frame: Frame) -> String {
        let all = frame.anchors.map(anchor).joined(separator: ", ")
        return line(for: frame, events: "{\"added\": [\(all)], \"updated\": [], \"removed\": []}", snapshot: true)
    }

    private static func line(for frame: Frame, events: String, snapshot: Bool) -> String {
        let c = frame.camera
        var s = TrackingFrameExporter.lineHead(timestampNs: frame.timestampNs, time: frame.timestamp, transform: c.transform,
                                               intrinsics: [c.fx, c.fy, c.cx, c.cy],
                                               resolution: (c.imageResolution.width, c.imageResolution.height),
                                               trackingState: c.trackingState, eulerAngles: c.eulerAngles)
        let cloud = frame.rawFeaturePoints ?? .empty
        s += "\"featurePoints\": [" + zip(cloud.identifiers, cloud.points).map { id, p in
            "[\(id), \(num(p.x)), \(num(p.y)), \(num(p.z))]"
        }.joined(separator: ", ") + "], "
        s += "\"anchorEvents\": \(events), "
        if snapshot { s += "\"anchors\": [" + frame.anchors.map(anchor).joined(separator: ", ") + "], " }
        if let l = frame.lightEstimate {
            s += "\"lightEstimate\": {\"ambientIntensity\": \(num(l.ambientIntensity)), "
            s += "\"ambientColorTemperature\": \(num(l.ambientColorTemperature)), "
            s += "\"primaryLightDirection\": \(l.primaryLightDirection.map(vec) ?? "null"), "
            s += "\"primaryLightIntensity\": \(l.primaryLightIntensity.map(num) ?? "null"), "
            s += "\"sphericalHarmonicsCoefficients\": [" + l.sphericalHarmonicsCoefficients.map(num).joined(separator: ", ") + "]}"
        } else {
            s += "\"lightEstimate\": null"
        }
        return s + "}"
    }

    static func anchor(_ a: any Anchor) -> String {
        var s = "{\"identifier\": \"\(a.identifier.uuidString)\", "
        s += "\"type\": \"\(a is PlaneAnchor ? "plane" : "world")\", "
        s += "\"name\": \(a.name.map(quoted) ?? "null"), \"transform\": \(matrix(a.transform))"
        if let p = a as? PlaneAnchor {
            s += ", \"alignment\": \"\(p.alignment.rawValue)\", \"classification\": \"\(p.classification.rawValue)\", "
            s += "\"center\": \(vec(p.center)), \"extent\": {\"width\": \(num(p.extent.width)), "
            s += "\"height\": \(num(p.extent.height)), \"rotationOnYAxis\": \(num(p.extent.rotationOnYAxis))}, "
            s += "\"boundary\": [" + p.geometry.boundaryVertices.map(vec).joined(separator: ", ") + "]"
        }
        return s + "}"
    }

    /// Six decimals, never `-0.000000`, non-finite values as `null`.
    static let style = JSONNumberStyle(zeroBelow: 5e-7, nonFiniteAsNull: true)
    static func num(_ x: Double) -> String { style.number(x) }
    static func vec(_ v: Vector3) -> String { style.vector(v) }
    static func matrix(_ m: Matrix4) -> String { style.matrix(m) }
    static func quoted(_ s: String) -> String { JSONText.quoted(s) }
}
