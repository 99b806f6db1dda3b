import Foundation
import ParallaxMath

/// Where the first start after a divergence reset places the body, so that the world frame stays
/// where it was.
///
/// The filter is dropped when it diverges (``EstimatorCore/resetAfterDivergence(_:at:)``), and the
/// next start solves gravity, velocity and biases afresh, but not the heading or the position:
/// those are unobservable, so the new start takes them from a pose of the old filter (the anchor).
/// Two things separate the anchor from the new start:
/// - **the divergence itself**: the tests that drop the filter fire only once it has been wrong for
///   a while (its χ² gate rejecting most tracks over a window of frames), so its last pose may
///   already be tens of centimetres off. The anchor is the pose of a frame before that window
///   (``TrackerConfiguration/resetAnchorLookback``).
/// - **the motion while the new start waits**: the new start comes 0.3–1.5 s after the reset, once
///   its window of frames aligns. A hand walking at 0.5 m/s and turning at 100 °/s moves half a
///   metre and turns 100° meanwhile; taken as it was, that motion became a jump of the world
///   (forced resets on simulated flights and hand-held walks: 14–52 cm and up to 33°).
///
/// The bridge dead-reckons across the span T from the anchor to the new start with the IMU and
/// the old filter's biases at the anchor (converged, where the new start's are a first guess):
/// - heading: the gyroscope turns the anchor's attitude on to the new start's time, R_pred =
///   R_a ΔR; the new start keeps its own tilt (its gravity) and takes the yaw that brings it
///   closest to R_pred;
/// - position: the specific force, rotated by the attitudes the gyroscope gives from the anchor's,
///   is integrated both ways and the two answers are weighted by their velocity's variance:
///
///     forwards from the anchor's velocity:     p₁ = p_a + v_a T + ∫₀ᵀ (T − τ) a(τ) dτ
///     backwards from the new start's velocity: p₁ = p_a + v₁ T − ∫₀ᵀ τ a(τ) dτ
///
///   with a(τ) = R(τ) (ã − b_a) + g and τ the time since the anchor. The two agree when
///   v₁ = v_a + ∫ a; a settled filter's velocity (σ ≈ 0.02 m/s) mostly decides, and a start's
///   alignment (σ 0.1 m/s) matters where the anchor's velocity is unsure.
///
/// The bridge is used only where the old filter had run long enough to be trusted at the anchor
/// (``TrackerConfiguration/resetBridgeMinimumRun``): a filter that diverges within a second or two
/// of its start (a start in a fast turn with the wrong timing) never had a world worth carrying,
/// and its velocity and biases are as wrong as its pose. There, and without IMU samples covering
/// the span, or over a span longer than ``maximumSpan``, the old filter's last heading and
/// position are kept as they were (the behaviour before the bridge).
struct ResetBridge {
    /// The old filter's pose that the new start continues from.
    struct Anchor {
        /// IMU-clock time of the pose.
        var time: Double
        /// R_world_body.
        var rotation: Matrix3
        /// Body position in the world.
        var position: Vector3
        /// Body velocity in the world (m/s).
        var velocity: Vector3 = .zero
        /// The old filter's velocity σ there (m/s, the largest over the axes); infinite when
        /// unknown (the velocity is then not used).
        var velocitySigma: Double = .infinity
        /// The old filter's IMU biases there (gyroscope rad/s, accelerometer m/s²).
        var biasGyro: Vector3 = .zero
        var biasAccel: Vector3 = .zero
        /// The old filter's last pose (R_world_body, position), kept as it is where the bridge
        /// does not apply. Set only on an anchor taken from a settled filter (one that had run long
        /// enough for its velocity and biases to be trusted); nil: this pose is the last, kept.
        var last: (rotation: Matrix3, position: Vector3)?
        /// Whether the bridge may use this anchor (it came from a settled filter).
        var isSettled: Bool { last != nil }
    }

    /// Longest span bridged with the IMU (s); a start later than this keeps the anchor's position
    /// and heading as they were (dead reckoning over longer spans drifts by more than it saves).
    var maximumSpan: Double = 3.0

    /// Places `nav` (a gravity-aligned start with an arbitrary heading and its velocity in that
    /// heading's world) in the anchor's world: heading and position bridged from the anchor with
    /// the IMU `samples` (which must cover the span), the velocity turned with the heading.
    /// - Parameters:
    ///   - velocitySigma: the new start's velocity σ (m/s).
    ///   - gyroCorrection / accelCorrection: the IMU intrinsics' corrections (identity without them).
    /// - Returns: whether the IMU bridged the span (false: the anchor was kept as it was).
    @discardableResult
    func place(_ nav: inout NavigationState, velocitySigma: Double, anchor: Anchor, samples: ArraySlice<IMUMeasurement>,
               gyroCorrection: Matrix3 = .identity, accelCorrection: Matrix3 = .identity) -> Bool {
        let r = nav.T_world_body.rotationMatrix
        let span = nav.timestamp - anchor.time
        guard let motion = motion(from: anchor, to: nav.timestamp, samples: samples,
                                  gyroCorrection: gyroCorrection, accelCorrection: accelCorrection) else {
            keep(&nav, anchor: anchor)
            return false
        }
        // Heading: the z rotation that brings the new start's attitude closest to the anchor's
        // turned on by the gyro (the yaw of M = R_pred rᵀ about the vertical).
        let m = anchor.rotation * motion.deltaRotation * r.transpose
        let rz = SO3.exp(Vector3(0, 0, atan2(m[1, 0] - m[0, 1], m[0, 0] + m[1, 1])))
        let rotationNow = rz * r
        let velocityNow = rz * nav.velocity
        // The world-frame integrals of a(τ) over the span, along the attitudes turned on from the
        // anchor's (the settled filter's tilt: a start's alignment leaves its own 0.3–1° off, and
        // 0.5° of gravity is 0.09 m/s²): ∫ a = g T + R_a Δv, ∫ (T − τ) a = ½ g T² + R_a Δp.
        let g = NavigationState.standardGravity
        let integral = g * span + anchor.rotation * motion.deltaVelocity
        let fromStart = g * (0.5 * span * span) + anchor.rotation * motion.deltaPosition
        // Forwards from the anchor's velocity, backwards from the new start's (∫ τ a = T ∫ a −
        // ∫ (T − τ) a), each weighted by its velocity's inverse variance.
        let forward = anchor.velocity * span + fromStart
        let backward = velocityNow * span - (integral * span - fromStart)
        let wb = 1 / max(velocitySigma * velocitySigma, 1e-8)
        let wf = anchor.velocitySigma.isFinite ? 1 / max(anchor.velocitySigma * anchor.velocitySigma, 1e-8) : 0
        let position = anchor.position + (backward * wb + forward * wf) / (wb + wf)
        guard position.isFinite, rotationNow.isFinite else {
            keep(&nav, anchor: anchor)
            return false
        }
        nav.T_world_body = RigidTransform(rotationMatrix: rotationNow, translation: position)
        nav.velocity = velocityNow
        return true
    }

    /// The anchor's velocity carried to `time` with the IMU and the anchor's biases, in the body
    /// frame at `time` (the gyro turning the anchor's attitude on); nil where the bridge would not
    /// apply (unsettled anchor, span too long or not covered).
    func predictedBodyVelocity(anchor: Anchor, at time: Double, samples: ArraySlice<IMUMeasurement>,
                               gyroCorrection: Matrix3 = .identity, accelCorrection: Matrix3 = .identity) -> Vector3? {
        let span = time - anchor.time
        guard anchor.velocitySigma.isFinite,
              let motion = motion(from: anchor, to: time, samples: samples,
                                  gyroCorrection: gyroCorrection, accelCorrection: accelCorrection) else { return nil }
        let velocity = anchor.velocity + NavigationState.standardGravity * span + anchor.rotation * motion.deltaVelocity
        return (anchor.rotation * motion.deltaRotation).transpose * velocity
    }

    /// The motion from the anchor to `time` in the anchor's body frame (ΔR, Δv, Δp), from the
    /// readings corrected for the anchor's biases and the IMU intrinsics; nil where the bridge does
    /// not apply: an unsettled anchor, a span that is not positive, longer than ``maximumSpan`` or
    /// not covered by `samples`.
    private func motion(from anchor: Anchor, to time: Double, samples: ArraySlice<IMUMeasurement>,
                        gyroCorrection: Matrix3, accelCorrection: Matrix3) -> Preintegration? {
        let span = time - anchor.time
        let covered = (samples.first.map { $0.timestamp <= anchor.time } ?? false)
            && (samples.last.map { $0.timestamp >= time - 0.05 } ?? false)
        guard anchor.isSettled, span > 0, span <= maximumSpan, covered else { return nil }
        var motion = Preintegration(biasGyro: .zero, biasAccel: .zero, noise: .zero, tracksUncertainty: false)
        for segment in IMUSegment.split(samples, from: anchor.time, to: time, maxGap: .infinity) {
            motion.integrate(gyro: gyroCorrection * (segment.gyro - anchor.biasGyro),
                             accel: accelCorrection * (segment.accel - anchor.biasAccel), dt: segment.duration)
        }
        return motion.deltaTime > 0 ? motion : nil
    }

    /// The old filter's last heading and position as they were (no IMU across the span).
    private func keep(_ nav: inout NavigationState, anchor: Anchor) {
        let (rotation, position) = anchor.last ?? (anchor.rotation, anchor.position)
        let r = nav.T_world_body.rotationMatrix
        let yawOld = atan2(rotation[1, 0], rotation[0, 0])
        let yawNew = atan2(r[1, 0], r[0, 0])
        let rz = SO3.exp(Vector3(0, 0, yawOld - yawNew))
        nav.T_world_body = RigidTransform(rotationMatrix: rz * r, translation: position)
        // The velocity turns with the heading: an aligned velocity is known in the body frame,
        // and left in the unturned world it would point elsewhere by the yaw change.
        nav.velocity = rz * nav.velocity
    }
}
