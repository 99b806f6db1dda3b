import Foundation
import ParallaxMath
import Testing
@testable import ParallaxSceneGraph

/// `<repo>/Scenes`, located from this file (three levels up is the repository root).
let scenesDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Scenes")

@Test func showcaseHasEveryKindModelAndLight() throws {
    let scene = try Scene.load(contentsOf: scenesDirectory.appendingPathComponent("showcase.json"))
    let geometries = scene.allNodes.compactMap(\.geometry)
    let kinds = Set(geometries.map { String(describing: $0.kind).prefix { $0 != "(" } })
    #expect(kinds == ["box", "sphere", "plane", "cylinder", "cone", "torus", "capsule", "pyramid", "floor", "custom"])
    let models = Set(geometries.flatMap(\.materials).map(\.lightingModel))
    #expect(models == Set(Material.LightingModel.allCases))
    let lights = scene.lightNodes.compactMap(\.light)
    #expect(Set(lights.map(\.type)) == Set(Light.LightType.allCases))
    // Sun, lamp and spot from the JSON, plus the spot light inside assets/hierarchy.glb.
    #expect(lights.filter(\.castsShadow).count == 4)
    #expect(scene.pointOfView?.camera?.fieldOfView == 50)
    #expect(scene.fog?.endDistance == 60)
    // The camera at (0, 2.5, 6.1) looks at (0, 0.55, 0).
    let cam = try #require(scene.pointOfView)
    #expect((cam.worldFront - (Vector3f(0, 0.55, 0) - Vector3f(0, 2.5, 6.1)).normalized).norm < 1e-4)
    // Referenced mesh files are attached below their node.
    #expect(scene.rootNode.childNode(withName: "table")?.childNodes.first?.geometry?.mesh.elements.count == 2)
    #expect(scene.rootNode.childNode(withName: "arm") != nil)
    #expect(scene.rootNode.childNode(withName: "occluder")?.geometry?.firstMaterial?.colorBufferWriteMask.isEmpty == true)
}

@Test func roomEnclosesTheCameraAndIsTextured() throws {
    let scene = try Scene.load(contentsOf: scenesDirectory.appendingPathComponent("room.json"))
    let cam = try #require(scene.pointOfView)
    let eye = cam.worldPosition
    // Rays from the camera in every horizontal direction and up/down hit the room's shell
    // within its 6 × 5 × 3 m extent (no gaps): the camera is inside a closed room.
    for k in 0..<16 {
        let a = Float(k) / 16 * 2 * .pi
        for dir in [Vector3f(cos(a), 0, sin(a)), Vector3f(cos(a), 0.6, sin(a)), Vector3f(cos(a), -0.6, sin(a))] {
            let hit = try #require(scene.hitTest(rayOrigin: eye, direction: dir).first)
            let p = hit.worldCoordinates
            #expect(abs(p.x) <= 3.001 && abs(p.z) <= 2.501 && p.y >= -0.001 && p.y <= 3.001)
        }
    }
    let box = try #require(scene.worldBoundingBox)
    #expect((box.size - Vector3f(6, 3, 5)).norm < 0.01)
    let textured = scene.allNodes.compactMap { $0.geometry?.firstMaterial?.diffuse.texture }
    #expect(textured.count >= 10)
    #expect(scene.allNodes.count > 100)
    #expect(scene.lightNodes.filter { $0.light?.castsShadow == true }.count == 2)
}

@Test func arDemoObjectsStandOnTheirPlane() throws {
    let scene = try Scene.load(contentsOf: scenesDirectory.appendingPathComponent("ar-demo.json"))
    for name in ["vase", "robot", "toy-blocks"] {
        let object = try #require(scene.rootNode.childNode(withName: name, recursively: false))
        var lowest = Float.infinity
        for n in object.subtree {
            guard let g = n.geometry else { continue }
            let b = g.boundingBox.transformed(by: n.worldTransform)
            lowest = min(lowest, b.min.y)
        }
        #expect(abs(lowest) < 0.002, "\(name) bottom at \(lowest)")
    }
    if case .color(let c) = scene.background { #expect(c.w == 0) } else { Issue.record("expected a colour background") }
}

@Test func proceduralTexturesAreDeterministic() {
    for pattern in ProceduralTexture.Pattern.allCases {
        let a = ProceduralTexture(pattern: pattern, size: 64, cells: 4, seed: 9).makeImage()
        let b = ProceduralTexture(pattern: pattern, size: 64, cells: 4, seed: 9).makeImage()
        #expect(a.pixels == b.pixels)
        // Not flat: the pattern has contrast.
        let lum = a.pixels.map { Int($0.r) + Int($0.g) + Int($0.b) }
        #expect(lum.max()! - lum.min()! > 60, "\(pattern) has no contrast")
    }
    let c = ProceduralTexture(pattern: .checker, size: 4, cells: 2, color1: Vector3f(1, 1, 1), color2: Vector3f(0, 0, 0)).makeImage()
    #expect(c[0, 0].r == 255 && c[2, 0].r == 0 && c[2, 2].r == 255)
    #expect(ProceduralTexture(pattern: .noise, size: 100_000).clampedSize == ProceduralTexture.maxSize)
}

@Test func transformFormsAndNamedMaterials() throws {
    let json = ##"""
    {"materials": {"red": {"lightingModel": "lambert", "diffuse": "#ff0000"}},
     "nodes": [
       {"name": "m", "matrix": [1, 0, 0, 5,  0, 0, -1, 0,  0, 1, 0, 0,  0, 0, 0, 1]},
       {"name": "q", "quaternion": [0.7071068, 0, 0.7071068, 0]},
       {"name": "e", "eulerDegrees": [0, 90, 0], "scale": 2},
       {"name": "r", "rotation": {"axis": [0, 1, 0], "degrees": 90}, "position": [1, 2, 3],
        "geometry": {"type": "box", "material": "red"}, "opacity": 0.5, "renderingOrder": -2,
        "children": [{"name": "child", "position": [0, 0, -1], "geometry": {"type": "sphere", "material": {"diffuse": [0, 1, 0, 0.5]}}}]}
     ]}
    """##
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("forms-\(UUID().uuidString).json")
    try json.write(to: url, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: url) }
    let scene = try Scene.load(contentsOf: url)
    let m = try #require(scene.rootNode.childNode(withName: "m"))
    #expect(m.position == Vector3f(5, 0, 0))
    #expect((m.convertVector(Vector3f(0, 1, 0), to: nil) - Vector3f(0, 0, 1)).norm < 1e-5)   // row-major: column 1 is (0, 0, 1)
    for name in ["q", "e", "r"] {
        let n = try #require(scene.rootNode.childNode(withName: name))
        #expect((n.orientation.act(Vector3f(0, 0, -1)) - Vector3f(-1, 0, 0)).norm < 1e-5, "\(name)")
    }
    #expect(scene.rootNode.childNode(withName: "e")?.scale == Vector3f(2, 2, 2))
    let r = try #require(scene.rootNode.childNode(withName: "r"))
    let red = try #require(r.geometry?.firstMaterial)
    #expect(red.name == "red" && red.lightingModel == .lambert)
    if case .color(let c) = red.diffuse.contents { #expect(c == Vector4f(1, 0, 0, 1)) }
    // Visible nodes in tree order; opacities multiply down the tree.
    let items = scene.visibleNodes.filter { $0.node.geometry != nil }
    #expect(items.map { $0.node.name } == ["r", "child"])
    #expect(items[1].opacity == 0.5)
    #expect((items[1].worldTransform.transformPoint(.zero) - Vector3f(0, 2, 3)).norm < 1e-5)
    #expect(try #require(items[1].node.geometry?.firstMaterial).isTranslucent)
}

/// The stricter checks of issue 13 (formats, capsules, cones, texture scales, file access) must
/// still accept every scene the repository ships.
@Test func everyShippedSceneLoads() throws {
    let files = try FileManager.default.contentsOfDirectory(at: scenesDirectory, includingPropertiesForKeys: nil)
        .filter { $0.pathExtension == "json" }
    #expect(files.count >= 4)
    for file in files { _ = try Scene.load(contentsOf: file) }
}
