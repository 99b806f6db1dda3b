import Foundation
import ParallaxAR
import ParallaxImaging
import ParallaxMath
import ParallaxRendering
import ParallaxSceneGraph
import ParallaxVision
import Testing
@testable import ParallaxARView

/// Primary light direction and spherical harmonics from plane shading, scored on a rendered
/// scene with a known directional light: a grey Lambertian box (the "table") on a grey floor,
/// 300 lm ambient + 700 lm directional with shadows, seen from four views around the box.
@Suite struct LightDirectionTests {
    static let towardLight = Vector3(0.5, 1.0, 0.3).normalized

    /// The scene and the planes (AR world, y up) an AR session would have detected on it.
    static func makeScene() -> (Scene, [ShadingPlane]) {
        let scene = Scene()
        var grey = Material(name: "grey", lightingModel: .lambert, diffuse: .color(0.5, 0.5, 0.5))
        grey.isDoubleSided = false
        let floor = Node(geometry: .box(width: 4, height: 0.02, length: 4, material: grey), name: "floor")
        floor.position = Vector3f(0, -0.01, 0)
        let table = Node(geometry: .box(width: 0.6, height: 0.5, length: 0.6, material: grey), name: "table")
        table.position = Vector3f(0, 0.25, 0)
        let ambient = Node(name: "ambient")
        ambient.light = Light(type: .ambient, intensity: 300)
        let sun = Node(name: "sun")
        var l = Light(type: .directional, intensity: 700)
        l.castsShadow = true
        l.shadowMapSize = 2048
        sun.light = l
        sun.orientation = Node.orientation(lookingFrom: .zero, at: (-towardLight).float, up: Vector3f(0, 1, 0))
        for n in [floor, table, ambient, sun] { scene.rootNode.addChildNode(n) }
        let h = 0.3, top = 0.5
        let planes = [
            ShadingPlane(id: "floor", normal: Vector3(0, 1, 0), polygon: [Vector3(-2, 0, -2), Vector3(-2, 0, 2), Vector3(2, 0, 2), Vector3(2, 0, -2)]),
            ShadingPlane(id: "top", normal: Vector3(0, 1, 0), polygon: [Vector3(-h, top, -h), Vector3(-h, top, h), Vector3(h, top, h), Vector3(h, top, -h)]),
            ShadingPlane(id: "+x", normal: Vector3(1, 0, 0), polygon: [Vector3(h, 0, -h), Vector3(h, top, -h), Vector3(h, top, h), Vector3(h, 0, h)]),
            ShadingPlane(id: "-x", normal: Vector3(-1, 0, 0), polygon: [Vector3(-h, 0, -h), Vector3(-h, 0, h), Vector3(-h, top, h), Vector3(-h, top, -h)]),
            ShadingPlane(id: "+z", normal: Vector3(0, 0, 1), polygon: [Vector3(-h, 0, h), Vector3(h, 0, h), Vector3(h, top, h), Vector3(-h, top, h)]),
            ShadingPlane(id: "-z", normal: Vector3(0, 0, -1), polygon: [Vector3(-h, 0, -h), Vector3(-h, top, -h), Vector3(h, top, -h), Vector3(h, 0, -h)]),
        ]
        return (scene, planes)
    }

    @Test(.needsEGL) func primaryDirectionAndHarmonicsFromPlanes() throws {
        let renderer = try #require(ARTestScenes.renderer)
        ARTestScenes.lock.lock(); defer { ARTestScenes.lock.unlock() }
        let (scene, planes) = Self.makeScene()
        let cameraNode = Node(name: "camera")
        scene.rootNode.addChildNode(cameraNode)
        var accumulator = PlaneShadingAccumulator(step: 3)
        for eye in [Vector3(2, 1.3, 2), Vector3(-2, 1.3, 2), Vector3(-2, 1.3, -2), Vector3(2, 1.3, -2)] {
            let g = ARTestScenes.geometry(eye: eye, target: Vector3(0, 0.25, 0))
            cameraNode.position = g.transform.translation.float
            cameraNode.orientation = Quaternionf(g.transform.rotation)
            var cam = ParallaxSceneGraph.Camera()
            cam.projectionTransform = g.projectionMatrix(viewportWidth: g.width, viewportHeight: g.height, zNear: 0.05, zFar: 50)
            cameraNode.camera = cam
            let image = try renderer.render(scene: scene, camera: cameraNode, size: RenderSize(width: g.width, height: g.height))
            let lens = PinholeRadTanCamera(width: g.width, height: g.height, fx: g.fx, fy: g.fy, cx: g.cx, cy: g.cy)
            accumulator.add(image: .rgba8(image), model: lens, T_world_camera: g.openCVPose, planes: planes)
        }
        let samples = accumulator.samples()
        #expect(samples.count == 6)
        let estimate = try #require(EnvironmentLightEstimate.estimate(samples: samples, referenceLinearLuminance: 0.5))
        let error = acos(min(1, estimate.fit.towardLight.dot(Self.towardLight))) * 180 / .pi
        let share = estimate.fit.directional / (estimate.fit.directional + estimate.fit.ambient)
        let shDirection = try #require(SphericalHarmonics.dominantDirection(Array(stride(from: 0, to: 27, by: 3).map { estimate.sphericalHarmonicsCoefficients[$0] })))
        let shError = acos(min(1, shDirection.dot(Self.towardLight))) * 180 / .pi
        print(String(format: "LIGHTDIR angular error %.3f deg, SH dominant direction error %.3f deg, directional share %.3f (true 0.700), rms %.4f",
                     error, shError, share, estimate.fit.rmsResidual))
        // The planes' medians are exact Lambertian values up to 8-bit quantisation, so the fit
        // recovers the direction to a fraction of a degree; 2° leaves room for GL differences.
        #expect(error < 2)
        #expect(shError < 2)
        // 300 lm ambient + 700 lm directional on albedo 0.5: ambient radiance 0.15, directional 0.35.
        #expect(abs(share - 0.7) < 0.03)
        #expect(abs(estimate.primaryLightDirection.dot(estimate.fit.towardLight) + 1) < 1e-12)
        #expect(estimate.sphericalHarmonicsCoefficients.count == 27)
        // The order-2 harmonics reproduce the plane irradiance (clamped-cosine truncation: Ramamoorthi
        // & Hanrahan bound the error at a few percent for smooth lighting; a directional light is the
        // worst case).
        let grey = Array(stride(from: 0, to: 27, by: 3).map { estimate.sphericalHarmonicsCoefficients[$0] })
        for s in samples {
            let predicted = SphericalHarmonics.irradiance(grey, normal: s.normal) * 0.5
            print("LIGHTDIR plane \(s.id): measured \(s.radiance), SH \(predicted)")
            #expect(abs(predicted - s.radiance) < 0.2 * max(s.radiance, 0.05))
        }
    }
}
