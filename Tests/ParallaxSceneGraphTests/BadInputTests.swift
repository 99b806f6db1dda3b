import Foundation
import Testing
@testable import ParallaxSceneGraph

/// Writes `files` into a fresh temporary folder and loads `main` from it, returning the error text.
private func loadError(_ main: String, _ files: [String: String], binary: [String: [UInt8]] = [:]) throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-scene-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    for (name, text) in files { try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8) }
    for (name, bytes) in binary { try Data(bytes).write(to: dir.appendingPathComponent(name)) }
    do {
        _ = try Scene.load(contentsOf: dir.appendingPathComponent(main))
    } catch let e as SceneError {
        return e.description
    }
    Issue.record("\(main) loaded without error")
    return ""
}

private func scene(nodes: String, materials: String = "{}") -> String { #"{"materials": \#(materials), "nodes": \#(nodes)}"# }

@Test func wrongTypeNamesFileAndField() throws {
    let nodes = #"[{}, {}, {}, {"geometry": {"type": "sphere", "radius": "big"}}]"#
    let message = try loadError("room.json", ["room.json": scene(nodes: nodes)])
    #expect(message.hasSuffix("room.json: nodes[3].geometry.radius: expected a number, found a string"))
}

@Test(arguments: [
    // (scene nodes JSON, expected fragment of the error)
    (#"[{"geometry": {"type": "sphere", "segments": 1000000000}}]"#, "nodes[0].geometry.segments: 1000000000 is outside 3…1024"),
    (#"[{"geometry": {"type": "sphere", "radius": -1}}]"#, "nodes[0].geometry.radius: must be > 0"),
    (#"[{"geometry": {"type": "box", "width": 1e9}}]"#, "nodes[0].geometry.width: 1e+09 m is over"),
    (#"[{"geometry": {"type": "teapot"}}]"#, "nodes[0].geometry.type: unknown geometry type \"teapot\""),
    (#"[{"geometry": {"type": "sphere", "radus": 1}}]"#, "nodes[0].geometry.radus: unknown field"),
    (#"[{"position": [1, 2]}]"#, "nodes[0].position: expected 3 numbers, found 2"),
    (#"[{"position": [1e39, 0, 0]}]"#, "nodes[0].position[0]: number"),
    (#"[{"matrix": [0,0,0,0, 0,0,0,0, 0,0,0,0, 0,0,0,1]}]"#, "nodes[0].matrix: matrix is singular"),
    (#"[{"position": [0, 0, 0], "lookAt": [0, 0, 0]}]"#, "nodes[0].lookAt: target coincides with position"),
    (#"[{"quaternion": [0, 0, 0, 0]}]"#, "nodes[0].quaternion: quaternion [w, x, y, z] must not be zero"),
    (#"[{"light": {"type": "laser"}}]"#, "nodes[0].light.type: unknown value \"laser\""),
    (#"[{"light": {"type": "spot", "spotInnerAngle": 50, "spotOuterAngle": 20}}]"#, "nodes[0].light: spotInnerAngle must not exceed spotOuterAngle"),
    (#"[{"camera": {"zNear": 10, "zFar": 1}}]"#, "nodes[0].camera: zFar must be greater than zNear"),
    (#"[{"geometry": {"type": "box", "material": "nope"}}]"#, "nodes[0].geometry.material: unknown material \"nope\""),
    (#"[{"geometry": {"type": "box", "material": {"diffuse": {"procedural": "checker", "size": 100000}}}}]"#, "nodes[0].geometry.material.diffuse.size: 100000 is outside 1…4096"),
    (##"[{"geometry": {"type": "box", "material": {"diffuse": "#12345"}}}]"##, "nodes[0].geometry.material.diffuse: expected a colour"),
    (#"[{"mesh": "chair.obj"}]"#, "nodes[0].mesh: mesh file chair.obj not found"),
    (#"[{"gltf": "duck.gltf"}]"#, "nodes[0].gltf: gltf file duck.gltf not found"),
    (#"[{"geometry": {"type": "box", "material": {"diffuse": {"texture": "missing.png"}}}}]"#, "nodes[0].geometry.material.diffuse.texture: texture file missing.png not found"),
    (#"{"name": "x"}"#, "nodes: expected an array, found an object"),
] as [(String, String)])
func badSceneFieldsAreReported(nodes: String, expected: String) throws {
    let message = try loadError("scene.json", ["scene.json": scene(nodes: nodes)])
    #expect(message.contains("scene.json: " + expected), "got: \(message)")
}

@Test func invalidJSONSyntax() throws {
    let message = try loadError("broken.json", ["broken.json": #"{"nodes": [ {"name": "a",, } ]"#])
    #expect(message.contains("broken.json: invalid JSON"))
}

@Test func missingSceneFile() {
    #expect(throws: SceneError.self) { try Scene.load(contentsOf: URL(fileURLWithPath: "/nonexistent/scene.json")) }
}

/// A huge texture is refused from its PNG header alone: 20000² passes the PNG reader's own
/// sanity limit and is stopped by ours; 100000² (40 GB decoded) is refused by the reader.
@Test(arguments: [(UInt32(20_000), "huge.png is 20000×20000; each side may be at most 16384 pixels"),
                  (UInt32(16_384), "huge.png is 16384×16384 = 268435456 pixels; at most 67108864 pixels in all"),
                  (UInt32(100_000), "100000×100000")])
func hugeTextureIsRejectedBeforeDecoding(side: UInt32, expected: String) throws {
    var ihdr: [UInt8] = [0x49, 0x48, 0x44, 0x52]
    for v in [side, side] { ihdr += [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    ihdr += [8, 6, 0, 0, 0]
    // CRC-32 (ISO 3309, reflected polynomial 0xEDB88320) over type + data, as PNG requires.
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in ihdr {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    crc ^= 0xFFFF_FFFF
    let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + ihdr
        + [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
    let nodes = #"[{"geometry": {"type": "plane", "material": {"diffuse": {"texture": "huge.png"}}}}]"#
    let message = try loadError("scene.json", ["scene.json": scene(nodes: nodes)], binary: ["huge.png": png])
    #expect(message.contains("scene.json: nodes[0].geometry.material.diffuse.texture:"))
    #expect(message.contains(expected), "got: \(message)")
}

@Test(arguments: [
    ("v 0 0 0\nv 1 0 0\nf 1 2\n", "bad.obj: line 3: a face needs at least 3 vertices"),
    ("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n", "bad.obj: line 4: index 4 out of range (3 defined)"),
    ("v 0 0 0\nv 1 0 0\nv 0 1 0\nf -4 -2 -1\n", "bad.obj: line 4: index -4 out of range (3 defined)"),
    ("v nan 0 0\n", "bad.obj: line 1: \"nan\" is not a finite number"),
    ("v 0 0\n", "bad.obj: line 1: expected 3 numbers after v"),
    ("mtllib nowhere.mtl\n", "bad.obj: line 1: material library nowhere.mtl not found"),
    ("v 0 0 0\n", "bad.obj: no faces"),
] as [(String, String)])
func badOBJ(text: String, expected: String) throws {
    let message = try loadError("bad.obj", ["bad.obj": text])
    #expect(message.contains(expected), "got: \(message)")
}

@Test(arguments: [
    (#"{"asset": {"version": "1.0"}}"#, "bad.gltf: asset.version: only glTF 2.x"),
    (#"{"nodes": []}"#, "bad.gltf: asset: required field missing"),
    (#"{"asset": {"version": "2.0"}, "accessors": [{"componentType": 5126, "count": "three", "type": "VEC3"}]}"#, "bad.gltf: accessors[0].count: expected"),
    (#"{"asset": {"version": "2.0"}, "extensionsRequired": ["KHR_draco_mesh_compression"]}"#, "bad.gltf: extensionsRequired: extension KHR_draco_mesh_compression is required"),
    (#"{"asset": {"version": "2.0"}, "nodes": [{"mesh": 0}]}"#, "bad.gltf: meshes[0]: mesh 0 does not exist"),
    (#"{"asset": {"version": "2.0"}, "nodes": [{"children": [0]}]}"#, "bad.gltf: nodes[0]: node hierarchy has a cycle"),
    (#"{"asset": {"version": "2.0"}, "nodes": [{"mesh": 0}], "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}], "accessors": [{"bufferView": 0, "componentType": 5126, "count": 100, "type": "VEC3"}], "bufferViews": [{"buffer": 0, "byteLength": 12}], "buffers": [{"byteLength": 12, "uri": "data:application/octet-stream;base64,AAAAAAAAAAAAAAAA"}]}"#, "bad.gltf: accessors[0]: reads past the end of bufferView 0"),
    (#"{"asset": {"version": "2.0"}, "nodes": [{"mesh": 0}], "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}], "accessors": [{"bufferView": 0, "componentType": 5126, "count": 1, "type": "VEC3"}], "bufferViews": [{"buffer": 0, "byteLength": 12}], "buffers": [{"byteLength": 12, "uri": "missing.bin"}]}"#, "bad.gltf: buffers[0].uri: file missing.bin not found"),
    (#"{"asset": {"version": "2.0"}, "nodes": [{"translation": [0, 0]}]}"#, "bad.gltf: nodes[0].translation: expected 3 finite numbers"),
    (#"{"asset": {"version": "2.0"}, "#, "bad.gltf: invalid JSON"),
] as [(String, String)])
func badGLTF(json: String, expected: String) throws {
    let message = try loadError("bad.gltf", ["bad.gltf": json])
    #expect(message.contains(expected), "got: \(message)")
}

@Test func truncatedGLB() throws {
    let header: [UInt8] = [0x67, 0x6C, 0x54, 0x46, 2, 0, 0, 0, 100, 0, 0, 0, 50, 0, 0, 0, 0x4A, 0x53, 0x4F, 0x4E]
    let message = try loadError("bad.glb", [:], binary: ["bad.glb": header])
    #expect(message.contains("bad.glb: GLB header length 100 exceeds the file size 20"), "got: \(message)")
    let notGLB = try loadError("bad.glb", [:], binary: ["bad.glb": Array("hello world, not a glb".utf8)])
    #expect(notGLB.contains("bad.glb: not a GLB file"), "got: \(notGLB)")
}
