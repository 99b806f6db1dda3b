import Foundation
import ParallaxDatasets
import ParallaxMath

/// Writes frames as JSON Lines (`frames.jsonl`): one object per frame, keys in a fixed order,
/// numbers with fixed precision (`%.6f`; nanosecond timestamps as integers), so the same session
/// gives byte-identical files.
///
/// Line layout:
/// `{"timestamp": ns, "time": s, "camera": {"transform": 4×4 row-major, "intrinsics": [fx, fy, cx, cy],
/// "resolution": [w, h], "trackingState": "normal|limited|notAvailable", "trackingStateReason": str|null,
/// "eulerAngles": [pitch, yaw, roll]}, "featurePoints": [[id, x, y, z], …],
/// "anchors": [{"identifier", "type": "plane|world", "name", "transform", …plane fields}],
/// "lightEstimate": {…}|null}` — AR world (y up), metres, radians.
public struct FrameExporter {
    private let handle: FileHandle?
    /// Lines written so far.
    public private(set) var lineCount = 0

    /// Creates (truncates) `url` for writing.
    public init(url: URL) throws {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw SessionError("\(url.path): cannot create the file")
        }
        do { handle = try FileHandle(forWritingTo: url) } catch {
            throw SessionError("\(url.path): cannot open for writing (\(error.localizedDescription))")
        }
    }

    /// Appends one frame.
    public mutating func write(_ frame: Frame) throws {
        let line = Self.line(for: frame) + "\n"
        do { try handle?.write(contentsOf: Data(line.utf8)) } catch {
            throw SessionError("frames.jsonl: write failed (\(error.localizedDescription))")
        }
        lineCount += 1
    }

    /// Closes the file.
    public func close() throws { try handle?.close() }

    /// The JSON line of a frame (without the newline).
    public static func line(for frame: Frame) -> String {
        let c = frame.camera
        var s = "{\"timestamp\": \(frame.timestampNs), \"time\": \(num(frame.timestamp)), \"camera\": {"
        s += "\"transform\": \(matrix(c.transform)), "
        s += "\"intrinsics\": [\(num(c.fx)), \(num(c.fy)), \(num(c.cx)), \(num(c.cy))], "
        s += "\"resolution\": [\(c.imageResolution.width), \(c.imageResolution.height)], "
        s += "\"trackingState\": \"\(c.trackingState.name)\", "
        s += "\"trackingStateReason\": \(c.trackingState.reason.map { "\"\($0.rawValue)\"" } ?? "null"), "
        s += "\"eulerAngles\": \(vec(c.eulerAngles))}, "
        let cloud = frame.rawFeaturePoints ?? .empty
        s += "\"featurePoints\": [" + zip(cloud.identifiers, cloud.points).map { id, p in
            "[\(id), \(num(p.x)), \(num(p.y)), \(num(p.z))]"
        }.joined(separator: ", ") + "], "
        s += "\"anchors\": [" + frame.anchors.map(anchor).joined(separator: ", ") + "], "
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
