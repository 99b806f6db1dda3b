import Foundation
import Testing
@testable import ParallaxEvaluation
import ParallaxAR
import ParallaxMath

/// Truth files that used to score against nothing or print `nan %` (issue 13).
@Suite struct TruthFileBadInputTests {
    private func write(_ text: String, _ name: String = #function) throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("parallax-truth-\(name.filter(\.isLetter))-\(UUID().uuidString.prefix(8)).json")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    private func message(_ body: () throws -> Void) -> String? {
        do { try body(); return nil } catch { return "\(error)" }
    }

    private static let plane = #"{"id": "floor/0", "kind": "floor", "centre": [0, 0, 0], "normal": [0, 0, 1], "area": 1, "#
        + #""polygon": [[0, 0, 0], [1, 0, 0], [0, 1, 0]]}"#

    private func planes(T: String, list: String = plane) -> String {
        #"{"frame": "world", "T_scene_world": \#(T), "planes": [\#(list)]}"#
    }

    private static let yUp = "[[1, 0, 0, 0], [0, 0, 1, 0], [0, -1, 0, 0], [0, 0, 0, 1]]"

    @Test func aGoodPlanesFileReads() throws {
        let url = try write(planes(T: Self.yUp))
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(try PlaneTruthFile.read(contentsOf: url).count == 1)
    }

    /// `T_scene_world` joins two simulations of one scene (second-session evaluation): it reads back
    /// as the rigid transform written, translation from the last column.
    @Test func theSceneTransformReadsBack() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-scene-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try PlaneTruthFile.sceneTransform(datasetRoot: folder) == nil)  // no truth folder: nothing to relate
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("truth"), withIntermediateDirectories: true)
        try planes(T: "[[0, -1, 0, 0.5], [1, 0, 0, -2], [0, 0, 1, 0.25], [0, 0, 0, 1]]")
            .write(to: PlaneTruthFile.url(datasetRoot: folder), atomically: true, encoding: .utf8)
        let T = try #require(try PlaneTruthFile.sceneTransform(datasetRoot: folder))
        let p = T * Vector3(1, 0, 0)
        #expect((p - Vector3(0.5, -1, 0.25)).norm < 1e-12)
        try planes(T: "[[2, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]")
            .write(to: PlaneTruthFile.url(datasetRoot: folder), atomically: true, encoding: .utf8)
        #expect(message { _ = try PlaneTruthFile.sceneTransform(datasetRoot: folder) }?.contains("not orthonormal") == true)
    }

    /// `surfaces.json` has the planes' format with the list under `surfaces`; a file with neither
    /// list says so.
    @Test func aSurfacesFileReadsAndAFileWithoutAListIsAnError() throws {
        let url = try write(#"{"frame": "world", "T_scene_world": \#(Self.yUp), "surfaces": [\#(Self.plane), \#(Self.plane)]}"#)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(try PlaneTruthFile.read(contentsOf: url).count == 2)
        let bare = try write(#"{"frame": "world"}"#)
        defer { try? FileManager.default.removeItem(at: bare) }
        #expect(message { _ = try PlaneTruthFile.read(contentsOf: bare) } == "\(bare.path): field planes (or surfaces) is missing")
        let empty = try write(#"{"frame": "world", "surfaces": []}"#)
        defer { try? FileManager.default.removeItem(at: empty) }
        #expect(message { _ = try PlaneTruthFile.read(contentsOf: empty) }
                == "\(empty.path): field surfaces is empty; there is no truth to score against")
    }

    @Test func anEmptyPlaneListIsAnError() throws {
        let url = try write(planes(T: Self.yUp, list: ""))
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(message { _ = try PlaneTruthFile.read(contentsOf: url) }
                == "\(url.path): field planes is empty; there is no truth to score against")
    }

    @Test(arguments: [
        ("[[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 1]]", "is singular (its rotation block has determinant 0.0)"),
        ("[[-1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]", "mirrors space (its rotation block has determinant -1.0); it must be a rotation"),
        ("[[2, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]", "rotation block is not orthonormal (RᵀR differs from I by 3.0)"),
        ("[[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 1, 1]]", "last row must be [0, 0, 0, 1], found [0.0, 0.0, 1.0, 1.0]"),
        ("[[1, 0, 0], [0, 1, 0], [0, 0, 1]]", "must be 4 rows of 4 finite numbers"),
    ] as [(String, String)])
    func aBadSceneTransformIsAnError(T: String, expected: String) throws {
        let url = try write(planes(T: T))
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(message { _ = try PlaneTruthFile.read(contentsOf: url) } == "\(url.path): field T_scene_world \(expected)")
    }

    @Test(arguments: [
        ("ambientIntensity", "-500", "frames[1].ambientIntensity must be positive, found -500.0"),
        ("ambientIntensity", "0", "frames[1].ambientIntensity must be positive, found 0.0"),
        ("colorTemperature", "-6500", "frames[1].colorTemperature must be positive, found -6500.0"),
        ("exposureGain", "0", "frames[1].exposureGain must be positive, found 0.0"),
    ] as [(String, String, String)])
    func nonPositiveLightingTruthIsAnError(field: String, value: String, expected: String) throws {
        func frame(_ t: Int, _ patch: Bool) -> String {
            var values = ["ambientIntensity": "1000", "colorTemperature": "6500", "exposureGain": "1"]
            if patch { values[field] = value }
            return #"{"timestamp": \#(t), "#
                + values.sorted { $0.key < $1.key }.map { #""\#($0.key)": \#($0.value)"# }.joined(separator: ", ") + "}"
        }
        let url = try write(#"{"frames": [\#(frame(1, false)), \#(frame(2, true))]}"#)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(message { _ = try LightingTruth(contentsOf: url) } == "\(url.path): \(expected)")
    }

    @Test func anEmptyLightingTruthIsAnError() throws {
        let url = try write(#"{"frames": []}"#)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(message { _ = try LightingTruth(contentsOf: url) }
                == "\(url.path): array \"frames\" is empty; there is nothing to compare with")
    }
}

/// Hit distances go to every face when the recorder has them, to the truth planes otherwise.
@Suite struct HitSurfaceTests {
    private static func square(_ id: String, centre c: Vector3, normal n: Vector3, half: Double) -> TruthPlane {
        let (e1, e2) = ConvexPolygon.basis(ofPlaneWithNormal: n)
        let polygon = [(-1.0, -1.0), (1, -1), (1, 1), (-1, 1)].map { c + e1 * ($0.0 * half) + e2 * ($0.1 * half) }
        return TruthPlane(id: id, kind: "wall", centre: c, normal: n, area: 4 * half * half, polygon: polygon)
    }

    @Test func aHitOnASmallFaceIsOnASurface() {
        let floor = Self.square("floor", centre: .zero, normal: Vector3(0, 0, 1), half: 2)
        // A book's spine 30 cm above the floor: too small for planes.json.
        let spine = Self.square("book/x+", centre: Vector3(0.5, 0, 0.3), normal: Vector3(1, 0, 0), half: 0.05)
        let hit = Vector3(0.505, 0.01, 0.31)
        let planesOnly = PlaneMapQualityRecorder(truth: [floor])
        let everyFace = PlaneMapQualityRecorder(truth: [floor], surfaces: [floor, spine])
        #expect(abs(planesOnly.distanceToTruth(hit) - 0.31) < 1e-9)
        #expect(abs(everyFace.distanceToTruth(hit) - 0.005) < 1e-9)
        // Beside the spine's outline the distance runs to its edge.
        #expect(abs(everyFace.distanceToTruth(Vector3(0.5, 0.15, 0.3)) - 0.1) < 1e-9)
    }
}
