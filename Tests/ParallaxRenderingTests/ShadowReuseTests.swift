import Foundation
import ParallaxImaging
import ParallaxMath
import ParallaxRendering
import ParallaxSceneGraph
import Testing

/// A renderer keeps its shadow maps while the lights and the shadow casters are unchanged (the
/// simulator draws one scene up to 64 times per camera frame): the images must be exactly those of a
/// renderer that draws its maps afresh, and a moved caster or light must move its shadow.
@Suite(.serialized, .needsEGL) struct ShadowReuseTests {
    @Test(arguments: [Light.LightType.directional, .spot])
    func reusedMapsGiveTheImagesOfFreshOnes(_ type: Light.LightType) throws {
        // Its own renderer: the shared one serves `GoldenTests`, which may run at the same time, and
        // a renderer must not draw on two threads at once.
        let reusing = try OffscreenRenderer()
        let size = try SharedRenderer.size()
        let scene = TestScenes.shadows(type)
        let camera = try #require(scene.rootNode.subtree.first { $0.camera != nil })
        let box = try #require(scene.rootNode.subtree.first { $0.name == "box" })
        let light = try #require(scene.rootNode.subtree.first { $0.light?.castsShadow == true })
        let before = try reusing.render(scene: scene, camera: camera, size: size)
        // Another viewpoint with the same lights and casters: the maps are reused.
        camera.position += Vector3f(0.3, -0.2, 0.1)
        let moved = try reusing.render(scene: scene, camera: camera, size: size)
        // A moved caster, then a moved light: the maps must be drawn again.
        box.position += Vector3f(0.4, 0, 0.3)
        let casterMoved = try reusing.render(scene: scene, camera: camera, size: size)
        let aim = light.transform
        light.position += Vector3f(0.5, 0, -0.5)
        light.look(at: .zero, up: Vector3f(0, 1, 0.01))  // a directional light must turn to move shadows
        let lightMoved = try reusing.render(scene: scene, camera: camera, size: size)
        // (Compared as Bool: a failing `#expect` on two pixel arrays would print both.)
        let casterMovesShadow = casterMoved.pixels != moved.pixels, lightMovesShadow = lightMoved.pixels != casterMoved.pixels
        #expect(casterMovesShadow)
        #expect(lightMovesShadow)
        // The same frames from a renderer that has drawn nothing before.
        func fresh() throws -> RGBAImage { try OffscreenRenderer().render(scene: scene, camera: camera, size: size) }
        func same(_ a: RGBAImage, _ b: RGBAImage) -> Bool { a.pixels == b.pixels }
        #expect(same(try fresh(), lightMoved))
        light.transform = aim
        #expect(same(try fresh(), casterMoved))
        box.position -= Vector3f(0.4, 0, 0.3)
        #expect(same(try fresh(), moved))
        camera.position -= Vector3f(0.3, -0.2, 0.1)
        #expect(same(try fresh(), before))
    }
}
