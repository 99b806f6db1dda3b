import Foundation
import ParallaxMath

/// Built-in synthetic motions. Each is an analytic camera motion (eye point and look target in
/// the z-up world) turned into a C² cumulative B-spline for the body (IMU) frame.
public enum MotionPreset: String, Sendable, CaseIterable {
    /// A person (eyes ~1.5 m above the floor) walking a slow loop around a table while looking
    /// around it, with step bob (1.8 Hz), lateral sway and hand tremor.
    case handheld
    /// A steady orbit around the point of interest, looking at it.
    case orbit
    /// Rapid yaw/pitch/roll oscillations (up to ~6 rad/s) with little translation: a stress test.
    case fastRotation = "fast-rotation"
    /// Not moving at all.
    case still
}

/// Where a motion preset happens, in the z-up world.
public struct MotionSettings: Sendable {
    /// The point of interest on the floor (z = floor height): the table centre for `handheld`,
    /// the orbit centre for `orbit`.
    public var centre: Vector3
    /// Horizontal radius of the loop / orbit (m).
    public var radius: Double
    /// Height of the camera above `centre.z` (m).
    public var eyeHeight: Double
    /// Height above `centre.z` of the point the camera looks at (a table top).
    public var targetHeight: Double
    /// Camera (OpenCV) in the body frame: the presets describe where the camera looks.
    public var T_body_camera: RigidTransform
    /// Knot spacing of the spline (s).
    public var knotSpacing: Double

    /// Defaults: a 1.5 m eye height around a table 0.75 m high, loop radius 1.4 m, EuRoC's
    /// nominal camera mounting (camera z = body z, camera x = body y).
    public init(
        centre: Vector3 = .zero, radius: Double = 1.4, eyeHeight: Double = 1.5, targetHeight: Double = 0.75,
        T_body_camera: RigidTransform = MotionSettings.nominalEuRoCCamera, knotSpacing: Double = 0.05
    ) {
        self.centre = centre
        self.radius = radius
        self.eyeHeight = eyeHeight
        self.targetHeight = targetHeight
        self.T_body_camera = T_body_camera
        self.knotSpacing = knotSpacing
    }

    /// EuRoC's cam0 mounting rounded to axes: camera x = body y, camera y = −body x, z = z.
    public static let nominalEuRoCCamera = RigidTransform(
        rotationMatrix: Matrix3(rows: Vector3(0, -1, 0), Vector3(1, 0, 0), Vector3(0, 0, 1)), translation: .zero)
}

/// Builds trajectories from presets or pose files, with an optional static start.
public enum TrajectoryBuilder {
    /// A preset motion lasting `duration` seconds from time 0, still for the first `staticStart`.
    public static func preset(
        _ preset: MotionPreset, duration: Double, staticStart: Double = 0, settings: MotionSettings = MotionSettings()
    ) throws -> CumulativeBSpline {
        guard duration > 0, staticStart >= 0 else {
            throw SimulationError.invalidArgument("duration must be > 0 and static start ≥ 0 (got \(duration), \(staticStart))")
        }
        let warp = StaticStartWarp(hold: staticStart, knotSpacing: settings.knotSpacing)
        let motion = { (t: Double) -> RigidTransform in cameraPose(preset, at: warp(t), settings: settings) * settings.T_body_camera.inverse }
        // Control points sampled from the analytic motion: a smoothing spline, C² by construction.
        // Points at warped time 0 are bit-identical, so the start is exactly still.
        return try SplineFitting.approximate(start: 0, end: duration, knotSpacing: settings.knotSpacing, target: motion)
    }

    /// An interpolating spline through pose samples (e.g. a TUM file), re-timed to start at 0,
    /// optionally preceded by `staticStart` seconds holding the first pose.
    public static func fromSamples(
        _ samples: [PoseSample], knotSpacing: Double = 0.05, staticStart: Double = 0, duration: Double? = nil
    ) throws -> CumulativeBSpline {
        guard let first = samples.first, let last = samples.last else {
            throw SimulationError.invalidArgument("the trajectory has no poses")
        }
        let warp = StaticStartWarp(hold: staticStart, knotSpacing: knotSpacing)
        let available = (last.time - first.time) + warp.delay
        let end = min(duration ?? available, available)
        guard end > 0 else { throw SimulationError.invalidArgument("the trajectory spans no time") }
        let interpolator = SampleInterpolator(samples: samples)
        return try SplineFitting.fit(start: 0, end: end, knotSpacing: knotSpacing, frozenUntil: warp.stillUntil) {
            interpolator.pose(at: first.time + warp($0))
        }
    }

    /// The camera pose `T_world_camera` (OpenCV camera) of a preset at motion time `s`.
    static func cameraPose(_ preset: MotionPreset, at s: Double, settings: MotionSettings) -> RigidTransform {
        let c = settings.centre
        let r = settings.radius
        let tau = 2 * Double.pi
        switch preset {
        case .still:
            return lookAt(eye: c + Vector3(r, 0, settings.eyeHeight), target: c + Vector3(0, 0, settings.targetHeight), roll: 0)
        case .orbit:
            let theta = tau * s / 20
            let eye = c + Vector3(r * cos(theta), r * sin(theta), settings.eyeHeight - 0.1 + 0.1 * cos(tau * 0.1 * s))
            return lookAt(eye: eye, target: c + Vector3(0, 0, settings.targetHeight), roll: 0)
        case .handheld:
            // Walking phase along an ellipse, one loop in about 30 s, slightly uneven pace.
            let theta = tau * s / 30 + 0.25 * sin(tau * 0.07 * s)
            let heading = Vector3(-sin(theta), 0.8 * cos(theta), 0).normalized
            let side = Vector3(heading.y, -heading.x, 0)
            let step = 1.8  // steps per second
            var eye = c + Vector3(r * cos(theta), 0.8 * r * sin(theta), settings.eyeHeight)
            eye.z += 0.02 * sin(tau * step * s)                            // vertical bob, once per step
            eye += side * (0.015 * sin(tau * step / 2 * s))                 // lateral sway, once per stride
            eye += Vector3(0.008 * sin(tau * 0.9 * s + 1), 0.008 * sin(tau * 1.3 * s), 0.006 * sin(tau * 0.7 * s + 2))  // hand
            // Looking around the table: the target wanders over it and beyond.
            let target = c + Vector3(
                0.7 * sin(tau * 0.11 * s) + 0.3 * sin(tau * 0.23 * s + 1),
                0.7 * sin(tau * 0.13 * s + 2) + 0.3 * sin(tau * 0.19 * s),
                settings.targetHeight + 0.25 * sin(tau * 0.09 * s))
            let roll = 0.05 * sin(tau * 0.8 * s) + 0.03 * sin(tau * step / 2 * s)
            return lookAt(eye: eye, target: target, roll: roll)
        case .fastRotation:
            let eye = c + Vector3(r + 0.05 * sin(tau * 0.5 * s), 0.05 * sin(tau * 0.3 * s), settings.eyeHeight)
            let base = lookAt(eye: eye, target: c + Vector3(0, 0, settings.targetHeight), roll: 0)
            let yaw = 0.8 * sin(tau * 0.8 * s) + 0.25 * sin(tau * 1.7 * s)
            let pitch = 0.35 * sin(tau * 1.1 * s)
            let roll = 0.4 * sin(tau * 0.9 * s)
            // Rotations about the camera's own axes: yaw about −y (up), pitch about x, roll about z.
            let q = base.rotation * Quaternion(axis: Vector3(0, -1, 0), angle: yaw)
                * Quaternion(axis: Vector3(1, 0, 0), angle: pitch) * Quaternion(axis: Vector3(0, 0, 1), angle: roll)
            return RigidTransform(rotation: q, translation: eye)
        }
    }

    /// `T_world_camera` of an OpenCV camera at `eye` looking at `target` (z-up world), rolled by
    /// `roll` radians about its optical axis.
    public static func lookAt(eye: Vector3, target: Vector3, roll: Double) -> RigidTransform {
        let z = (target - eye).normalized
        var x = z.cross(Vector3(0, 0, 1))
        if x.norm < 1e-9 { x = Vector3(1, 0, 0) }  // looking straight up or down
        x = x.normalized
        let y = z.cross(x)
        let r = Matrix3(columns: x, y, z)
        let q = Quaternion(rotationMatrix: r) * Quaternion(axis: Vector3(0, 0, 1), angle: roll)
        return RigidTransform(rotation: q, translation: eye)
    }
}

/// Time warp for a static start: 0 until `hold`, then a C³ ramp of the motion's clock
/// (the integral of the quintic smootherstep over `blend` seconds), then real time minus a delay.
/// Composing any smooth motion with it keeps it C² and makes it exactly still at the start.
struct StaticStartWarp {
    /// Last time at which the warped clock is still 0 (the static start plus two knots, so that
    /// every spline segment up to the requested static start uses only identical control points).
    let stillUntil: Double
    /// Ramp duration (s).
    let blend: Double

    init(hold: Double, knotSpacing: Double) {
        stillUntil = hold > 0 ? hold + 2 * knotSpacing : -Double.infinity
        blend = 1.0
    }

    /// How much later the motion runs than without the static start.
    var delay: Double { stillUntil.isFinite ? stillUntil + blend / 2 : 0 }

    func callAsFunction(_ t: Double) -> Double {
        guard stillUntil.isFinite else { return t }
        if t <= stillUntil { return 0 }
        let x = (t - stillUntil) / blend
        if x >= 1 { return t - stillUntil - blend / 2 }
        let x4 = x * x * x * x
        return blend * (x4 * x * x - 3 * x4 * x + 2.5 * x4)
    }
}
