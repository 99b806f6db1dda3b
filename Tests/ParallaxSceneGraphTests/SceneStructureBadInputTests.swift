import Foundation
import Testing
@testable import ParallaxSceneGraph

/// Structurally valid files with values that must not load silently (issue 13).
@Suite struct SceneStructureBadInputTests {
    /// A glTF with one triangle (positions in a base64 buffer); `patch` edits the JSON text.
    static func gltf(node: String = #"{"mesh": 0}"#, primitive: String = "", accessor: String = "", extra: String = "") -> String {
        #"{"asset": {"version": "2.0"}, "nodes": [\#(node)], "meshes": [{"primitives": [{"attributes": {"POSITION": 0}\#(primitive)}]}], "#
            + #""accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3"\#(accessor)}], "#
            + #""bufferViews": [{"buffer": 0, "byteLength": 36}], "#
            + #""buffers": [{"byteLength": 36, "uri": "data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAA"}]\#(extra)}"#
    }

    static let pngBase64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNgAAAAAgABSK+kcQAAAABJRU5ErkJggg=="

    @Test func goodGLTFLoads() throws {
        #expect(try SceneTestFolder().loadError("scene/a.gltf", Self.gltf()) == "loaded")
    }

    @Test(arguments: [
        (gltf(accessor: #", "byteOffset": -12"#), "accessors[0].byteOffset: -12 must not be negative"),
        (gltf(node: #"{"mesh": 0, "matrix": [0,0,0,0, 0,0,0,0, 0,0,0,0, 0,0,0,0]}"#), "nodes[0].matrix: matrix is singular"),
        (gltf(node: #"{"mesh": 0, "rotation": [0, 0, 0, 0]}"#), "nodes[0].rotation: quaternion must not be zero"),
        (gltf(primitive: #", "mode": 99"#), "meshes[0].primitives[0].mode: 99 is not a primitive mode (0…6)"),
        (gltf(primitive: #", "material": 0"#,
              extra: #", "materials": [{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}}], "textures": [{"source": 0, "sampler": 5}], "images": [{"uri": "data:image/png;base64,\#(pngBase64)"}]"#),
         "textures[0].sampler: sampler 5 does not exist"),
    ] as [(String, String)])
    func badGLTF(json: String, expected: String) throws {
        let message = try SceneTestFolder().loadError("scene/bad.gltf", json)
        #expect(message == "scene/bad.gltf: " + expected)
    }

    @Test func objUsemtlOfAnUndefinedMaterial() throws {
        let folder = try SceneTestFolder()
        try folder.write("newmtl red\nKd 1 0 0\n", "scene/m.mtl")
        let text = "mtllib m.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl blue\nf 1 2 3\n"
        #expect(try folder.loadError("scene/a.obj", text) == "scene/a.obj: line 5: usemtl blue names a material that no mtllib defines")
        let good = text.replacingOccurrences(of: "usemtl blue", with: "usemtl red")
        #expect(try folder.loadError("scene/b.obj", good) == "loaded")
    }

    @Test(arguments: [
        (#"{"format": "blender", "nodes": []}"#, "format: unknown format \"blender\"; expected \"parallax-scene\""),
        (#"{"nodes": null}"#, "nodes: expected an array, found null"),
        (#"{"nodes": [{"geometry": {"type": "box", "material": 42}}]}"#, "nodes[0].geometry.material: expected a material object or a material name, found a number"),
        (#"{"nodes": [{"geometry": {"type": "cone", "topRadius": 0, "bottomRadius": 0}}]}"#, "nodes[0].geometry: a cone needs topRadius or bottomRadius > 0"),
        (#"{"nodes": [{"geometry": {"type": "capsule", "capRadius": 1, "height": 1}}]}"#, "nodes[0].geometry.height: must be at least 2 × capRadius (2.0), found 1.0"),
        (#"{"nodes": [{"geometry": {"type": "box", "material": {"diffuse": {"procedural": "checker", "scale": 0}}}}]}"#, "nodes[0].geometry.material.diffuse.scale: texture scale must be non-zero"),
        (#"{"nodes": [{"geometry": {"type": "box", "material": {"diffuse": {"procedural": "checker", "scale": [1, 0]}}}}]}"#, "nodes[0].geometry.material.diffuse.scale: texture scale must be non-zero"),
    ] as [(String, String)])
    func badSceneJSON(json: String, expected: String) throws {
        let message = try SceneTestFolder().loadError("scene/s.json", json)
        #expect(message == "scene/s.json: " + expected)
    }
}
