import ParallaxDatasets
import ParallaxMath
import Testing
@testable import ParallaxVision

/// EuRoC V1_01 cam0 (`mav0/cam0/sensor.yaml`).
let eurocCam0 = PinholeRadTanCamera(
    width: 752, height: 480, fx: 458.654, fy: 457.296, cx: 367.215, cy: 248.375,
    k1: -0.28340811, k2: 0.07395907, p1: 0.00019359, p2: 1.76187114e-05)

/// TUM-VI's 512×512 fisheye (cam0 of the "room" calibration, equidistant model).
let tumviCam0 = EquidistantCamera(
    width: 512, height: 512, fx: 190.97847715128717, fy: 190.9733070521226,
    cx: 254.93170605935475, cy: 256.8974428996504,
    k1: 0.0034823894022493434, k2: 0.0007150348452162257,
    k3: -0.0020532361418706202, k4: 0.00020293673591811182)

func roundTripError(_ cam: some CameraModel, step: Int) -> Double {
    var worst = 0.0
    for v in stride(from: 0, through: cam.height - 1, by: step) {
        for u in stride(from: 0, through: cam.width - 1, by: step) {
            let uv = Vector2(Double(u), Double(v))
            let b = cam.unproject(uv)
            guard let back = cam.project(b * 3.7) else { return .infinity }
            worst = max(worst, (back - uv).norm)
            #expect(abs(b.norm - 1) < 1e-12)
        }
    }
    return worst
}

func jacobianError(_ cam: some CameraModel, _ p: Vector3) -> Double {
    guard let (_, J) = cam.projectWithJacobian(p) else { return .infinity }
    let h = 1e-6
    var worst = 0.0
    for k in 0..<3 {
        var dp = Vector3.zero
        dp[k] = h
        guard let a = cam.project(p + dp), let b = cam.project(p - dp) else { return .infinity }
        let fd = (a - b) / (2 * h)
        worst = max(worst, abs(fd.x - J.row0[k]), abs(fd.y - J.row1[k]))
    }
    return worst
}

@Test func radTanRoundTripOverWholeImage() {
    let err = roundTripError(eurocCam0, step: 4)
    #expect(err < 1e-6, "worst round trip \(err) px")
}

@Test func equidistantRoundTripOverWholeImage() {
    let err = roundTripError(tumviCam0, step: 4)
    #expect(err < 1e-6, "worst round trip \(err) px")
}

@Test func jacobiansMatchFiniteDifferences() {
    let points = [Vector3(0.3, -0.2, 1.5), Vector3(-1.2, 0.7, 2.0), Vector3(0.01, 0.02, 0.8),
                  Vector3(2.0, 1.5, 1.0)]
    for p in points {
        // Pixels per metre at ~1 m are ~500, so a 1e-4 absolute error is 2e-7 relative.
        #expect(jacobianError(eurocCam0, p) < 1e-4)
        #expect(jacobianError(tumviCam0, p) < 1e-4)
    }
    // Fisheye beyond 60° off-axis.
    #expect(jacobianError(tumviCam0, Vector3(2.0, -1.0, 0.4)) < 1e-4)
}

@Test func behindCameraIsNil() {
    #expect(eurocCam0.project(Vector3(0, 0, -1)) == nil)
    #expect(tumviCam0.project(Vector3(0, 0, -1)) == nil)
    // The default limit is where θ_d(θ) stops increasing (beyond π here), so a ray 174°
    // off-axis still projects unless a field-of-view limit is given.
    #expect(tumviCam0.project(Vector3(0.1, 0, -1)) != nil)
    let limited = EquidistantCamera(width: 512, height: 512, fx: 190, fy: 190, cx: 256, cy: 256,
                                    k1: tumviCam0.k1, maxIncidenceAngle: 100 * .pi / 180)
    #expect(limited.project(Vector3(0.1, 0, -1)) == nil)
    #expect(limited.project(Vector3(1, 0, -0.1)) != nil)
    #expect(eurocCam0.project(Vector3(0, 0, 2)) == Vector2(eurocCam0.cx, eurocCam0.cy))
}

@Test func undistortPointsAndIntrinsics() {
    let K = eurocCam0.intrinsicsMatrix
    #expect(K[0, 0] == 458.654 && K[1, 2] == 248.375 && K[2, 2] == 1)
    let pts = [Vector2(10, 20), Vector2(700, 460), Vector2(367.215, 248.375)]
    let xn = eurocCam0.undistort(points: pts)
    for (uv, n) in zip(pts, xn) {
        #expect((eurocCam0.distortToPixel(n) - uv).norm < 1e-8)
    }
    #expect(xn[2].norm < 1e-12)
    // Barrel distortion: a corner pixel is farther out once undistorted than its raw value.
    let raw = Vector2((10 - eurocCam0.cx) / eurocCam0.fx, (20 - eurocCam0.cy) / eurocCam0.fy)
    #expect(xn[0].norm > raw.norm)
}

@Test func calibrationBridgeRejectsUnmodellableCalibrations() throws {
    var bad = CameraCalibration.simpleTestCamera
    bad.intrinsics.fu = 0
    #expect(throws: CameraModelError.self) { try bad.makeCameraModel() }
    bad = .simpleTestCamera
    bad.distortion = .equidistant(k1: .nan, k2: 0, k3: 0, k4: 0)
    #expect(throws: CameraModelError.self) { try bad.makeCameraModel() }
    #expect(try CameraCalibration.simpleTestCamera.makeCameraModel() is PinholeRadTanCamera)
}

extension CameraCalibration {
    /// A 640×480 pinhole without distortion.
    static let simpleTestCamera = CameraCalibration(
        name: "cam0", T_body_camera: .identity, rateHz: 20, width: 640, height: 480,
        intrinsics: PinholeIntrinsics(fu: 400, fv: 400, cu: 320, cv: 240),
        distortion: .radialTangential(k1: 0, k2: 0, p1: 0, p2: 0))
}
