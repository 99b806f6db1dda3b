import Foundation
import Testing
@testable import ParallaxSceneGraph

/// JSON that parses but would lose data or draw nothing without a word (issue 13): a key written
/// twice in one object, a camera projection with no inverse.
@Suite struct SceneDuplicateKeyTests {
    @Test func aKeyWrittenTwiceInASceneNamesLineAndColumn() throws {
        let json = "{\"nodes\": [\n  {\"name\": \"a\", \"position\": [0, 1, 0],\n   \"position\": [5, 5, 5]}\n]}"
        #expect(try SceneTestFolder().loadError("scene/s.json", json)
                == "scene/s.json: line 3, column 4: key \"position\" appears twice in one object (JSON keeps only one of them)")
    }

    @Test func keysAreComparedAfterTheirEscapes() {
        let finding = JSONDuplicateKeys.first(in: Data(#"{"a\u00e9": 1, "aé": 2}"#.utf8))
        #expect(finding == .init(key: "aé", line: 1, column: 16))
        let pair = JSONDuplicateKeys.first(in: Data(#"{"\ud83d\ude00": 1, "😀": 2, "x\"y": 3}"#.utf8))
        #expect(pair?.key == "😀")
    }

    @Test func theSameKeyInDifferentObjectsOrAsAValueIsFine() {
        let json = #"{"name": "name", "nodes": [{"name": "a", "b": {"name": 1}}, {"name": "b"}], "x": ["name", "name"]}"#
        #expect(JSONDuplicateKeys.first(in: Data(json.utf8)) == nil)
        // Deep nesting is walked without recursion.
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(JSONDuplicateKeys.first(in: Data(deep.utf8)) == nil)
    }

    @Test func aKeyWrittenTwiceInAGLTFIsAnError() throws {
        let json = SceneStructureBadInputTests.gltf(node: #"{"mesh": 0, "mesh": 0}"#)
        let message = try SceneTestFolder().loadError("scene/a.gltf", json)
        #expect(message.hasPrefix("scene/a.gltf: line 1, column "))
        #expect(message.hasSuffix("key \"mesh\" appears twice in one object (JSON keeps only one of them)"))
    }

    @Test func everyShippedSceneAndAssetHasDistinctKeys() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        for name in ["Scenes/ar-demo.json", "Scenes/hall.json", "Scenes/room.json", "Scenes/showcase.json",
                     "Scenes/assets/hierarchy.gltf", "Scenes/assets/textured-cube.gltf"] {
            let data = try Data(contentsOf: root.appendingPathComponent(name))
            #expect(JSONDuplicateKeys.first(in: data) == nil, "\(name)")
        }
    }

    @Test func aSingularCameraProjectionIsAnError() throws {
        let zeros = Array(repeating: "0", count: 16).joined(separator: ", ")
        let json = #"{"nodes": [{"name": "c", "camera": {"projection": [\#(zeros)]}}]}"#
        #expect(try SceneTestFolder().loadError("scene/s.json", json)
                == "scene/s.json: nodes[0].camera.projection: projection matrix is singular (it has no inverse)")
        let identity = "1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1"
        let good = #"{"nodes": [{"name": "c", "camera": {"projection": [\#(identity)]}}]}"#
        #expect(try SceneTestFolder().loadError("scene/s.json", good) == "loaded")
    }
}
