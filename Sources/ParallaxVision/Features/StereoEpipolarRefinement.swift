import ParallaxMath

/// A running estimate of a stereo pair's epipolar geometry, refined from the left–right matches
/// themselves, so that ``StereoMatcher`` judges matches against the pair as it is rather than as
/// it was written down.
///
/// Why: the matcher keeps a left–right match only when it lies within 1 px of its epipolar line.
/// A calibration that is slightly off moves those lines: the euroc profile's errors (0.15° and
/// 2.5 mm per camera, 0.75 px, 0.15 % focal) move EuRoC's by 1–3 px. Against the written geometry
/// the test keeps the true matches only where the error moves the lines least, and the filter
/// then estimates the extrinsics from that biased sample. Widening the test lets repeated texture
/// through instead (docs/tracking-design.md, "Epipolar lines refined from the matches").
///
/// The correction is a rotation `φ` of the right camera, `R = Exp(φ) R₀`, with the baseline as
/// written. A rotation moves every line alike whatever the depth, and it absorbs most of what
/// principal-point and focal errors do to the lines. The baseline's direction, which moves lines in
/// proportion to disparity, was tried as two more parameters: on 21 stereo sets it gave 25.70 cm
/// summed ATE, the rotation alone 25.14 cm, on seven new ones 6.89 against 5.85 cm (on the hall
/// walks the extra freedom soaked up what the model cannot express, leaning 16° off).
///
/// Each frame's matches within ``fitGate`` of the current lines update the rotation by a few
/// Gauss–Newton steps on their signed Sampson distances (Hartley & Zisserman, *Multiple View
/// Geometry*, 2nd ed., §11.4.3) with Huber weights, against a prior that holds what earlier frames
/// said. That prior's information decays by ``forgetting`` per frame (a window of about 20 frames),
/// so a few frames of bad matches cannot lock it, and a weak prior on the written calibration
/// stays under it.
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
    /// Prior standard deviation (radians) of each component of the correction.
    public var priorSigma = 0.02
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

    /// The current correction `φ` (radians) of the right camera's rotation.
    public private(set) var correction = Vector3.zero
    /// `E = [t]× R` of ``transform``, kept because every match is tested against it.
    public private(set) var essential: Matrix3
    /// Frames that updated the estimate.
    public private(set) var updates = 0

    /// Information (3×3, row-major) that earlier frames gave, beyond the prior.
    private var information = [Double](repeating: 0, count: 9)

    /// Starts from the written geometry.
    public init(nominal: RigidTransform, focalLength: Double) {
        self.nominal = nominal
        self.focalLength = focalLength
        essential = Matrix3.skew(nominal.translation) * nominal.rotationMatrix
    }

    /// The current estimate of the left-to-right transform (the baseline as written).
    public var transform: RigidTransform {
        RigidTransform(rotationMatrix: rotation([correction.x, correction.y, correction.z]), translation: nominal.translation)
    }

    /// The correction's angle (degrees).
    public var correctionDegrees: Double { correction.norm * 180 / .pi }

    /// Signed distance (pixels) of a left/right pair of normalised points to the current geometry.
    public func signedError(leftNormalized a: Vector2, rightNormalized b: Vector2) -> Double {
        SampsonDistance.signed(essential, a, b) * focalLength
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

        let previous = [correction.x, correction.y, correction.z]
        let priorWeight = 1 / (priorSigma * priorSigma)
        let s2 = pixelSigma * pixelSigma
        let step = 1e-7
        var x = previous
        var h = information
        for _ in 0..<3 {
            // Earlier frames' information about the previous estimate, plus the written one's prior.
            h = information
            var g = [Double](repeating: 0, count: 3)
            for i in 0..<3 {
                for j in 0..<3 { g[i] += information[i * 3 + j] * (x[j] - previous[j]) }
                h[i * 3 + i] += priorWeight
                g[i] += priorWeight * x[i]
            }
            let e0 = essentialMatrix(x)
            let perturbed = (0..<3).map { j -> Matrix3 in
                var y = x
                y[j] += step
                return essentialMatrix(y)
            }
            for k in a.indices {
                let r = SampsonDistance.signed(e0, a[k], b[k]) * focalLength
                let w = abs(r) <= huber ? 1 : huber / abs(r)
                func derivative(_ j: Int) -> Double { (SampsonDistance.signed(perturbed[j], a[k], b[k]) * focalLength - r) / step }
                let jac = Vector3(derivative(0), derivative(1), derivative(2))
                for i in 0..<3 {
                    g[i] += w * jac[i] * r / s2
                    for j in 0...i { h[i * 3 + j] += w * jac[i] * jac[j] / s2 }
                }
            }
            for i in 0..<3 { for j in 0..<i { h[j * 3 + i] = h[i * 3 + j] } }
            var l = h
            guard Dense.cholesky(&l, n: 3) else { return }
            var dx = g
            Dense.forwardSubstitute(l, n: 3, &dx)
            Dense.backSubstitute(l, n: 3, &dx)
            for i in 0..<3 { x[i] -= dx[i] }
        }
        guard x.allSatisfy(\.isFinite) else { return }
        // What this frame's matches added stays as information about the new estimate.
        information = h
        for i in 0..<3 { information[i * 3 + i] -= priorWeight }
        correction = Vector3(x[0], x[1], x[2])
        essential = essentialMatrix(x)
        updates += 1
    }

    /// The right camera's rotation under the correction `x`.
    private func rotation(_ x: [Double]) -> Matrix3 {
        SO3.exp(Vector3(x[0], x[1], x[2])) * nominal.rotationMatrix
    }

    private func essentialMatrix(_ x: [Double]) -> Matrix3 {
        Matrix3.skew(nominal.translation) * rotation(x)
    }
}
