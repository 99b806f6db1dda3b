import ParallaxMath

/// A running estimate of a stereo pair's epipolar geometry, refined from the left–right matches
/// themselves, so that ``StereoMatcher`` judges matches against the pair as it is rather than as
/// it was written down.
///
/// Why: the matcher keeps a left–right match only when it lies within 1 px of its epipolar line.
/// A calibration that is slightly off moves those lines: on EuRoC's pair, the euroc profile's
/// errors (0.15° per camera, 2.5 mm, 0.75 px) move them by about 1.6 px, so against the written
/// geometry the test keeps the true matches in only part of the image, and which part depends on
/// the error. The filter then estimates the extrinsics from a biased sample. Widening the test
/// lets repeated texture through instead (docs/tracking-design.md, "Fifth sweep").
///
/// The correction has five parameters: a rotation `φ` of the right camera, `R = Exp(φ) R₀`, and
/// two components `u` of the baseline's direction perpendicular to the written one,
/// `t = t₀ + |t₀| (u₁ b₁ + u₂ b₂)` (the baseline's length does not move an epipolar line).
/// Each frame's matches within ``fitGate`` of the current lines update it by a few Gauss–Newton
/// steps on their signed Sampson distances (Hartley & Zisserman, *Multiple View Geometry*, 2nd ed.,
/// §11.4.3) with Huber weights, against a prior that holds what earlier frames said. That prior's
/// information decays by ``forgetting`` per frame (a window of about 20 frames), so a few frames of
/// bad matches cannot lock it, and it never falls below the prior on the written calibration.
///
/// A wrong disparity — the neighbouring copy of a repeated texture — lies on the epipolar line and
/// so does not pull the fit; this is why the matches can calibrate the lines they are tested on.
public struct StereoEpipolarRefinement: Sendable {
    /// The written transform from the left to the right camera frame.
    public let nominal: RigidTransform
    /// Focal length (pixels) that turns normalised distances into pixels.
    public let focalLength: Double
    /// Standard deviation (pixels) of a match's distance to its true epipolar line.
    public var pixelSigma = 0.5
    /// Prior standard deviation (radians) of each component of the rotation correction.
    public var rotationPriorSigma = 0.02
    /// Prior standard deviation (radians) of the baseline's direction.
    public var translationPriorSigma = 0.05
    /// Matches farther than this (pixels) from the current lines do not enter the fit.
    public var fitGate = 4.0
    /// The fit gate (pixels) of the first ``initialUpdates`` frames, wide enough for twice the
    /// euroc profile's calibration error (about 5 px on EuRoC's pair).
    public var initialFitGate = 12.0
    /// Frames that use ``initialFitGate``.
    public var initialUpdates = 5
    /// Huber threshold (pixels).
    public var huber = 1.0
    /// Share of the accumulated information a frame keeps for the next.
    public var forgetting = 0.95
    /// Fewest matches in the fit gate for a frame to update the estimate.
    public var minimumMatches = 20

    /// The current correction: rotation (radians) then baseline direction.
    public private(set) var correction: [Double] = [0, 0, 0, 0, 0]
    /// The current estimate of the left-to-right transform (baseline length as written).
    public private(set) var transform: RigidTransform
    /// `E = [t]× R` of ``transform``.
    public private(set) var essential: Matrix3
    /// Frames that updated the estimate.
    public private(set) var updates = 0

    /// Accumulated information (5×5, row-major) beyond the prior.
    private var information = [Double](repeating: 0, count: 25)
    private let basis: (Vector3, Vector3)

    /// Starts from the written geometry.
    public init(nominal: RigidTransform, focalLength: Double) {
        self.nominal = nominal
        self.focalLength = focalLength
        transform = nominal
        essential = Matrix3.skew(nominal.translation) * nominal.rotationMatrix
        let t = nominal.translation.norm > 0 ? nominal.translation.normalized : Vector3(1, 0, 0)
        // Any unit vector perpendicular to the baseline, then the third axis.
        let helper = abs(t.x) < 0.9 ? Vector3(1, 0, 0) : Vector3(0, 1, 0)
        let b1 = t.cross(helper).normalized
        basis = (b1, t.cross(b1))
    }

    /// The rotation correction's angle (degrees).
    public var rotationCorrectionDegrees: Double {
        Vector3(correction[0], correction[1], correction[2]).norm * 180 / .pi
    }

    /// Signed distance (pixels) of a left/right pair of normalised points to the current geometry.
    public func signedError(leftNormalized a: Vector2, rightNormalized b: Vector2) -> Double {
        Self.sampson(essential, a, b) * focalLength
    }

    /// Updates the estimate from one frame's left/right matches (normalised coordinates).
    public mutating func update(left: [Vector2], right: [Vector2]) {
        precondition(left.count == right.count, "one right point per left point")
        var a: [Vector2] = [], b: [Vector2] = []
        let gate = updates < initialUpdates ? initialFitGate : fitGate
        for k in left.indices where abs(signedError(leftNormalized: left[k], rightNormalized: right[k])) <= gate {
            a.append(left[k])
            b.append(right[k])
        }
        for k in information.indices { information[k] *= forgetting }
        guard a.count >= minimumMatches else { return }

        let previous = correction
        var x = correction
        var h = [Double](repeating: 0, count: 25)
        let step = 1e-7
        for _ in 0..<3 {
            // Prior: the decayed information about the previous estimate, plus the written one's.
            let priorSigmas = [rotationPriorSigma, rotationPriorSigma, rotationPriorSigma,
                               translationPriorSigma, translationPriorSigma]
            h = information
            var g = [Double](repeating: 0, count: 5)
            for i in 0..<5 {
                for j in 0..<5 { g[i] += information[i * 5 + j] * (x[j] - previous[j]) }
                let w = 1 / (priorSigmas[i] * priorSigmas[i])
                h[i * 5 + i] += w
                g[i] += w * x[i]
            }
            let e0 = essentialMatrix(x)
            let perturbed = (0..<5).map { j -> Matrix3 in
                var y = x
                y[j] += step
                return essentialMatrix(y)
            }
            let s2 = pixelSigma * pixelSigma
            for k in a.indices {
                let r = Self.sampson(e0, a[k], b[k]) * focalLength
                let w = abs(r) <= huber ? 1 : huber / abs(r)
                let jac = perturbed.map { (Self.sampson($0, a[k], b[k]) * focalLength - r) / step }
                for i in 0..<5 {
                    g[i] += w * jac[i] * r / s2
                    for j in 0...i { h[i * 5 + j] += w * jac[i] * jac[j] / s2 }
                }
            }
            for i in 0..<5 { for j in 0..<i { h[j * 5 + i] = h[i * 5 + j] } }
            var l = h
            guard Dense.cholesky(&l, n: 5) else { return }
            var dx = g
            Dense.forwardSubstitute(l, n: 5, &dx)
            Dense.backSubstitute(l, n: 5, &dx)
            for i in 0..<5 { x[i] -= dx[i] }
        }
        guard x.allSatisfy(\.isFinite) else { return }
        // What this frame's matches added stays as information about the new estimate.
        information = h
        let priorSigmas = [rotationPriorSigma, rotationPriorSigma, rotationPriorSigma,
                           translationPriorSigma, translationPriorSigma]
        for i in 0..<5 { information[i * 5 + i] -= 1 / (priorSigmas[i] * priorSigmas[i]) }
        correction = x
        transform = transformOf(x)
        essential = essentialMatrix(x)
        updates += 1
    }

    /// Rotation and translation of the correction `x`.
    private func parts(_ x: [Double]) -> (rotation: Matrix3, translation: Vector3) {
        let R = SO3.exp(Vector3(x[0], x[1], x[2])) * nominal.rotationMatrix
        let length = nominal.translation.norm
        let t = nominal.translation + (basis.0 * x[3] + basis.1 * x[4]) * length
        return (R, t * (length / max(t.norm, 1e-12)))
    }

    private func transformOf(_ x: [Double]) -> RigidTransform {
        let p = parts(x)
        return RigidTransform(rotationMatrix: p.rotation, translation: p.translation)
    }

    private func essentialMatrix(_ x: [Double]) -> Matrix3 {
        let p = parts(x)
        return Matrix3.skew(p.translation) * p.rotation
    }

    /// Signed Sampson distance (normalised units) of `a` (left) and `b` (right) to `E`.
    static func sampson(_ E: Matrix3, _ a: Vector2, _ b: Vector2) -> Double {
        let x1 = Vector3(a.x, a.y, 1), x2 = Vector3(b.x, b.y, 1)
        let l2 = E * x1, l1 = E.transpose * x2
        let den = l2.x * l2.x + l2.y * l2.y + l1.x * l1.x + l1.y * l1.y
        return den > 0 ? x2.dot(l2) / den.squareRoot() : .infinity
    }
}
