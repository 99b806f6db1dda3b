import Foundation
import ParallaxMath
import Testing
@testable import ParallaxSceneGraph

private func close(_ a: Vector3f, _ b: Vector3f, _ tol: Float = 1e-4) -> Bool { (a - b).norm < tol }

@Test func transformRoundTripsThroughTRS() {
    let n = Node()
    n.position = Vector3f(1, 2, 3)
    n.orientation = Quaternionf(axis: Vector3f(1, 1, 0), angle: 0.7)
    n.scale = Vector3f(2, 0.5, 3)
    let m = n.transform
    let other = Node()
    other.transform = m
    #expect(close(other.position, n.position))
    #expect(close(other.scale, n.scale))
    #expect(close(other.orientation.act(Vector3f(0, 0, 1)), n.orientation.act(Vector3f(0, 0, 1))))
    for (a, b) in zip(other.transform.columnMajor, m.columnMajor) { #expect(abs(a - b) < 1e-5) }
}

@Test func worldTransformComposesParents() {
    let root = Node(name: "root"), a = Node(name: "a"), b = Node(name: "b")
    root.addChildNode(a); a.addChildNode(b)
    a.position = Vector3f(1, 0, 0)
    a.orientation = Quaternionf(axis: Vector3f(0, 1, 0), angle: .pi / 2)   // +x → -z
    b.position = Vector3f(2, 0, 0)
    #expect(close(b.worldPosition, Vector3f(1, 0, -2)))
    #expect(close(b.convertPosition(.zero, to: nil), Vector3f(1, 0, -2)))
    #expect(close(b.convertPosition(Vector3f(1, 0, -2), from: nil), .zero))
    #expect(close(a.convertPosition(Vector3f(0, 0, 0), from: b), Vector3f(2, 0, 0)))
    #expect(close(b.convertPosition(Vector3f(0, 0, 0), to: a), Vector3f(2, 0, 0)))
    #expect(close(a.convertVector(Vector3f(1, 0, 0), to: nil), Vector3f(0, 0, -1)))
    #expect(close(a.worldFront, Vector3f(-1, 0, 0)))
}

@Test func visibleNodesSkipHiddenSubtreesAndClampOpacity() {
    let scene = Scene()
    let a = Node(name: "a"), b = Node(name: "b"), hidden = Node(name: "hidden"), under = Node(name: "under")
    scene.rootNode.addChildNode(a); a.addChildNode(b)
    scene.rootNode.addChildNode(hidden); hidden.addChildNode(under)
    hidden.isHidden = true
    a.position = Vector3f(1, 0, 0)
    b.position = Vector3f(0, 2, 0)
    a.opacity = 2      // out of range: counts as 1, so it cannot cancel b's 0.5
    b.opacity = 0.5
    let visible = scene.visibleNodes
    #expect(visible.map { $0.node.name } == ["root", "a", "b"])
    #expect(visible[1].opacity == 1 && visible[2].opacity == 0.5)
    #expect(close(visible[2].worldTransform.transformPoint(.zero), Vector3f(1, 2, 0)))
    a.opacity = -1
    #expect(scene.visibleNodes[2].opacity == 0)
}

@Test func hierarchyEditing() {
    let root = Node(name: "root"), a = Node(name: "a"), b = Node(name: "b"), c = Node(name: "deep")
    root.addChildNode(a); root.addChildNode(b); b.addChildNode(c)
    #expect(root.childNode(withName: "deep", recursively: false) == nil)
    #expect(root.childNode(withName: "deep") === c)
    #expect(c.parent === b)
    a.addChildNode(c)           // reparenting removes it from b
    #expect(b.childNodes.isEmpty && c.parent === a)
    c.addChildNode(root)        // would create a cycle: ignored
    #expect(root.parent == nil)
    c.removeFromParentNode()
    #expect(c.parent == nil && a.childNodes.isEmpty)
    #expect(root.subtree.count == 3)
}

@Test func lookAtPointsMinusZAtTarget() {
    let n = Node()
    n.position = Vector3f(0, 2, 5)
    n.look(at: Vector3f(0, 0, 0))
    #expect(close(n.worldFront, Vector3f(0, -2, -5).normalized))
    // The view matrix takes the target onto the camera's -z axis.
    let p = n.viewMatrix.transformPoint(.zero)
    #expect(abs(p.x) < 1e-4 && abs(p.y) < 1e-4 && p.z < 0)
}

@Test func cameraProjections() {
    var cam = Camera(fieldOfView: 90, zNear: 1, zFar: 10)
    let p = cam.projectionMatrix(aspect: 2)
    // A point on the near plane at the top edge maps to NDC y = 1, z = -1.
    let top = p * Vector4f(0, 1, -1, 1)
    #expect(abs(top.y / top.w - 1) < 1e-5 && abs(top.z / top.w + 1) < 1e-5)
    cam.usesOrthographicProjection = true
    cam.orthographicScale = 2
    let o = cam.projectionMatrix(aspect: 1) * Vector4f(2, -2, -10, 1)
    #expect(abs(o.x - 1) < 1e-5 && abs(o.y + 1) < 1e-5 && abs(o.z - 1) < 1e-5)
    cam.projectionTransform = .identity
    #expect(cam.projectionMatrix(aspect: 3) == .identity)
}

@Test func colourTemperature() {
    let white = Light.linearRGB(kelvin: 6500)
    #expect(close(white, Vector3f(1, 1, 1), 1e-5))
    let warm = Light.linearRGB(kelvin: 2700), cold = Light.linearRGB(kelvin: 10000)
    #expect(warm.x > warm.y && warm.y > warm.z)     // tungsten is orange
    #expect(cold.z > cold.x)                         // sky is blue
    var l = Light(type: .omni, intensity: 2000)
    l.temperature = 6500
    #expect(close(l.scaledColor, Vector3f(2, 2, 2), 1e-4))
}

@Test func occluderWritesNoColour() {
    let m = Material.occluder()
    #expect(m.colorBufferWriteMask.isEmpty && m.writesToDepthBuffer)
    var t = Material(); t.transparency = 0.5
    #expect(t.isTranslucent && !Material().isTranslucent)
}
