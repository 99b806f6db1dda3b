import Foundation
import ParallaxDatasets
import ParallaxImaging
import ParallaxMath
import ParallaxRendering
import ParallaxSceneGraph
import Testing

@testable import ParallaxSimulation

/// A dark scene with small white balls (constant lighting) at the given z-up world points.
func markerScene(_ points: [Vector3], radius: Float = 0.008, alignment: SceneAlignment) -> Scene {
    let scene = Scene()
    scene.background = .color(Vector4f(0, 0, 0, 1))
    for (i, p) in points.enumerated() {
        var material = Material(lightingModel: .constant, diffuse: .color(1, 1, 1))
        material.name = "marker"
        let node = Node(geometry: .sphere(radius: radius, segments: 24, material: material), name: "marker\(i)")
        node.position = (alignment.T_scene_world * p).float
        scene.rootNode.addChildNode(node)
    }
    return scene
}

@Suite(.serialized) struct CameraSimulationTests {
    /// Markers spread over the whole distorted image (corners included) at 1.5–3 m, rendered,
    /// warped, and found again: their centroids must lie within 0.5 px of the projection of their
    /// centres through the ground-truth pose and the calibration.
    @Test func markersReprojectWithinHalfAPixel() throws {
        let calibration = CameraCalibration.eurocCam0
        let lens = LensModel(calibration)
        let alignment = SceneAlignment(originX: 0.3, floorHeight: -0.2, originZ: 0.5)
        let T_world_camera = TrajectoryBuilder.lookAt(eye: Vector3(0.2, -0.1, 1.5), target: Vector3(3, 0.4, 1.2), roll: 0.1)
        var points: [Vector3] = [], expected: [Vector2] = []
        for (i, u) in stride(from: 20.0, through: 732.0, by: 89.0).enumerated() {
            for (j, v) in stride(from: 20.0, through: 460.0, by: 88.0).enumerated() {
                let ray = lens.normalisedRay(u: u, v: v)
                let depth = 1.5 + 0.25 * Double((i + j) % 7)
                points.append(T_world_camera * (Vector3(ray.x, ray.y, 1) * depth))
                expected.append(Vector2(u, v))
            }
        }
        let scene = markerScene(points, alignment: alignment)
        let renderer = try OffscreenRenderer()
        let rig = try CameraRenderer(calibration: calibration)
        let node = Node(name: "camera")
        scene.rootNode.addChildNode(node)
        let wide = try rig.renderWide(scene: scene, cameraNode: node, renderer: renderer, alignment: alignment, T_world_camera: T_world_camera)
        var random = SeededRandom(seed: 1)
        let image = rig.warp(wide: wide, gain: 1, noiseSigma: 0, random: &random)
        print("wide render \(rig.wideSize) for \(calibration.width)x\(calibration.height), focal \(rig.wideFocal)")

        var errors: [Double] = []
        for (p, e) in zip(points, expected) {
            // The projection of the centre, computed independently of the renderer.
            let pCamera = T_world_camera.inverse * p
            let predicted = try #require(lens.project(pCamera))
            #expect((predicted - e).norm < 1e-6)
            var sum = 0.0, sx = 0.0, sy = 0.0
            let cx = Int(e.x.rounded()), cy = Int(e.y.rounded())
            for y in max(0, cy - 9)...min(calibration.height - 1, cy + 9) {
                for x in max(0, cx - 9)...min(calibration.width - 1, cx + 9) {
                    let w = Double(image[x, y])
                    guard w > 8 else { continue }
                    sum += w; sx += w * Double(x); sy += w * Double(y)
                }
            }
            try #require(sum > 500, "marker at \(e) not found in the image")
            errors.append((Vector2(sx / sum, sy / sum) - predicted).norm)
        }
        let rms = (errors.map { $0 * $0 }.reduce(0, +) / Double(errors.count)).squareRoot()
        print("marker reprojection over \(errors.count) markers: RMS \(rms) px, max \(errors.max() ?? 0) px")
        #expect(errors.allSatisfy { $0 < 0.5 })
    }

    /// The auto-exposure meters what the lens sees: a fisheye's black corners (beyond the rendered
    /// field) are left out, a pinhole image counts whole.
    @Test func autoExposureMetersTheLensField() throws {
        let fisheye = try CameraRenderer(calibration: CameraCalibration(
            name: "cam0", T_body_camera: .identity, rateHz: 20, width: 512, height: 512,
            intrinsics: PinholeIntrinsics(fu: 190.98, fv: 190.98, cu: 254.93, cv: 256.89),
            distortion: .equidistant(k1: 0.0034, k2: 0.0007, k3: -0.0020, k4: 0.0002)))
        var image = GrayImage(width: 512, height: 512, fill: 0)
        var seen = 0
        for i in image.pixels.indices where !fisheye.lookup[2 * i].isNaN {
            image.pixels[i] = 200
            seen += 1
        }
        // The corners are really outside: a fifth of the image or so.
        #expect(seen < image.pixels.count * 9 / 10 && seen > image.pixels.count / 2)
        #expect(fisheye.meteredMean(image) == 200)
        let pinhole = try CameraRenderer(calibration: .eurocCam0)
        var ramp = GrayImage(width: 752, height: 480, fill: 0)
        for i in ramp.pixels.indices { ramp.pixels[i] = UInt8(i % 256) }
        let plain = ramp.pixels.reduce(0.0) { $0 + Double($1) } / Double(ramp.pixels.count)
        #expect(pinhole.meteredMean(ramp) == plain)
    }

    @Test func undistortInvertsDistort() {
        for calibration in [CameraCalibration.eurocCam0, CameraCalibration(
            name: "cam0", T_body_camera: .identity, rateHz: 20, width: 512, height: 512,
            intrinsics: PinholeIntrinsics(fu: 190.98, fv: 190.98, cu: 254.93, cv: 256.89),
            distortion: .equidistant(k1: 0.0034, k2: 0.0007, k3: -0.0020, k4: 0.0002))] {
            let lens = LensModel(calibration)
            for u in stride(from: 0.0, through: Double(calibration.width - 1), by: 37) {
                for v in stride(from: 0.0, through: Double(calibration.height - 1), by: 41) {
                    // The fisheye's corners see more than 90° off axis: no z = 1 ray reaches them.
                    let k = calibration.intrinsics
                    if case .equidistant = calibration.distortion, Vector2((u - k.cu) / k.fu, (v - k.cv) / k.fv).norm > 1.4 { continue }
                    let ray = lens.normalisedRay(u: u, v: v)
                    let back = lens.project(Vector3(ray.x, ray.y, 1))!
                    #expect((back - Vector2(u, v)).norm < 1e-6)
                }
            }
        }
    }
}
