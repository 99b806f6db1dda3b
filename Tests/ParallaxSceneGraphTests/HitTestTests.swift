import Foundation
import ParallaxMath
import Testing
@testable import ParallaxSceneGraph

@Test func rayHitsSphereAtAnalyticPoint() throws {
    let scene = Scene()
    let ball = Node(geometry: .sphere(radius: 1, segments: 96), name: "ball")
    ball.position = Vector3f(0, 0, -5)
    scene.rootNode.addChildNode(ball)
    let hits = scene.hitTest(rayOrigin: .zero, direction: Vector3f(0, 0, -1))
    #expect(hits.count == 2)                         // front and back of the sphere
    let first = try #require(hits.first)
    #expect(first.node === ball)
    #expect(abs(first.distance - 4) < 1e-3)
    #expect((first.worldCoordinates - Vector3f(0, 0, -4)).norm < 1e-3)
    #expect((first.worldNormal - Vector3f(0, 0, 1)).norm < 0.01)
    #expect(hits[1].distance > first.distance)
}

@Test func hitTestRespectsScaleRotationAndHiding() throws {
    let scene = Scene()
    let parent = Node(); parent.scale = Vector3f(2, 2, 2); parent.position = Vector3f(10, 0, 0)
    let box = Node(geometry: .box(width: 1, height: 1, length: 1))
    box.orientation = Quaternionf(axis: Vector3f(0, 1, 0), angle: .pi / 4)
    parent.addChildNode(box); scene.rootNode.addChildNode(parent)
    // The box, scaled ×2 and turned 45°, shows an edge at x = 10 − √2 towards -x.
    let hit = try #require(scene.hitTest(rayOrigin: Vector3f(0, 0.1, 0), direction: Vector3f(1, 0, 0)).first)
    let edge = 10 - Float(2).squareRoot()
    #expect(abs(hit.worldCoordinates.x - edge) < 1e-3)
    #expect(abs(hit.distance - edge) < 1e-3)
    #expect(abs(hit.worldNormal.norm - 1) < 1e-4 && hit.worldNormal.x < 0)
    parent.isHidden = true
    #expect(scene.hitTest(rayOrigin: Vector3f(0, 0.1, 0), direction: Vector3f(1, 0, 0)).isEmpty)
}

@Test func infiniteFloorIsHitAnalytically() throws {
    let scene = Scene()
    let floor = Node(geometry: .floor(extent: 10))
    floor.position = Vector3f(0, -1, 0)
    scene.rootNode.addChildNode(floor)
    // Far beyond the 10 m stand-in mesh.
    let hit = try #require(scene.hitTest(rayOrigin: Vector3f(0, 0, 0), direction: Vector3f(1000, -1, 0)).first)
    #expect(abs(hit.worldCoordinates.x - 1000) < 0.1 && abs(hit.worldCoordinates.y + 1) < 1e-4)
    #expect((hit.worldNormal - Vector3f(0, 1, 0)).norm < 1e-5)
    #expect(scene.hitTest(rayOrigin: .zero, direction: Vector3f(0, 1, 0)).isEmpty)
}

@Test func mollerTrumboreMissesAndHits() {
    let a = Vector3f(0, 0, 0), b = Vector3f(1, 0, 0), c = Vector3f(0, 1, 0)
    #expect(rayTriangleIntersection(origin: Vector3f(0.2, 0.2, 1), direction: Vector3f(0, 0, -1), a, b, c) == 1)
    #expect(rayTriangleIntersection(origin: Vector3f(0.8, 0.8, 1), direction: Vector3f(0, 0, -1), a, b, c) == nil)
    #expect(rayTriangleIntersection(origin: Vector3f(0.2, 0.2, 1), direction: Vector3f(0, 0, 1), a, b, c) == nil)
    #expect(rayTriangleIntersection(origin: Vector3f(0.2, 0.2, 1), direction: Vector3f(1, 0, 0), a, b, c) == nil)
}

@Test func resultsAreSortedByDistance() {
    let scene = Scene()
    for z in [-9, -3, -6] as [Float] {
        let n = Node(geometry: .plane(width: 1, height: 1), name: "z\(Int(z))")
        n.position = Vector3f(0, 0, z)
        scene.rootNode.addChildNode(n)
    }
    let hits = scene.hitTest(rayOrigin: .zero, direction: Vector3f(0, 0, -2))
    #expect(hits.map { $0.node.name ?? "" } == ["z-3", "z-6", "z-9"])
    #expect(hits.map(\.distance) == [3, 6, 9])
}
