import ParallaxMath
import ParallaxVision

/// Finds a rolling-shutter camera's readout time when the calibration does not state it
/// (no `line_delay` in `sensor.yaml`: most phone recordings), from the gyro and the feature tracks
/// of consecutive frames.
///
/// **The signal.** Row v of a frame is read δ_v = (v − v_mid)·ℓ after the frame time (ℓ the line
/// delay). Between two frames the camera turns by the gyro's rotation over the frame interval,
/// but row v of each frame is seen δ_v later than the middle row, so a feature there moved as if
/// the camera had turned by that rotation plus about (ω_{k+1} − ω_k)·δ_v. Undoing each row's
/// rotation with a candidate ℓ (``RollingShutterCorrection``) and testing the two views against the
/// epipolar constraint with the gyro's rotation and the best translation direction, the right ℓ
/// leaves the smallest residuals; a global-shutter camera is best at ℓ = 0. Each frame pair adds
/// its residuals at every candidate; pairs without a change of turn rate carry little and are
/// skipped. Two-view epipolar geometry with a known rotation leaves only the translation direction
/// free (the least-squares direction is the null vector of Σ aᵢaᵢᵀ, aᵢ = x′ᵢ × R xᵢ), so depth,
/// which the filter does not yet know at the start, never enters.
///
/// The estimate is first given after ``minimumPairs`` informative pairs and refined with every
/// pair until ``finalPairs``, then fixed: the candidate with the least accumulated cost, refined by
/// a parabola through its neighbours, kept when it beats the global-shutter hypothesis clearly
/// (``minimumImprovement``) and is at least ``minimumReadout``; otherwise 0 (global shutter). An
/// early answer matters more than a late exact one: every frame before it feeds the filter
/// uncorrected observations. The tracker hands the first estimate to the filter as the prior of
/// its readout state, which the feature updates refine (``FilterState/readout``): on the hidden-
/// timing phone walks this estimator settles at 16.2–19.2 ms for a true 20 ms, the filter at
/// 18.7–19.9 ms. Each pair's features are judged against the current best candidate's
/// residuals (outliers beyond 6× the median dropped), not the global shutter's, which would drop
/// the top and bottom rows — where a rolling shutter shows most — and bias the estimate low.
struct ReadoutEstimator {
    /// Candidate readouts (s), top row to bottom.
    let candidates: [Double]
    /// Rows in the image (the readout spans them).
    let height: Int
    /// Informative frame pairs before the first estimate (an early, rough answer beats none: the
    /// frames before it feed the filter uncorrected rows) …
    var minimumPairs = 8
    /// … and before the estimate is fixed. 15 / 80 gave the hidden-timing phone walks and two
    /// stress sets 37.9 cm in sum; 8 / 150 gives 33.2 cm, global-shutter sets unchanged.
    var finalPairs = 150
    /// Smallest change of turn rate (rad/s) between two frames for the pair to count.
    var minimumRateChange = 0.15
    /// Smallest decided readout (s); below it the camera is taken as global shutter.
    var minimumReadout = 0.003
    /// The best candidate's cost must be below this fraction of the global-shutter cost.
    var minimumImprovement = 0.97
    /// Features needed in both frames.
    var minimumFeatures = 20

    private(set) var costs: [Double]
    private(set) var pairs = 0
    /// The current estimate: nil before ``minimumPairs``; then the readout (s), 0 for a global shutter.
    private(set) var estimate: Double?
    /// True once ``finalPairs`` pairs have been added: the estimate no longer changes.
    var isFinal: Bool { pairs >= finalPairs }

    /// An estimator over readouts 0…`maximumReadout` in `step`s for images `height` rows high.
    init(height: Int, maximumReadout: Double = 0.04, step: Double = 0.002) {
        self.height = height
        let count = Int((maximumReadout / step).rounded()) + 1
        candidates = (0..<count).map { Double($0) * step }
        costs = [Double](repeating: 0, count: count)
    }

    /// Line delay (s per row) of a readout.
    func lineDelay(readout: Double) -> Double { readout / Double(height) }

    /// Adds one frame pair: the features seen in both (normalised coordinates and image rows, in
    /// the previous and the current frame, uncorrected), each frame's camera turn rate (cam0 frame,
    /// rad/s, bias removed) and the gyro's camera rotation between the frame times
    /// (`p_cur = R_cur_prev · p_prev`). Returns the current estimate.
    @discardableResult
    mutating func add(previous: [(normalized: Vector2, row: Double)], current: [(normalized: Vector2, row: Double)],
                      ratePrevious: Vector3, rateCurrent: Vector3, rotation R_cur_prev: Matrix3) -> Double? {
        guard !isFinal, previous.count == current.count, current.count >= minimumFeatures,
              (rateCurrent - ratePrevious).norm >= minimumRateChange else { return estimate }
        let middle = Double(height - 1) / 2
        func corrected(_ n: Vector2, row: Double, rate: Vector3, lineDelay: Double) -> Vector3 {
            RollingShutterCorrection.turnedBearing(n, by: rate * ((row - middle) * lineDelay))
        }
        func epipolar(_ i: Int, lineDelay l: Double) -> Vector3 {
            corrected(current[i].normalized, row: current[i].row, rate: rateCurrent, lineDelay: l)
                .cross(R_cur_prev * corrected(previous[i].normalized, row: previous[i].row, rate: ratePrevious, lineDelay: l))
        }
        // Inliers under the current best candidate, kept fixed across the candidates so that each
        // candidate is judged on the same features.
        let hypothesis = lineDelay(readout: pairs > 0 ? candidates[bestIndex] : 0)
        guard let (_, residuals) = Self.fit(current.indices.map { epipolar($0, lineDelay: hypothesis) }) else { return estimate }
        let sortedResiduals = residuals.map(abs).sorted()
        let limit = 6 * max(sortedResiduals[sortedResiduals.count / 2], 1e-9)
        let kept = current.indices.filter { abs(residuals[$0]) <= limit }
        guard kept.count >= minimumFeatures else { return estimate }
        var pairCosts: [Double] = []
        for readout in candidates {
            let l = lineDelay(readout: readout)
            guard let (cost, _) = Self.fit(kept.map { epipolar($0, lineDelay: l) }) else { return estimate }
            pairCosts.append(cost)
        }
        for k in costs.indices { costs[k] += pairCosts[k] }
        pairs += 1
        if pairs >= minimumPairs { estimate = bestReadout() }
        return estimate
    }

    /// The least-squares translation direction for epipolar vectors `a` (null vector of Σ aaᵀ):
    /// the summed squared residual and each residual.
    static func fit(_ a: [Vector3]) -> (Double, [Double])? {
        var m = Matrix3(diagonal: .zero)
        for v in a { m = m + Matrix3.outer(v, v) }
        let (_, s, v) = m.svd()
        let values = [abs(s.x), abs(s.y), abs(s.z)]
        guard let smallest = values.indices.min(by: { values[$0] < values[$1] }), values.allSatisfy(\.isFinite) else { return nil }
        let t = v.column(smallest)
        let residuals = a.map { t.dot($0) }
        return (residuals.reduce(0) { $0 + $1 * $1 }, residuals)
    }

    /// The candidate with the least accumulated cost (0 before any pair).
    private var bestIndex: Int { costs.indices.min(by: { costs[$0] < costs[$1] }) ?? 0 }

    private func bestReadout() -> Double {
        let best = bestIndex
        guard costs[0] > 0 else { return 0 }
        var readout = candidates[best]
        if best > 0, best < costs.count - 1 {
            let (a, b, c) = (costs[best - 1], costs[best], costs[best + 1])
            let curvature = a - 2 * b + c
            if curvature > 0 { readout += 0.5 * (a - c) / curvature * (candidates[1] - candidates[0]) }
        }
        let improves = costs[best] <= minimumImprovement * costs[0]
        return improves && readout >= minimumReadout ? readout : 0
    }
}
