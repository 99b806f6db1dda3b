import Foundation
import ParallaxMath

/// A timestamped pose `T_world_body`, as read from a TUM or EuRoC trajectory file.
public struct PoseSample: Sendable, Equatable {
    /// Time in seconds.
    public var time: Double
    /// Pose of the body in the world.
    public var T_world_body: RigidTransform
    /// Creates a sample.
    public init(time: Double, T_world_body: RigidTransform) {
        self.time = time
        self.T_world_body = T_world_body
    }
}

/// How closely a spline follows the samples it was fitted to.
public struct SplineFitError: Sendable, CustomStringConvertible {
    /// Number of samples compared.
    public var count: Int
    /// RMS and maximum position error (m).
    public var positionRMS: Double, positionMax: Double
    /// RMS and maximum rotation error (rad).
    public var rotationRMS: Double, rotationMax: Double

    public var description: String {
        String(
            format: "%d samples: position RMS %.2f mm (max %.2f mm), rotation RMS %.3f° (max %.3f°)",
            count, positionRMS * 1000, positionMax * 1000, rotationRMS * 180 / .pi, rotationMax * 180 / .pi)
    }
}

/// Builds cumulative B-splines from poses: from samples of a real trajectory, or from a function.
///
/// Fitting strategy ("control points from samples"): the target pose at every control time is
/// interpolated from the samples (linear / slerp between neighbours); control points start at
/// those targets, then a fixed-point iteration moves each control point by the residual at its own
/// knot, `P_k ← P_k ⊞ (target_k ⊟ spline(τ_k))`, until the spline passes through every target.
/// For the position part this is the Jacobi iteration for the tridiagonal system
/// `(P_{k−1} + 4P_k + P_{k+1})/6 = target_k`, whose iteration matrix has spectral radius ≤ 1/3,
/// so it converges geometrically; the rotation part behaves the same way locally.
public enum SplineFitting {
    /// Fits an interpolating spline through `samples` (sorted by time, at least 2).
    /// - Parameters:
    ///   - knotSpacing: the spacing of control points (s); smaller follows faster motion but
    ///     also amplifies noise of the samples into the IMU.
    ///   - iterations: upper bound on fixed-point iterations (stops at 1e-9 m / 1e-9 rad).
    public static func fit(samples: [PoseSample], knotSpacing: Double, iterations: Int = 100) throws -> CumulativeBSpline {
        guard samples.count >= 2 else {
            throw SimulationError.invalidArgument("need at least 2 pose samples to fit a trajectory, got \(samples.count)")
        }
        for k in 1..<samples.count where !(samples[k].time > samples[k - 1].time) {
            throw SimulationError.invalidArgument(
                "pose samples must have strictly increasing times (sample \(k) at \(samples[k].time) s)")
        }
        let interpolator = SampleInterpolator(samples: samples)
        return try fit(
            start: samples[0].time, end: samples[samples.count - 1].time, knotSpacing: knotSpacing,
            iterations: iterations, target: interpolator.pose(at:))
    }

    /// Fits an interpolating spline through `target(t)` at the control times covering `[start, end]`.
    /// Control points whose time is at or before `frozenUntil` keep their initial value (used to
    /// keep a static start bit-exact).
    public static func fit(
        start: Double, end: Double, knotSpacing: Double, iterations: Int = 100, frozenUntil: Double = -.infinity,
        target: (Double) -> RigidTransform
    ) throws -> CumulativeBSpline {
        var spline = try approximate(start: start, end: end, knotSpacing: knotSpacing, target: target)
        let n = spline.controlPointCount
        let targets = (0..<n).map { target(spline.controlTime($0)) }
        for _ in 0..<iterations {
            var worst = 0.0
            // Residuals computed from the current spline for all knots first (Jacobi, not
            // Gauss–Seidel) so the update is independent of traversal order.
            var corrections = [(Vector3, Vector3)](repeating: (.zero, .zero), count: n)
            for k in 1..<(n - 1) {
                let current = spline.pose(at: spline.controlTime(k))
                let dp = targets[k].translation - current.translation
                let dr = (current.rotation.inverse * targets[k].rotation).rotationVector
                corrections[k] = (dp, dr)
                worst = max(worst, dp.norm, dr.norm)
            }
            corrections[0] = corrections[1]
            corrections[n - 1] = corrections[n - 2]
            for k in 0..<n where spline.controlTime(k) > frozenUntil {
                let p = spline.positions[k] + corrections[k].0
                let q = spline.rotations[k] * Quaternion(rotationVector: corrections[k].1)
                spline.setControlPoint(k, position: p, rotation: q)
            }
            if worst < 1e-9 { break }
        }
        return spline
    }

    /// A smoothing (non-interpolating) spline whose control points are `target` at the control
    /// times: the natural way to turn an analytic motion into a C² trajectory.
    public static func approximate(
        start: Double, end: Double, knotSpacing: Double, target: (Double) -> RigidTransform
    ) throws -> CumulativeBSpline {
        guard end > start, knotSpacing > 0 else {
            throw SimulationError.invalidArgument("trajectory needs end > start and knot spacing > 0 (got [\(start), \(end)], \(knotSpacing))")
        }
        let segments = Int(((end - start) / knotSpacing - 1e-9).rounded(.up))
        let n = max(segments, 1) + 3
        var positions: [Vector3] = []
        var rotations: [Quaternion] = []
        var previous: Quaternion? = nil
        for k in 0..<n {
            let pose = target(start + Double(k - 1) * knotSpacing)
            var q = pose.rotation.normalized
            // Keep consecutive quaternions in the same hemisphere (log takes the short arc anyway).
            if let prev = previous, (prev.w * q.w + prev.x * q.x + prev.y * q.y + prev.z * q.z) < 0 {
                q = Quaternion(w: -q.w, x: -q.x, y: -q.y, z: -q.z)
            }
            previous = q
            positions.append(pose.translation)
            rotations.append(q)
        }
        return try CumulativeBSpline(startTime: start, knotSpacing: knotSpacing, positions: positions, rotations: rotations)
    }

    /// Compares the spline with samples inside its time range.
    public static func error(of spline: CumulativeBSpline, against samples: [PoseSample]) -> SplineFitError {
        var count = 0
        var sp = 0.0, mp = 0.0, sr = 0.0, mr = 0.0
        for s in samples where s.time >= spline.startTime && s.time <= spline.endTime {
            let pose = spline.pose(at: s.time)
            let ep = (pose.translation - s.T_world_body.translation).norm
            let er = pose.rotation.angle(to: s.T_world_body.rotation)
            count += 1
            sp += ep * ep; sr += er * er
            mp = max(mp, ep); mr = max(mr, er)
        }
        let c = Double(max(count, 1))
        return SplineFitError(count: count, positionRMS: (sp / c).squareRoot(), positionMax: mp,
                              rotationRMS: (sr / c).squareRoot(), rotationMax: mr)
    }
}

/// Piecewise-linear (slerp for rotations) interpolation of sorted samples, clamped at the ends.
struct SampleInterpolator {
    let samples: [PoseSample]

    func pose(at t: Double) -> RigidTransform {
        if t <= samples[0].time { return samples[0].T_world_body }
        if t >= samples[samples.count - 1].time { return samples[samples.count - 1].T_world_body }
        // Binary search for the last sample at or before t.
        var lo = 0, hi = samples.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if samples[mid].time <= t { lo = mid } else { hi = mid }
        }
        let a = samples[lo], b = samples[hi]
        let s = (t - a.time) / (b.time - a.time)
        let p = a.T_world_body.translation + s * (b.T_world_body.translation - a.T_world_body.translation)
        let q = a.T_world_body.rotation.slerp(to: b.T_world_body.rotation, t: s)
        return RigidTransform(rotation: q, translation: p)
    }
}
