import ParallaxMath

/// Left→right feature matching for a calibrated stereo pair: pyramidal KLT from the left
/// to the right image, seeded by the calibrated extrinsics, then a forward–backward check
/// and an epipolar check. The epipolar check starts from the written `T_right_left` (for EuRoC
/// `T_cam1_cam0`) and, by default, follows the pair's geometry as the matches themselves refine
/// it (``StereoEpipolarRefinement``): a calibration 0.15° off moves EuRoC's epipolar lines by
/// more than the check's 1 px.
///
/// The initial guess for a feature without history is the projection into the right
/// camera of its left ray at ``nominalDepth``; a feature matched in the previous frame can
/// pass its previous right position moved by its left motion, which is much closer.
///
/// The epipolar check cannot see an error along the epipolar line — a wrong disparity, which
/// is a wrong depth. On repeated texture (tiles, panels, windows along a hall) KLT started from
/// one depth guess happily locks onto the neighbouring copy: on the simulated hall walk one
/// match in five was off by more than 2 px before the checks below. A feature without history
/// is therefore also tracked from the guesses at ``alternativeDepths``, and the match is dropped
/// when more of the starts that converge land elsewhere (beyond ``maxHypothesisSpread``) than on
/// it; matches must also lie in front of both cameras.
public struct StereoMatcher: Sendable {
    /// Left camera model.
    public let left: any CameraModel
    /// Right camera model.
    public let right: any CameraModel
    /// Maps points from the left camera frame into the right camera frame.
    public let T_right_left: RigidTransform
    /// Depth (metres) used to predict the right position of a feature with no history.
    public var nominalDepth: Double
    /// Maximum Sampson distance to the epipolar line (pixels, right image focal length), against
    /// the refined geometry when there is one.
    public var maxEpipolarError: Double
    /// Maximum forward–backward error (pixels).
    public var maxForwardBackwardError: Double
    /// The KLT used between the two images.
    public var tracker: LucasKanadeTracker
    /// Further depths (metres) a feature without history is matched from; empty disables the
    /// agreement check.
    public var alternativeDepths: [Double] = [1, 12]
    /// Largest distance (pixels) between the results of the different starts of one feature.
    public var maxHypothesisSpread: Double = 1.0
    /// Smallest depth (metres) a match may imply.
    public var minimumDepth: Double = 0.1

    /// The essential matrix `E = [t]× R` with `x_rightᵀ E x_left = 0` on normalised points, from
    /// the written extrinsics.
    public let essential: Matrix3
    /// The epipolar geometry refined from the matches (``StereoEpipolarRefinement``); nil tests
    /// every match against the written ``essential``.
    public var refinement: StereoEpipolarRefinement?

    /// Creates a matcher from both camera models and the stereo extrinsics; `refinesGeometry`
    /// false keeps the epipolar check on the written extrinsics.
    public init(left: any CameraModel, right: any CameraModel, T_right_left: RigidTransform,
                nominalDepth: Double = 3, maxEpipolarError: Double = 1.0,
                maxForwardBackwardError: Double = 0.5,
                tracker: LucasKanadeTracker = LucasKanadeTracker(levels: 3), refinesGeometry: Bool = true) {
        self.left = left
        self.right = right
        self.T_right_left = T_right_left
        self.nominalDepth = nominalDepth
        self.maxEpipolarError = maxEpipolarError
        self.maxForwardBackwardError = maxForwardBackwardError
        self.tracker = tracker
        essential = Matrix3.skew(T_right_left.translation) * T_right_left.rotationMatrix
        refinement = refinesGeometry
            ? StereoEpipolarRefinement(nominal: T_right_left, focalLength: 0.5 * (right.fx + right.fy)) : nil
    }

    /// Predicted right pixel of a left pixel at ``nominalDepth`` (nil if it projects outside).
    public func predictRight(_ uvLeft: Vector2) -> Vector2? {
        predictRight(uvLeft, depth: nominalDepth)
    }

    /// Predicted right pixel of a left pixel at `depth` metres (nil if it projects outside).
    public func predictRight(_ uvLeft: Vector2, depth: Double) -> Vector2? {
        let b = left.unproject(uvLeft)
        guard b.z > 1e-6 else { return nil }
        let p = T_right_left * (b * (depth / b.z))
        return right.project(p)
    }

    /// Depth (metres, along the left camera's z) of the point seen at normalised `a` (left) and
    /// `b` (right), from the two-ray midpoint; negative when the point lies behind either camera,
    /// nil for parallel rays.
    public func depth(leftNormalized a: Vector2, rightNormalized b: Vector2) -> Double? {
        // Left ray d₀ from the origin, right ray d₁ from the right centre c, all in the left frame.
        let rT = T_right_left.rotationMatrix.transpose
        let c = rT * (-T_right_left.translation)
        let d0 = Vector3(a.x, a.y, 1), d1 = rT * Vector3(b.x, b.y, 1)
        // Least squares for λ₀ d₀ − λ₁ d₁ = c.
        let a00 = d0.dot(d0), a01 = -d0.dot(d1), a11 = d1.dot(d1)
        let det = a00 * a11 - a01 * a01
        guard abs(det) > 1e-12 else { return nil }
        let r0 = d0.dot(c), r1 = -d1.dot(c)
        let l0 = (a11 * r0 - a01 * r1) / det
        let l1 = (a00 * r1 - a01 * r0) / det
        // λ₁ must be positive too: the point lies in front of the right camera.
        return l1 > 0 ? l0 : -1
    }

    /// Sampson distance (pixels) of a left/right pair of normalised points to the epipolar
    /// geometry: the refined one when the matcher refines it, else the written one.
    public func epipolarError(leftNormalized a: Vector2, rightNormalized b: Vector2) -> Double {
        let f = 0.5 * (right.fx + right.fy)
        return abs(SampsonDistance.signed(refinement?.essential ?? essential, a, b)) * f
    }

    /// Matches `points` (left pixels) into the right image. `guesses` (optional, one per
    /// point, `nil` entries allowed) override the nominal-depth prediction. Returns the
    /// right pixel and its normalised coordinates, or `nil` where matching failed. The matches
    /// that KLT found update ``refinement`` before the epipolar check uses it.
    public mutating func match(left leftPyramid: ImagePyramid, right rightPyramid: ImagePyramid,
                      points: [Vector2], leftNormalized: [Vector2],
                      guesses: [Vector2?]? = nil) -> [(pixel: Vector2, normalized: Vector2)?] {
        precondition(points.count == leftNormalized.count, "one normalised point per pixel")
        var idx: [Int] = [], pts: [Vector2] = [], init0: [Vector2] = []
        for k in 0..<points.count {
            guard let g = guesses?[k] ?? predictRight(points[k]) else { continue }
            idx.append(k)
            pts.append(points[k])
            init0.append(g)
        }
        var tracked = tracker.trackChecked(from: leftPyramid, to: rightPyramid, points: pts,
                                           guesses: init0,
                                           maxForwardBackwardError: maxForwardBackwardError)
        // Features without history: track from the other depth guesses too and drop the answer
        // when more converging starts land elsewhere than on it.
        let fresh = idx.indices.filter { j in tracked[j] != nil && guesses?[idx[j]] == nil }
        if !fresh.isEmpty, !alternativeDepths.isEmpty {
            var votes = [Int](repeating: 0, count: idx.count)   // agreeing minus disagreeing starts
            for depth in alternativeDepths {
                var starts: [Vector2] = [], owners: [Int] = []
                for j in fresh {
                    guard let g = predictRight(pts[j], depth: depth) else { continue }
                    starts.append(g)
                    owners.append(j)
                }
                let other = tracker.trackChecked(from: leftPyramid, to: rightPyramid, points: owners.map { pts[$0] },
                                                 guesses: starts, maxForwardBackwardError: maxForwardBackwardError)
                for (m, j) in owners.enumerated() {
                    guard let a = tracked[j], let b = other[m] else { continue }
                    votes[j] += (a - b).norm > maxHypothesisSpread ? -1 : 1
                }
            }
            for j in fresh where votes[j] < 0 { tracked[j] = nil }
        }
        var candidates: [(k: Int, pixel: Vector2, normalized: Vector2)] = []
        for (j, k) in idx.enumerated() {
            guard let r = tracked[j] else { continue }
            let b = right.unproject(r)
            guard b.z > 1e-6 else { continue }
            candidates.append((k, r, Vector2(b.x / b.z, b.y / b.z)))
        }
        // This frame's candidates refine the lines they are then tested against.
        refinement?.update(left: candidates.map { leftNormalized[$0.k] }, right: candidates.map(\.normalized))
        var out = [(pixel: Vector2, normalized: Vector2)?](repeating: nil, count: points.count)
        for (k, r, n) in candidates {
            guard epipolarError(leftNormalized: leftNormalized[k], rightNormalized: n) <= maxEpipolarError,
                  let z = depth(leftNormalized: leftNormalized[k], rightNormalized: n), z >= minimumDepth
            else { continue }
            out[k] = (r, n)
        }
        return out
    }
}
