import Foundation
import ParallaxMath

/// The body's attitude while the filter waits to start: what ARKit shows as the camera's
/// orientation under `limited(initializing)` before position and scale exist.
///
/// Turns come from the gyroscope (less the images' bias once ``GyroBiasFromImages`` gives one);
/// after each frame's turns the tilt is set from the up direction the accelerometer gives
/// (``EstimatorCore/meanSpecificForce(_:gyroBias:)`` over the last ``tiltWindow`` seconds, which
/// averages a hand's accelerations out), by the smallest rotation that brings it to world z. That rotation is
/// about a horizontal axis, so the heading stays what the gyro made it: the first attitude's
/// heading is zero and the filter's first pose continues it (``headingTurn(from:)``), so the
/// camera does not swing round when position tracking begins.
struct StartAttitude {
    /// Span (s) of IMU whose mean specific force gives the up direction. A hand or a walker that
    /// sets off accelerates by about its speed over the span: a walk reaching 0.8 m/s in the first
    /// second leans a 1 s mean by 4.7°, a 2 s one by half as much; longer spans add the gyro's
    /// uncorrected bias to every sample's turn.
    static let tiltWindow = 2.0
    /// World-from-body rotation (z up) at ``time``.
    private(set) var rotation: Matrix3
    /// Time (IMU clock) of the last gyro sample integrated.
    private(set) var time: Double

    /// The attitude whose up direction in the body is `up` (zero heading) at `time`.
    init(up: Vector3, time: Double) {
        rotation = StaticInitializer.gravityAlignedRotation(upInBody: up)
        self.time = time
    }

    /// Integrates the gyro samples after ``time`` (less `gyroBias`), then tilts the attitude so
    /// that `up` (the measured up direction in the newest body frame; nil keeps the gyro's tilt)
    /// points along world z.
    mutating func advance<Samples: Collection>(with samples: Samples, gyroBias: Vector3, up: Vector3?)
        where Samples.Element == IMUMeasurement {
        var last = time
        for s in samples where s.timestamp > last {
            rotation = rotation * SO3.exp((s.gyro - gyroBias) * (s.timestamp - last))
            last = s.timestamp
        }
        time = last
        if let up, up.norm > 1e-9 {
            let upWorld = rotation * up.normalized
            rotation = Self.tiltTaking(upWorld, to: Vector3(0, 0, 1)) * rotation
        }
        // Keep it a rotation (the products above drift off SO(3) over many samples).
        rotation = Quaternion(rotationMatrix: rotation).normalized.rotationMatrix
    }

    /// The rotation about the vertical axis that takes `other`'s heading to this attitude's:
    /// applied to a start's world (rotation and velocity), it keeps the heading shown so far.
    /// Both attitudes are tilted to gravity, so their difference is (nearly) a turn about z; its
    /// angle is read from the horizontal block of `R_this · R_otherᵀ`.
    func headingTurn(from other: Matrix3) -> Matrix3 {
        let d = rotation * other.transpose
        let angle = atan2(d[1, 0] - d[0, 1], d[0, 0] + d[1, 1])
        return SO3.exp(Vector3(0, 0, angle))
    }

    /// The smallest rotation taking unit vector `a` to unit vector `b`.
    static func tiltTaking(_ a: Vector3, to b: Vector3) -> Matrix3 {
        let axis = a.cross(b)
        let angle = atan2(axis.norm, a.dot(b))
        guard axis.norm > 1e-12 else { return a.dot(b) > 0 ? .identity : SO3.exp(Vector3(Double.pi, 0, 0)) }
        return SO3.exp(axis.normalized * angle)
    }
}
