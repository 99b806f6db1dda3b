import Foundation
import ParallaxMath
import Testing
@testable import ParallaxSceneGraph

private let assets = scenesDirectory.appendingPathComponent("assets")

/// Checks the two-node hierarchy written by scripts/make-scene-assets.py (glTF or GLB).
private func checkHierarchy(_ root: Node) throws {
    let base = try #require(root.childNode(withName: "base"))
    let arm = try #require(base.childNode(withName: "arm", recursively: false))
    // Quad with a sparse override moving vertex 2 from (1, 0, 1) to (2, 0, 2).
    let quad = try #require(base.geometry?.mesh)
    #expect(quad.positions[2] == Vector3f(2, 0, 2))
    #expect(quad.elements.first?.indices == [0, 2, 1, 0, 3, 2])
    // Computed normals face +y (the quad is wound CCW seen from above).
    #expect(quad.normals.allSatisfy { ($0 - Vector3f(0, 1, 0)).norm < 1e-5 })
    // Non-indexed triangle with normalised UNSIGNED_BYTE texture coordinates.
    let tri = try #require(arm.geometry?.mesh)
    #expect(tri.elements.first?.indices == [0, 1, 2])
    #expect(tri.texcoords == [Vector2f(0, 0), Vector2f(1, 0), Vector2f(0, 1)])
    // arm: translate (3,0,0), rotate 90° about y, scale 2, below base at (0,1,0):
    // its vertex (1,0,0) → scale (2,0,0) → rotate (0,0,-2) → (3,0,-2) → world (3,1,-2).
    #expect((arm.convertPosition(Vector3f(1, 0, 0), to: nil) - Vector3f(3, 1, -2)).norm < 1e-5)
    let lamp = try #require(root.childNode(withName: "lamp")?.light)
    #expect(lamp.type == .spot && lamp.intensity == 2000 && lamp.attenuationEndDistance == 20)
    #expect(abs(lamp.spotOuterAngle - 0.5 * 2 * 180 / .pi) < 1e-3)
    // The lamp node is turned -90° about x: its -z axis points down.
    #expect((try #require(root.childNode(withName: "lamp")).worldFront - Vector3f(0, -1, 0)).norm < 1e-5)
    let eye = try #require(root.childNode(withName: "eye"))
    #expect(eye.position == Vector3f(0, 1.5, 5))
    #expect(abs(try #require(eye.camera).fieldOfView - 0.8 * 180 / .pi) < 1e-3)
}

@Test func gltfWithExternalBuffer() throws {
    try checkHierarchy(try GLTFLoader.load(contentsOf: assets.appendingPathComponent("hierarchy.gltf")))
}

@Test func glbWithBinaryChunk() throws {
    try checkHierarchy(try GLTFLoader.load(contentsOf: assets.appendingPathComponent("hierarchy.glb")))
}

@Test func gltfEmbeddedCubeGeometry() throws {
    // The embedded PNG texture needs ParallaxImaging's decoder; the geometry is checked here.
    let url = assets.appendingPathComponent("textured-cube.gltf")
    let cube = try GLTFLoader.load(contentsOf: url)
    let node = try #require(cube.childNode(withName: "cube"))
    let mesh = try #require(node.geometry?.mesh)
    #expect(mesh.triangleCount == 12 && mesh.positions.count == 24)
    #expect(abs(mesh.signedVolume - 1) < 1e-5)          // closed, wound CCW from outside
    let material = try #require(node.geometry?.firstMaterial)
    #expect(material.lightingModel == .physicallyBased)
    #expect(material.roughness.scalarValue == 0.6 && material.metalness.scalarValue == 0)
    let texture = try #require(material.diffuse.texture)
    #expect(texture.image.width == 8 && texture.image.height == 8)
    #expect(texture.filter == .nearest && texture.wrapS == .clamp)
    #expect(texture.image[0, 0] == .init(r: 230, g: 60, b: 40, a: 255))
}

@Test func objWithMaterialsNegativeIndicesAndPolygons() throws {
    let node = try OBJLoader.load(contentsOf: assets.appendingPathComponent("table.obj"))
    let g = try #require(node.geometry)
    #expect(g.mesh.elements.count == 2)
    #expect(g.materials.map(\.name) == ["wood", "metal"])
    // 2 boxes × 12 triangles + a pentagon fan of 3.
    #expect(g.mesh.triangleCount == 27)
    #expect(g.mesh.elements[0].triangleCount == 15 && g.mesh.elements[1].triangleCount == 12)
    if case .color(let kd) = g.materials[0].diffuse.contents { #expect(kd == Vector4f(0.55, 0.35, 0.2, 1)) } else { Issue.record("Kd") }
    #expect(g.materials[1].shininess.scalarValue == 200)
    // The boxes are closed and wound CCW from outside: top 1 × 0.05 × 0.6, leg 0.08 × 0.7 × 0.08.
    // The open pentagon (circumradius 0.1 at z = 0.3, facing +z) adds area · z / 3 to the
    // divergence-theorem sum, positive only if it too is wound CCW seen from +z.
    let pentagon: Float = 2.5 * 0.01 * sin(72 * .pi / 180) * 0.3 / 3
    #expect(abs(g.mesh.signedVolume - (1 * 0.05 * 0.6 + 0.08 * 0.7 * 0.08 + pentagon)) < 1e-5)
    #expect(g.boundingBox.max.y == 0.75)
    // Texture coordinates are flipped to our top-left origin.
    #expect(g.mesh.texcoords.contains(Vector2f(0, 1)) && g.mesh.texcoords.contains(Vector2f(1, 0)))
}

@Test func objTexturedQuad() throws {
    let g = try #require(try OBJLoader.load(contentsOf: assets.appendingPathComponent("poster.obj")).geometry)
    #expect(g.mesh.triangleCount == 2)
    #expect(g.firstMaterial?.diffuse.texture?.image.width == 8)
}
