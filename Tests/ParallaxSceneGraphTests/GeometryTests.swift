import Foundation
import ParallaxMath
import Testing
@testable import ParallaxSceneGraph

/// Checks shared by every closed primitive: unit normals, normals pointing away from `inside(p)`,
/// faces wound counter-clockwise from outside (face normal agrees with vertex normals), and the
/// enclosed signed volume close to the analytic one (which also proves the mesh closes).
private func checkClosed(_ g: Geometry, volume: Float, tolerance: Float, inside: (Vector3f) -> Vector3f) {
    let m = g.mesh
    #expect(m.positions.count == m.normals.count && m.positions.count == m.texcoords.count)
    for n in m.normals { #expect(abs(n.norm - 1) < 1e-4) }
    for (p, n) in zip(m.positions, m.normals) {
        let out = p - inside(p)
        if out.norm > 1e-4 { #expect(n.dot(out) > -1e-4, "normal \(n) at \(p) points inwards") }
    }
    for (a, b, c) in m.triangles {
        let pa = m.positions[Int(a)], pb = m.positions[Int(b)], pc = m.positions[Int(c)]
        let face = (pb - pa).cross(pc - pa)
        #expect(face.dot(m.normals[Int(a)] + m.normals[Int(b)] + m.normals[Int(c)]) > 0)
    }
    #expect(abs(m.signedVolume - volume) <= tolerance * volume, "volume \(m.signedVolume) vs \(volume)")
}

@Test func boxIsClosedWithTwelveTriangles() {
    let g = Geometry.box(width: 2, height: 1, length: 3)
    #expect(g.mesh.triangleCount == 12)
    checkClosed(g, volume: 6, tolerance: 1e-5) { _ in .zero }
    #expect(g.boundingBox == BoundingBox(min: Vector3f(-1, -0.5, -1.5), max: Vector3f(1, 0.5, 1.5)))
}

@Test func chamferedBoxHasRoundedEdges() {
    let r: Float = 0.2
    let g = Geometry.box(width: 1, height: 1, length: 1, chamferRadius: r, chamferSegments: 8)
    // Exact volume of a rounded box: inner box + 6 slabs + 12 quarter cylinders + 8 sphere octants.
    let a: Float = 1 - 2 * r
    let exact = a * a * a + 6 * a * a * r + 3 * a * Float.pi * r * r + 4 / 3 * Float.pi * r * r * r
    checkClosed(g, volume: exact, tolerance: 0.01) { p in p.clamped(lowerBound: Vector3f(repeating: -a / 2), upperBound: Vector3f(repeating: a / 2)) }
    #expect(g.mesh.triangleCount > 12)
    // No vertex lies farther than the box half size along any axis.
    #expect(g.mesh.positions.allSatisfy { max(abs($0.x), abs($0.y), abs($0.z)) <= 0.5 + 1e-5 })
}

@Test func sphereNormalsPointOutwards() {
    let g = Geometry.sphere(radius: 2, segments: 64)
    checkClosed(g, volume: 4 / 3 * .pi * 8, tolerance: 0.01) { _ in .zero }
    #expect(g.mesh.positions.allSatisfy { abs($0.norm - 2) < 1e-4 })
}

@Test func cylinderConeCapsuleTorusAreClosed() {
    checkClosed(.cylinder(radius: 0.5, height: 2, radialSegments: 96), volume: .pi * 0.25 * 2, tolerance: 0.01) { p in Vector3f(0, p.y, 0) }
    checkClosed(.cone(topRadius: 0, bottomRadius: 1, height: 3, radialSegments: 96), volume: .pi * 3 / 3, tolerance: 0.01) { _ in Vector3f(0, -0.5, 0) }
    checkClosed(.cone(topRadius: 0.5, bottomRadius: 1, height: 1, radialSegments: 96), volume: .pi / 3 * (1 + 0.5 + 0.25), tolerance: 0.01) { _ in .zero }
    let r: Float = 0.3, h: Float = 2
    checkClosed(.capsule(capRadius: r, height: h, radialSegments: 96, capSegments: 24),
                volume: .pi * r * r * (h - 2 * r) + 4 / 3 * .pi * r * r * r, tolerance: 0.01) { p in
        Vector3f(0, min(max(p.y, -(h / 2 - r)), h / 2 - r), 0)
    }
    let R: Float = 1, pr: Float = 0.25
    checkClosed(.torus(ringRadius: R, pipeRadius: pr, ringSegments: 96, pipeSegments: 48), volume: 2 * .pi * .pi * R * pr * pr, tolerance: 0.01) { p in
        Vector3f(p.x, 0, p.z).normalized * R
    }
}

@Test func pyramidAndPlane() {
    let p = Geometry.pyramid(width: 2, height: 3, length: 1)
    #expect(p.mesh.triangleCount == 6)
    checkClosed(p, volume: 2 * 1 * 3 / 3, tolerance: 1e-5) { _ in Vector3f(0, 0.5, 0) }
    let plane = Geometry.plane(width: 2, height: 1, widthSegments: 4, heightSegments: 2)
    #expect(plane.mesh.triangleCount == 16)
    #expect(plane.mesh.normals.allSatisfy { $0 == Vector3f(0, 0, 1) })
    let m = plane.mesh
    for (a, b, c) in m.triangles {
        #expect((m.positions[Int(b)] - m.positions[Int(a)]).cross(m.positions[Int(c)] - m.positions[Int(a)]).z > 0)
    }
    #expect(plane.boundingBox == BoundingBox(min: Vector3f(-1, -0.5, 0), max: Vector3f(1, 0.5, 0)))
}

@Test func floorIsInfiniteAndFacesUp() {
    let f = Geometry.floor()
    #expect(f.isInfinite)
    #expect(f.mesh.triangleCount == 2)
    #expect(f.mesh.positions.allSatisfy { $0.y == 0 })
    let m = f.mesh
    for (a, b, c) in m.triangles { #expect((m.positions[Int(b)] - m.positions[Int(a)]).cross(m.positions[Int(c)] - m.positions[Int(a)]).y > 0) }
}

@Test func segmentCountsAreClamped() {
    let g = Geometry.sphere(radius: 1, segments: 1_000_000_000)
    #expect(g.mesh.positions.count <= (GeometryLimits.maxSegments + 1) * (GeometryLimits.maxSegments / 2 + 1))
}

@Test func customGeometryWithTwoElements() throws {
    let pos = [Vector3f(0, 0, 0), Vector3f(1, 0, 0), Vector3f(0, 1, 0), Vector3f(1, 1, 0)]
    var red = Material(name: "red"); red.diffuse = .color(1, 0, 0)
    let g = try Geometry(positions: pos, elements: [MeshElement(indices: [0, 1, 2], materialIndex: 0), MeshElement(indices: [1, 3, 2], materialIndex: 1)],
                         materials: [red, Material(name: "grey")])
    #expect(g.mesh.triangleCount == 2)
    #expect(g.material(forElement: 1).name == "grey")
    #expect(g.mesh.normals.allSatisfy { abs($0.z - 1) < 1e-6 })
    #expect(throws: MeshError.self) { try Mesh(positions: pos, elements: [MeshElement(indices: [0, 1, 7])]) }
    #expect(throws: MeshError.self) { try Mesh(positions: pos, normals: [.zero], elements: []) }
    #expect(throws: MeshError.self) { try Mesh(positions: [Vector3f(.nan, 0, 0)], elements: []) }
}

@Test func tangentsAreOrthogonalToNormals() throws {
    var m = Geometry.sphere(radius: 1, segments: 16).mesh
    m.generateTangents()
    let t = try #require(m.tangents)
    for (n, tw) in zip(m.normals, t) {
        let tv = Vector3f(tw.x, tw.y, tw.z)
        #expect(abs(tv.norm - 1) < 1e-3 && abs(tv.dot(n)) < 1e-3 && abs(tw.w) == 1)
    }
}
