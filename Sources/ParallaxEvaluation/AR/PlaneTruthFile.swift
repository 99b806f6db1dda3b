import Foundation
import ParallaxImaging
import ParallaxAR
import ParallaxMath
import ParallaxSceneGraph
import ParallaxSimulation

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
    private struct File: Decodable {
        var planes: [Entry]?
        /// `truth/surfaces.json` holds its faces under this key instead.
        var surfaces: [Entry]?
        var T_scene_world: [[Double]]?
    }

    /// Reads `url` (`planes.json`, or `surfaces.json`: the same format with the list under
    /// `surfaces`); errors name the file and the offending plane.
    public static func read(contentsOf url: URL) throws -> [TruthPlane] {
        let file = try decode(url)
        guard let planes = file.planes ?? file.surfaces else {
            throw SessionError("\(url.path): field planes (or surfaces) is missing")
        }
        // An empty list would score every detected plane as a false positive and pass with 0 %.
        guard !planes.isEmpty else {
            throw SessionError("\(url.path): field \(file.planes == nil ? "surfaces" : "planes") is empty; there is no truth to score against")
        }
        if let T = file.T_scene_world { try checkRigid(T, file: url.path) }
        func vector(_ a: [Double], _ field: String, _ id: String) throws -> Vector3 {
            guard a.count == 3, a.allSatisfy(\.isFinite) else {
                throw SessionError("\(url.path): plane \(id): field \(field) must hold 3 finite numbers")
            }
            return Vector3(a[0], a[1], a[2])
        }
        return try planes.map { e in
            let normal = try vector(e.normal, "normal", e.id)
            guard abs(normal.norm - 1) < 1e-3 else { throw SessionError("\(url.path): plane \(e.id): normal is not unit length") }
            let polygon = try e.polygon.map { try vector($0, "polygon", e.id) }
            guard polygon.count >= 3 else { throw SessionError("\(url.path): plane \(e.id): polygon needs 3 vertices") }
            return TruthPlane(id: e.id, kind: e.kind, centre: try vector(e.centre, "centre", e.id),
                              normal: normal, area: e.area, polygon: polygon)
        }
    }

    /// The file's fields, with errors naming the file.
    private static func decode(_ url: URL) throws -> File {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw SessionError("\(url.path): cannot read (\(FileReadability.describe(error, reading: url)))")
        }
        do { return try JSONDecoder().decode(File.self, from: data) } catch {
            throw SessionError("\(url.path): not a planes.json file (\(error))")
        }
    }

    /// `rows` as a rigid transform; throws unless it is a 4×4 rigid transform: finite, last row
    /// `0 0 0 1`, a rotation block with orthonormal columns and determinant +1 (a singular or
    /// mirroring matrix means the file was written wrongly, and its planes cannot be in the frame
    /// it claims).
    @discardableResult
    static func checkRigid(_ rows: [[Double]], file: String) throws -> RigidTransform {
        func fail(_ why: String) -> SessionError { SessionError("\(file): field T_scene_world \(why)") }
        guard rows.count == 4, rows.allSatisfy({ $0.count == 4 && $0.allSatisfy(\.isFinite) }) else {
            throw fail("must be 4 rows of 4 finite numbers")
        }
        guard rows[3] == [0, 0, 0, 1] else { throw fail("last row must be [0, 0, 0, 1], found \(rows[3])") }
        let R = Matrix3(rows: Vector3(rows[0][0], rows[0][1], rows[0][2]), Vector3(rows[1][0], rows[1][1], rows[1][2]),
                        Vector3(rows[2][0], rows[2][1], rows[2][2]))
        let det = R.determinant
        guard abs(det) > 1e-6 else { throw fail("is singular (its rotation block has determinant \(det))") }
        guard det > 0 else { throw fail("mirrors space (its rotation block has determinant \(det)); it must be a rotation") }
        let error = zip((R.transpose * R).rowMajor, Matrix3.identity.rowMajor).map { abs($0 - $1) }.max() ?? 0
        guard error < 1e-3 else { throw fail("rotation block is not orthonormal (RᵀR differs from I by \(error))") }
        return RigidTransform(rotationMatrix: R, translation: Vector3(rows[0][3], rows[1][3], rows[2][3]))
    }

    /// `T_scene_world` of the dataset folder `root`'s `truth/planes.json`: where the simulator put
    /// the trajectory's world in the scene. Nil when the file or the field is absent.
    public static func sceneTransform(datasetRoot root: URL) throws -> RigidTransform? {
        let url = url(datasetRoot: root)
        guard FileManager.default.fileExists(atPath: url.path), let rows = try decode(url).T_scene_world else { return nil }
        return try checkRigid(rows, file: url.path)
    }

    /// `truth/planes.json` of the dataset folder `root` (the folder holding `mav0`).
    public static func url(datasetRoot root: URL) -> URL {
        root.appendingPathComponent("truth").appendingPathComponent("planes.json")
    }

    /// `truth/surfaces.json` of the dataset folder `root`: every face of the scene, the small ones
    /// included (written by simulations since 2026-12-01).
    public static func surfacesURL(datasetRoot root: URL) -> URL {
        root.appendingPathComponent("truth").appendingPathComponent("surfaces.json")
    }

    /// Every face of `scene` placed as the simulation of the dataset at `root` placed it (its
    /// `planes.json`'s `T_scene_world`): the surfaces of a dataset simulated before
    /// `truth/surfaces.json` was written, from the scene it was made with.
    public static func surfaces(of scene: Scene, datasetRoot root: URL) throws -> [TruthPlane] {
        let file = url(datasetRoot: root)
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw SessionError("\(file.path): no such file; a scene's surfaces are placed by a simulated dataset's truth")
        }
        guard let T_scene_world = try sceneTransform(datasetRoot: root) else {
            throw SessionError("\(file.path): field T_scene_world is missing; cannot place the scene's surfaces")
        }
        return ScenePlanes.surfaces(from: scene, alignment: SceneAlignment(T_scene_world: T_scene_world)).map {
            TruthPlane(id: $0.id, kind: $0.kind.rawValue, centre: $0.centre, normal: $0.normal, area: $0.area, polygon: $0.polygon)
        }
    }
}
