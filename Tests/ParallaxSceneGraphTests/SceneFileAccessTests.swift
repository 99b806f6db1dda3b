import Foundation
import Testing
@testable import ParallaxSceneGraph

/// Scene, glTF and OBJ files may reference only regular files inside the scene's folder
/// unless the caller opts in (issue 13).
@Suite struct SceneFileAccessTests {
    let folder: SceneTestFolder
    var dir: URL { folder.url }

    init() throws { folder = try SceneTestFolder() }

    private func write(_ text: String, _ relative: String) throws { try folder.write(text, relative) }

    private func error(_ relative: String, access: SceneFileAccess? = nil) -> String {
        (try? folder.loadError(relative, access: access)) ?? "could not write"
    }

    private static func gltf(bufferURI: String) -> String {
        #"{"asset": {"version": "2.0"}, "nodes": [{"mesh": 0}], "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}], "#
            + #""accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3"}], "#
            + #""bufferViews": [{"buffer": 0, "byteLength": 36}], "buffers": [{"byteLength": 36, "uri": "\#(bufferURI)"}]}"#
    }

    private static let triangle = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"

    @Test func gltfBufferWithAbsolutePathIsRefused() throws {
        try write(Self.gltf(bufferURI: "/etc/passwd"), "scene/a.gltf")
        #expect(error("scene/a.gltf") == "scene/a.gltf: buffers[0].uri: absolute path '/etc/passwd' is not allowed; "
                + "scene files may reference only files inside their folder")
    }

    @Test func dotDotAndSymlinkEscapesAreRefused() throws {
        try Data(count: 36).write(to: dir.appendingPathComponent("outside.bin"))
        try write(Self.gltf(bufferURI: "../outside.bin"), "scene/a.gltf")
        #expect(error("scene/a.gltf").contains("buffers[0].uri: '../outside.bin' leads outside the scene folder"))
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("scene/link.bin").path,
                                                   withDestinationPath: dir.appendingPathComponent("outside.bin").path)
        try write(Self.gltf(bufferURI: "link.bin"), "scene/b.gltf")
        #expect(error("scene/b.gltf").contains("buffers[0].uri: 'link.bin' leads outside the scene folder"))
        try write(Self.gltf(bufferURI: "sub/../../outside.bin"), "scene/c.gltf")
        #expect(error("scene/c.gltf").contains("leads outside the scene folder"))
    }

    @Test func deviceFilesAreRefusedEvenWhenAllowedAnywhere() throws {
        try write(Self.gltf(bufferURI: "/dev/zero"), "scene/a.gltf")
        #expect(error("scene/a.gltf", access: .anywhere)
                == "scene/a.gltf: buffers[0].uri: cannot read file /dev/zero (/dev/zero): not a regular file")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("scene/folder.bin"), withIntermediateDirectories: true)
        try write(Self.gltf(bufferURI: "folder.bin"), "scene/b.gltf")
        #expect(error("scene/b.gltf").contains("buffers[0].uri: cannot read file folder.bin") )
        #expect(error("scene/b.gltf").hasSuffix("is a directory"))
    }

    @Test func objAndMTLReferencesStayInside() throws {
        try write("mtllib ../m.mtl\n" + Self.triangle, "scene/a.obj")
        #expect(error("scene/a.obj").contains("scene/a.obj: line 1: '../m.mtl' leads outside the scene folder"))
        try write("newmtl red\nmap_Kd /etc/passwd\n", "scene/m.mtl")
        try write("mtllib m.mtl\n" + Self.triangle, "scene/b.obj")
        #expect(error("scene/b.obj").contains("scene/m.mtl: line 2: absolute path '/etc/passwd' is not allowed"))
    }

    @Test func sceneJSONReferencesStayInside() throws {
        try write(#"{"nodes": [{"mesh": "/etc/passwd.obj"}]}"#, "scene/a.json")
        #expect(error("scene/a.json").contains("nodes[0].mesh: absolute path '/etc/passwd.obj' is not allowed"))
        try write(#"{"nodes": [{"geometry": {"type": "box", "material": {"diffuse": {"texture": "../t.png"}}}}]}"#, "scene/b.json")
        #expect(error("scene/b.json").contains("nodes[0].geometry.material.diffuse.texture: '../t.png' leads outside the scene folder"))
    }

    @Test func nestedFilesMayUseTheWholeSceneFolder() throws {
        // The scene's folder bounds every nested file, so sub/x.obj may use ../m.mtl.
        try write("newmtl red\nKd 1 0 0\n", "scene/m.mtl")
        try write("mtllib ../m.mtl\nusemtl red\n" + Self.triangle, "scene/sub/x.obj")
        try write(#"{"nodes": [{"mesh": "sub/x.obj"}]}"#, "scene/a.json")
        #expect(error("scene/a.json") == "loaded")
    }

    @Test func optInAllowsFilesOutsideTheFolder() throws {
        try write(Self.triangle, "outside.obj")
        let path = dir.appendingPathComponent("outside.obj").path
        try write(#"{"nodes": [{"mesh": "\#(path)"}]}"#, "scene/a.json")
        #expect(error("scene/a.json").contains("is not allowed"))
        #expect(error("scene/a.json", access: .anywhere) == "loaded")
    }
}
