import Foundation
import ParallaxImaging
import ParallaxRendering
import ParallaxSceneGraph
import Testing

/// Renders every feature at 160×120 and compares with `Golden/*.png` (see ``GoldenImage`` for tolerances).
@Suite(.serialized, .needsEGL) struct GoldenTests {
    func render(_ scene: Scene, _ name: String) throws {
        let renderer = try #require(SharedRenderer.instance)
        let image = try renderer.render(scene: scene, size: SharedRenderer.size())
        try GoldenImage.check(image, named: name)
    }

    @Test(arguments: ["box", "sphere", "plane", "cylinder", "cone", "torus", "capsule", "pyramid", "floor"])
    func geometry(_ name: String) throws { try render(TestScenes.geometry(name), "geometry-\(name)") }

    @Test(arguments: Material.LightingModel.allCases)
    func lightingModel(_ model: Material.LightingModel) throws {
        try render(TestScenes.lightingModel(model), "model-\(model.rawValue)")
    }

    @Test(arguments: Light.LightType.allCases)
    func light(_ type: Light.LightType) throws { try render(TestScenes.light(type), "light-\(type.rawValue)") }

    @Test(arguments: [Light.LightType.directional, .spot])
    func shadows(_ type: Light.LightType) throws { try render(TestScenes.shadows(type), "shadow-\(type.rawValue)") }

    @Test func transparency() throws { try render(TestScenes.transparency(), "transparency") }
    @Test func occluder() throws { try render(TestScenes.occluder(), "occluder") }
    @Test func fog() throws { try render(TestScenes.fog(), "fog") }
    @Test func texturedNormalMap() throws { try render(TestScenes.textured(), "textured-normalmap") }
}
