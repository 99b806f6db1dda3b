import Foundation
import Testing
@testable import ParallaxSceneGraph

/// JSON syntax errors give a line and column, type errors the field path (issue 13).
@Suite struct JSONPositionTests {
    let folder: SceneTestFolder

    init() throws { folder = try SceneTestFolder() }

    private func error(_ name: String, _ text: String) throws -> String { try folder.loadError("scene/" + name, text) }

    @Test func sceneSyntaxErrorHasLineAndColumn() throws {
        let message = try error("room.json", "{\n  \"nodes\": [\n    {\"name\": \"a\",, }\n  ]\n}\n")
        #expect(message.hasPrefix("scene/room.json: invalid JSON at line 3, column 18:"), "got: \(message)")
        let truncated = try error("cut.json", "{\"nodes\": [\n")
        #expect(truncated.contains("cut.json: invalid JSON at line 1, column 12:"), "got: \(truncated)")
    }

    @Test func gltfSyntaxErrorHasLineAndColumn() throws {
        let message = try error("bad.gltf", "{\"asset\": {\"version\": \"2.0\"},\n\"nodes\": [x]}")
        #expect(message.contains("bad.gltf: invalid JSON at line 2, column 11:"), "got: \(message)")
    }

    @Test func gltfTypeErrorNamesTheFieldPath() throws {
        let message = try error("t.gltf", #"{"asset": {"version": "2.0"}, "nodes": [{"name": "a"}, {"children": ["x"]}]}"#)
        #expect(message.contains("t.gltf: nodes[1].children[0]: expected Int"), "got: \(message)")
    }

    @Test func positionCountsCharactersNotBytes() {
        let data = Data("{\"é\": [1,\n \"ü\" x]}".utf8)
        #expect(JSONSyntaxError.position(in: data, detail: "Invalid value around character 17.")
                == "line 2, column 6: Invalid value")
    }
}
