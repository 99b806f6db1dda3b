import Foundation
import ParallaxImaging
import ParallaxMath
import ParallaxSceneGraph
import Testing
@testable import ParallaxARView

/// Shadows of virtual content on a detected (horizontal) plane darken the camera image.
@Suite struct ARShadowTests {
    @Test(.needsEGL) func cubeCastsItsShadowOnThePlane() throws {
        let renderer = try #require(ARTestScenes.renderer)
        ARTestScenes.lock.lock(); defer { ARTestScenes.lock.unlock() }
        let g = ARTestScenes.geometry(eye: Vector3(0, 1.0, 1.2), target: Vector3(0, 0, 0))
        let grey = RGBAImage(width: g.width, height: g.height, fill: RGBA8(r: 180, g: 180, b: 180, a: 255))
        let ar = try ARSceneRenderer(renderer: renderer)
        let delegate = CubeDelegate(size: 0.1)
        ar.delegate = delegate
        let square = [Vector3(-0.5, 0, -0.5), Vector3(-0.5, 0, 0.5), Vector3(0.5, 0, 0.5), Vector3(0.5, 0, -0.5)]
        let plane = ARRenderAnchor(identifier: UUID(), name: "table", transform: .identity, planePolygon: square)
        let cube = ARRenderAnchor(identifier: UUID(), name: "cube", transform: Matrix4(rotation: .identity, translation: Vector3(0, 0.05, 0)))
        let travel = Vector3(1.0, -0.8, 0.2).normalized
        let light = ARRenderLight(ambientIntensity: 300, primaryLightDirection: travel, primaryLightIntensity: 700)
        let out = try ar.render(ARRenderFrame(capturedImage: .rgba8(grey), lens: nil, camera: g, anchors: [plane, cube], light: light))
        // Where the shadow should be: the cube's centre carried along the light onto y = 0.
        let centre = Vector3(0, 0.05, 0)
        let shadowCentre = try #require(g.project(centre + travel * (-centre.y / travel.y)))
        var dark: [Vector2] = []
        var brighter = 0
        for y in 0..<g.height {
            for x in 0..<g.width {
                let p = out[x, y]
                if p.r == p.g && p.g == p.b && p.r < 170 { dark.append(Vector2(Double(x), Double(y))) }
                if p.r == p.g && p.g == p.b && p.r > 180 { brighter += 1 }
            }
        }
        let centroid = dark.reduce(Vector2.zero, +) / Double(max(1, dark.count))
        print("SHADOW \(dark.count) darkened px, centroid \(centroid), expected near \(shadowCentre)")
        #expect(dark.count > 100)
        #expect(brighter == 0, "shadows only darken the camera image")
        // The visible shadow is the part not hidden by the cube itself, so its centroid lies a few
        // pixels off the projected centre; 12 px (a third of the cube's ~40 px image) bounds that.
        #expect((centroid - shadowCentre).norm < 12)
        // The shadow is 60 % strength: 180 (linear 0.456) × 0.4 → 0.182 → code 118 at full shadow.
        let darkest = dark.map { out[Int($0.x), Int($0.y)].r }.min() ?? 255
        #expect(darkest >= 115 && darkest <= 121)
    }
}
