import Foundation
import ParallaxDatasets
import ParallaxImaging
import ParallaxMath
import ParallaxTracking

/// The source of ``OrientationTrackingConfiguration`` (ARKit's `AROrientationTrackingConfiguration`):
/// 3-DoF attitude from the gyroscope, its tilt held to gravity by the accelerometer; the camera stays
/// at the world origin and no image is used.
///
/// - **Start**: the tilt comes from the mean accelerometer reading of the first
///   ``initializationSamples`` samples (specific force points up at rest); yaw starts at 0.
///   Until then the state is `notAvailable`.
/// - **Propagation**: `R ← R · Exp(ω Δt)` per IMU sample.
/// - **Gravity**: a complementary filter turns the predicted up direction in the body towards the
///   measured one by ``gravityGain`` of the angle per sample, only while the accelerometer's norm is
///   within ``gravityTolerance`` of g (hand motion would otherwise tilt the estimate).
/// - **State**: `normal`; `limited(excessiveMotion)` while the rotation rate exceeds ``maximumRate``.
struct OrientationPoseSource: PoseSource {
    /// Samples averaged for the initial tilt.
    var initializationSamples = 20
    /// Fraction of the tilt error corrected per IMU sample (200 Hz: a time constant of ~0.5 s).
    var gravityGain = 0.01
    /// Accelerometer norms within this of g (m/s²) count as gravity.
    var gravityTolerance = 0.8
    /// Rotation rate (rad/s) above which the state is limited.
    var maximumRate = 6.0

    private let T_body_camera: RigidTransform
    private var R_W_B: Matrix3?
    private var accelSum = Vector3.zero
    private var accelCount = 0
    private var lastNs: Int64?
    private var lastRate = 0.0

    init(dataset: any SensorSource) throws {
        guard let camera = dataset.cameras.first else { throw SessionError("\(dataset.origin): no camera") }
        T_body_camera = camera.T_body_camera
    }

    var usesRightImage: Bool { false }

    mutating func process(imu s: IMUSample) {
        defer { lastNs = s.timestampNs }
        lastRate = s.angularVelocity.norm
        guard var R = R_W_B else {
            accelSum += s.acceleration
            accelCount += 1
            if accelCount >= initializationSamples { R_W_B = Self.tilt(up: accelSum / Double(accelCount)) }
            return
        }
        if let last = lastNs, s.timestampNs > last {
            let dt = Double(s.timestampNs - last) * 1e-9
            R = R * SO3.exp(s.angularVelocity * dt)
        }
        let a = s.acceleration
        if abs(a.norm - 9.81) < gravityTolerance {
            let predictedUp = R.transpose * Vector3(0, 0, 1)
            let measuredUp = a.normalized
            R = R * SO3.exp(gravityGain * measuredUp.cross(predictedUp))
        }
        R_W_B = Quaternion(rotationMatrix: R).normalized.rotationMatrix  // no drift off SO(3)
    }

    mutating func process(frame: FrameEvent, image: GrayImage, rightImage: GrayImage?) throws -> SourceOutput {
        guard let R = R_W_B else { return SourceOutput(trackingState: .notAvailable, T_world_body: nil, featurePoints: []) }
        // The camera, not the body, sits at the origin: ARKit's orientation tracking has no position.
        let t = -(R * T_body_camera.translation)
        let state: TrackingState = lastRate > maximumRate ? .limited(.excessiveMotion) : .normal
        return SourceOutput(trackingState: state, T_world_body: RigidTransform(rotationMatrix: R, translation: t), featurePoints: [])
    }

    /// A body attitude whose up direction (in the body) is `up`, with zero yaw.
    static func tilt(up: Vector3) -> Matrix3 {
        let u = up.normalized
        // The rotation taking the body's up `u` to the world's z, about the axis u × z.
        let z = Vector3(0, 0, 1)
        let axis = u.cross(z)
        let angle = atan2(axis.norm, u.dot(z))
        return axis.norm < 1e-12 ? (u.z > 0 ? .identity : SO3.exp(Vector3(Double.pi, 0, 0))) : SO3.exp(axis.normalized * angle)
    }
}
