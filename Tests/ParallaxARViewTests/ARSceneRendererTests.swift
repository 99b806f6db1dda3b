import Foundation
import ParallaxImaging
import ParallaxMath
import ParallaxRendering
import ParallaxSceneGraph
import Testing
@testable import ParallaxARView

/// Records delegate calls and supplies a small constant-red cube for every anchor.
final class CubeDelegate: ARSceneRendererDelegate {
    var added = 0, updated = 0, removed = 0
    let size: Float
    let material: Material
    init(size: Float = 0.06, material: Material = Material(lightingModel: .constant, diffuse: .color(1, 0, 0))) {
        self.size = size; self.material = material
    }
    func renderer(_ renderer: ARSceneRenderer, nodeFor anchor: ARRenderAnchor) -> Node? {
        let node = Node(name: "anchor content")
        node.addChildNode(Node(geometry: .box(width: size, height: size, length: size, material: material), name: "cube"))
        return node
    }
    func renderer(_ renderer: ARSceneRenderer, didAdd node: Node, for anchor: ARRenderAnchor) { added += 1 }
    func renderer(_ renderer: ARSceneRenderer, didUpdate node: Node, for anchor: ARRenderAnchor) { updated += 1 }
    func renderer(_ renderer: ARSceneRenderer, didRemove node: Node, for anchor: ARRenderAnchor) { removed += 1 }
}

@Suite struct ARSceneRendererTests {
    static let geometry = ARTestScenes.geometry(eye: Vector3(0, 1.2, 1.6), target: Vector3(0, 0, 0))

    static func anchor(_ id: Int, at p: Vector3, polygon: [Vector3]? = nil) -> ARRenderAnchor {
        ARRenderAnchor(identifier: UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", id))!,
                       transform: Matrix4(rotation: .identity, translation: p), planePolygon: polygon)
    }

    @Test func projectionMatrixAgreesWithIntrinsics() {
        let g = Self.geometry
        let P = g.projectionMatrix(viewportWidth: g.width, viewportHeight: g.height, zNear: 0.01, zFar: 100)
        let V = g.viewMatrix
        for p in [Vector3(0, 0, 0), Vector3(0.3, 0.1, -0.2), Vector3(-0.5, 0.4, 0.3)] {
            let clip = (P * V) * Vector4f(Float(p.x), Float(p.y), Float(p.z), 1)
            let ndc = Vector2(Double(clip.x / clip.w), Double(clip.y / clip.w))
            let pixel = Vector2((ndc.x + 1) / 2 * Double(g.width) - 0.5, (1 - ndc.y) / 2 * Double(g.height) - 0.5)
            let expected = g.project(p)!
            #expect((pixel - expected).norm < 1e-3)
        }
    }

    @Test(.needsEGL) func backgroundIsExactAndAnchoredCubeSitsAtItsProjection() throws {
        let renderer = try #require(ARTestScenes.renderer)
        ARTestScenes.lock.lock(); defer { ARTestScenes.lock.unlock() }
        let g = Self.geometry
        let background = ARTestScenes.background(width: g.width, height: g.height)
        let ar = try ARSceneRenderer(renderer: renderer)
        let delegate = CubeDelegate()
        ar.delegate = delegate
        var positions = [Vector3(0.15, 0.03, -0.1), Vector3(-0.2, 0.03, 0.1)]
        for (k, p) in positions.enumerated() {
            let frame = ARRenderFrame(capturedImage: .rgba8(background), lens: nil, camera: g, anchors: [Self.anchor(1, at: p)])
            let out = try ar.render(frame)
            let centre = try #require(g.project(p))
            // Cube of 6 cm at ~2 m: its projection spans < 12 px from the centre.
            var red: [Vector2] = []
            var changedFar = 0
            for y in 0..<g.height {
                for x in 0..<g.width {
                    let o = out[x, y], b = background[x, y]
                    let dist = (Vector2(Double(x), Double(y)) - centre).norm
                    if o == RGBA8(r: 255, g: 0, b: 0, a: 255) && b != o { red.append(Vector2(Double(x), Double(y))) }
                    if dist > 16 && o != b { changedFar += 1 }
                }
            }
            #expect(changedFar == 0, "background must be untouched away from the content")
            #expect(red.count > 50)
            let centroid = red.reduce(Vector2.zero, +) / Double(red.count)
            print("ANCHOR frame \(k): cube centroid \(centroid), projection \(centre), error \((centroid - centre).norm) px")
            // The cube's silhouette centroid is its centre's projection up to perspective asymmetry
            // (a 6 cm cube at 2 m: < 0.5 px).
            #expect((centroid - centre).norm < 0.75)
        }
        #expect(delegate.added == 1 && delegate.updated == 1)
        positions.removeAll()
        let empty = try ar.render(ARRenderFrame(capturedImage: .rgba8(background), lens: nil, camera: g, anchors: []))
        #expect(delegate.removed == 1)
        #expect(empty.pixels == background.pixels)
    }

    @Test(.needsEGL) func lightEstimateScalesVirtualShading() throws {
        let renderer = try #require(ARTestScenes.renderer)
        ARTestScenes.lock.lock(); defer { ARTestScenes.lock.unlock() }
        let g = Self.geometry
        let black = RGBAImage(width: g.width, height: g.height, fill: RGBA8(r: 0, g: 0, b: 0, a: 255))
        let ar = try ARSceneRenderer(renderer: renderer)
        let delegate = CubeDelegate(size: 0.3, material: Material(lightingModel: .lambert, diffuse: .color(0.5, 0.5, 0.5)))
        ar.delegate = delegate
        func meanLinear(_ intensity: Double, kelvin: Double = 6500) throws -> Vector3 {
            let light = ARRenderLight(ambientIntensity: intensity, ambientColorTemperature: kelvin)
            let out = try ar.render(ARRenderFrame(capturedImage: .rgba8(black), lens: nil, camera: g,
                                                  anchors: [Self.anchor(2, at: Vector3(0, 0.15, 0))], light: light))
            var s = Vector3.zero
            for p in out.pixels { s += Vector3(ARCompositor.decode[Int(p.r)], ARCompositor.decode[Int(p.g)], ARCompositor.decode[Int(p.b)]) }
            return s / Double(out.pixels.count)
        }
        let full = try meanLinear(1000), half = try meanLinear(500), warm = try meanLinear(1000, kelvin: 3500)
        print("LIGHTING mean linear at 1000 lm \(full), 500 lm \(half), 3500 K \(warm)")
        // Linear shading scales with the light (8-bit rounding and shadow filtering aside).
        #expect(abs(half.y / full.y - 0.5) < 0.02)
        // A warm light makes the grey cube redder than bluer.
        #expect(warm.x / warm.z > 1.3 * full.x / full.z)
    }
}
