import Foundation
import ParallaxAR
import ParallaxMath

/// One plane of a simulated dataset's `truth/planes.json` (estimator world `W`, z up).
public struct TruthPlane: Sendable, Equatable {
    /// Identifier (`<node>/<face>`).
    public var id: String
    /// `floor`, `wall`, `table` or `ceiling`.
    public var kind: String
    /// Polygon centroid (m).
    public var centre: Vector3
    /// Unit normal, pointing to the visible side.
    public var normal: Vector3
    /// Area (m²).
    public var area: Double
    /// Convex boundary, counter-clockwise seen from the normal's side.
    public var polygon: [Vector3]

    /// Plane offset `normal · p`.
    public var offset: Double { normal.dot(centre) }
}

/// Reader of `truth/planes.json` (format written by ParallaxSimulation's `TruthFiles.planesJSON`:
/// `{"frame": …, "T_scene_world": 4×4, "planes": [{"id", "kind", "centre", "normal", "area",
/// "polygon"}]}`, world z up).
public enum PlaneTruthFile {
    private struct Entry: Decodable {
        var id: String
        var kind: String
        var centre: [Double]
        var normal: [Double]
        var area: Double
        var polygon: [[Double]]
    }
    private struct File: Decodable { var planes: [Entry] }

    /// Reads `url`; errors name the file and the offending plane.
    public static func read(contentsOf url: URL) throws -> [TruthPlane] {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw SessionError("\(url.path): cannot read (\(error.localizedDescription))")
        }
        let file: File
        do { file = try JSONDecoder().decode(File.self, from: data) } catch {
            throw SessionError("\(url.path): not a planes.json file (\(error))")
        }
        func vector(_ a: [Double], _ field: String, _ id: String) throws -> Vector3 {
            guard a.count == 3, a.allSatisfy(\.isFinite) else {
                throw SessionError("\(url.path): plane \(id): field \(field) must hold 3 finite numbers")
            }
            return Vector3(a[0], a[1], a[2])
        }
        return try file.planes.map { e in
            let normal = try vector(e.normal, "normal", e.id)
            guard abs(normal.norm - 1) < 1e-3 else { throw SessionError("\(url.path): plane \(e.id): normal is not unit length") }
            let polygon = try e.polygon.map { try vector($0, "polygon", e.id) }
            guard polygon.count >= 3 else { throw SessionError("\(url.path): plane \(e.id): polygon needs 3 vertices") }
            return TruthPlane(id: e.id, kind: e.kind, centre: try vector(e.centre, "centre", e.id),
                              normal: normal, area: e.area, polygon: polygon)
        }
    }

    /// `truth/planes.json` of the dataset folder `root` (the folder holding `mav0`).
    public static func url(datasetRoot root: URL) -> URL {
        root.appendingPathComponent("truth").appendingPathComponent("planes.json")
    }
}
