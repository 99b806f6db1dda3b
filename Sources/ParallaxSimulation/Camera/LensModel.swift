import Foundation
import ParallaxDatasets
import ParallaxMath

/// Projection and back-projection through a pinhole camera with lens distortion, as described by
/// a EuRoC `sensor.yaml` (``CameraCalibration``). Pixel centres are at integer coordinates
/// (OpenCV convention); points are in the OpenCV camera frame (x right, y down, z forward).
///
/// This is deliberately not the tracker's camera model (`ParallaxVision`'s `PinholeRadTanCamera`
/// and `EquidistantCamera`, built by `CameraCalibration.makeCameraModel()`): the simulator makes the
/// images the tracker is scored on, so it must not share that code or its mistakes, and the
/// simulation stack does not depend on the vision stack. The two agree on the distortion formulas;
/// where they differ on purpose:
/// - Equidistant projection goes through the normalised plane (x/z, y/z), so only points in front
///   of the camera (z > 1e-9) project; the tracker's model works from the incidence angle and
///   accepts rays up to its `maxIncidenceAngle`, beyond 90° when the lens allows, and rejects rays
///   past the range where θ_d(θ) increases. ``undistort(_:)`` caps θ at 1.55 rad instead.
/// - Radial-tangential ``undistort(_:)`` runs Newton with a central-difference Jacobian (to 1e-13);
///   the tracker runs Gauss–Newton with the analytic one. Inside the image both agree to ~1e-12.
/// - There is no Jacobian: the simulator only renders and warps, it never linearises.
public struct LensModel: Sendable {
    /// Intrinsics and distortion.
    public let calibration: CameraCalibration

    /// Creates a model of `calibration`.
    public init(_ calibration: CameraCalibration) { self.calibration = calibration }

    /// Distorts normalised image coordinates (x/z, y/z).
    /// Radial-tangential: Brown 1966 / OpenCV; equidistant: Kannala & Brandt 2006.
    public func distort(_ p: Vector2) -> Vector2 {
        switch calibration.distortion {
        case let .radialTangential(k1, k2, p1, p2):
            let x = p.x, y = p.y
            let r2 = x * x + y * y
            let radial = 1 + k1 * r2 + k2 * r2 * r2
            return Vector2(x * radial + 2 * p1 * x * y + p2 * (r2 + 2 * x * x),
                           y * radial + p1 * (r2 + 2 * y * y) + 2 * p2 * x * y)
        case let .equidistant(k1, k2, k3, k4):
            let r = p.norm
            if r < 1e-12 { return p }
            let theta = atan(r)
            let t2 = theta * theta
            let thetaD = theta * (1 + t2 * (k1 + t2 * (k2 + t2 * (k3 + t2 * k4))))
            return p * (thetaD / r)
        }
    }

    /// Inverts ``distort(_:)`` by Newton's method (Jacobian by central differences on the smooth
    /// distortion polynomial); converges to ~1e-12 in a few steps over the whole image.
    public func undistort(_ d: Vector2) -> Vector2 {
        if case let .equidistant(k1, k2, k3, k4) = calibration.distortion {
            // Solve θ_d = θ(1 + k1θ² + …) for θ, then r = tan θ.
            let thetaD = d.norm
            if thetaD < 1e-12 { return d }
            var theta = thetaD
            for _ in 0..<20 {
                let t2 = theta * theta
                let f = theta * (1 + t2 * (k1 + t2 * (k2 + t2 * (k3 + t2 * k4)))) - thetaD
                let df = 1 + t2 * (3 * k1 + t2 * (5 * k2 + t2 * (7 * k3 + t2 * 9 * k4)))
                let step = f / df
                theta -= step
                if abs(step) < 1e-14 { break }
            }
            theta = min(max(theta, 0), 1.55)
            return d * (tan(theta) / thetaD)
        }
        var p = d
        let h = 1e-7
        for _ in 0..<30 {
            let f = distort(p) - d
            if f.norm < 1e-13 { break }
            let jx = (distort(p + Vector2(h, 0)) - distort(p - Vector2(h, 0))) / (2 * h)
            let jy = (distort(p + Vector2(0, h)) - distort(p - Vector2(0, h))) / (2 * h)
            let det = jx.x * jy.y - jy.x * jx.y
            guard abs(det) > 1e-12 else { break }
            // Solve [jx jy] δ = f.
            let dx = (f.x * jy.y - jy.x * f.y) / det
            let dy = (jx.x * f.y - f.x * jx.y) / det
            p -= Vector2(dx, dy)
        }
        return p
    }

    /// Pixel of a point in the camera frame, or nil when it is behind the camera.
    public func project(_ pCamera: Vector3) -> Vector2? {
        guard pCamera.z > 1e-9 else { return nil }
        let d = distort(Vector2(pCamera.x / pCamera.z, pCamera.y / pCamera.z))
        let k = calibration.intrinsics
        return Vector2(k.fu * d.x + k.cu, k.fv * d.y + k.cv)
    }

    /// The undistorted normalised coordinates (x/z, y/z) of the ray through pixel `(u, v)`.
    public func normalisedRay(u: Double, v: Double) -> Vector2 {
        let k = calibration.intrinsics
        return undistort(Vector2((u - k.cu) / k.fu, (v - k.cv) / k.fv))
    }
}

extension CameraCalibration {
    /// EuRoC's `cam0` (MT9M034 of the VI-Sensor), as in `mav0/cam0/sensor.yaml` of every sequence.
    public static let eurocCam0 = CameraCalibration(
        name: "cam0", comment: "VI-Sensor cam0 (MT9M034)",
        T_BS: Matrix4(rowMajor: [
            0.0148655429818, -0.999880929698, 0.00414029679422, -0.0216401454975,
            0.999557249008, 0.0149672133247, 0.025715529948, -0.064676986768,
            -0.0257744366974, 0.00375618835797, 0.999660727178, 0.00981073058949,
            0, 0, 0, 1]),
        rateHz: 20, width: 752, height: 480,
        intrinsics: PinholeIntrinsics(fu: 458.654, fv: 457.296, cu: 367.215, cv: 248.375),
        distortion: .radialTangential(k1: -0.28340811, k2: 0.07395907, p1: 0.00019359, p2: 1.76187114e-05))

    /// EuRoC's `cam1`, as in `mav0/cam1/sensor.yaml`.
    public static let eurocCam1 = CameraCalibration(
        name: "cam1", comment: "VI-Sensor cam1 (MT9M034)",
        T_BS: Matrix4(rowMajor: [
            0.0125552670891, -0.999755099723, 0.0182237714554, -0.0198435579556,
            0.999598781151, 0.0130119051815, 0.0251588363115, 0.0453689425024,
            -0.0253898008918, 0.0179005838253, 0.999517347078, 0.00786212447038,
            0, 0, 0, 1]),
        rateHz: 20, width: 752, height: 480,
        intrinsics: PinholeIntrinsics(fu: 457.587, fv: 456.134, cu: 379.999, cv: 255.238),
        distortion: .radialTangential(k1: -0.28368365, k2: 0.07451284, p1: -0.00010473, p2: -3.55590700e-05))
}

extension IMUCalibration {
    /// EuRoC's ADIS16448 (`mav0/imu0/sensor.yaml`).
    public static let eurocIMU = IMUCalibration(
        name: "imu0", comment: "VI-Sensor IMU (ADIS16448)", rateHz: 200,
        gyroscopeNoiseDensity: 1.6968e-4, gyroscopeRandomWalk: 1.9393e-5,
        accelerometerNoiseDensity: 2.0e-3, accelerometerRandomWalk: 3.0e-3)
}
