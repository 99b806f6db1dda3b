import Foundation
import ParallaxDatasets
import ParallaxMath

/// The calibration written to a dataset's `sensor.yaml` when it should differ from the camera
/// that rendered the images (``CalibrationErrorSizes``), and the error actually applied.
public struct CalibrationPerturbation: Sendable, Equatable {
    /// The camera that rendered the images.
    public var truth: CameraCalibration
    /// The calibration written to `sensor.yaml`.
    public var written: CameraCalibration
    /// Signed relative focal error: written `fu = (1 + focalFraction) · true fu`, same for `fv`.
    public var focalFraction: Double
    /// Written principal point minus the true one (px).
    public var principalPointOffset: Vector2
    /// Rotation error: `R_written = R_true · Exp(rotationVector)` (rotation vector in the camera
    /// frame, radians).
    public var rotationVector: Vector3
    /// Translation error of `T_BS` in the body frame (m): `t_written = t_true + translationOffset`.
    public var translationOffset: Vector3

    /// Perturbs camera `index` (0, 1) by exactly `sizes`, in directions and signs drawn from
    /// `seed`; each camera draws its own, so a stereo pair's relative pose is wrong too.
    public init(truth: CameraCalibration, sizes: CalibrationErrorSizes, seed: UInt64, index: Int) {
        var random = SeededRandom(seed: seed, stream: 3000 + UInt64(index))
        func direction3() -> Vector3 {
            var v = random.gaussian3()
            while v.norm < 1e-6 { v = random.gaussian3() }
            return v.normalized
        }
        let sign: Double = random.uniform() < 0.5 ? -1 : 1
        let angle = 2 * Double.pi * random.uniform()
        let axis = direction3(), shift = direction3()
        focalFraction = sign * sizes.focalFraction
        principalPointOffset = Vector2(cos(angle), sin(angle)) * sizes.principalPointPixels
        rotationVector = axis * (sizes.rotationDegrees * .pi / 180)
        translationOffset = shift * (sizes.translationMillimetres / 1000)
        self.truth = truth
        var w = truth
        let k = truth.intrinsics
        w.intrinsics = PinholeIntrinsics(fu: k.fu * (1 + focalFraction), fv: k.fv * (1 + focalFraction),
                                         cu: k.cu + principalPointOffset.x, cv: k.cv + principalPointOffset.y)
        if !sizes.isZero {
            let T = truth.T_body_camera
            let rotation = T.rotation * Quaternion(rotationVector: rotationVector)
            w.T_BS = RigidTransform(rotation: rotation, translation: T.translation + translationOffset).matrix
        }
        written = w
    }
}
