import Foundation
import ParallaxMath

/// The MSCKF measurement update (Mourikis & Roumeliotis, ICRA 2007, §III-D/E), one step per
/// ``UpdaterHelper`` function: for each feature, triangulate it from the window, linearise its
/// observations, project onto the left null space of the feature Jacobian so the feature position
/// leaves the problem, and gate with a χ² test; then compress all accepted features into one
/// system over the clones and apply a single EKF update through ``StateHelper``.
struct MSCKFUpdater {
    /// Measurement standard deviation in normalised image coordinates.
    let sigma: Double
    let chiSquaredProbability: Double
    /// Observations whose reprojection error exceeds this many σ are dropped before the update (a
    /// wrong stereo match or a KLT slip in one frame should not cost the whole track).
    var outlierSigmas: Double = 5
    /// Largest reprojection error (normalised units) a triangulated feature may keep after outlier
    /// removal; worse fits are not used.
    var maxTriangulationError: Double = 0.05
    /// Parallax (rad) below which a left-only track's measurement σ grows as (reference / parallax)²
    /// (``TrackerConfiguration/lowParallaxReference``); 0 leaves every track at σ.
    var lowParallaxReference: Double = 0
    /// The cameras' calibrated models, for the intrinsic blocks when the intrinsics are estimated.
    var lenses: [LensIntrinsics] = []

    /// Outcome counts for diagnostics and tracking-state decisions.
    struct Outcome {
        var used = 0
        var rejected = 0
        var failedTriangulation = 0
    }

    /// Updates `state` with `tracks`; returns counts and the triangulated positions of used features.
    func update(_ state: inout FilterState, tracks: [FeatureTrack]) -> (Outcome, [(Int, Vector3)]) {
        var outcome = Outcome()
        var points: [(Int, Vector3)] = []
        guard state.clones.count >= 2, !tracks.isEmpty else { return (outcome, points) }
        var cloneIndex: [Int: Int] = [:]
        for (k, c) in state.clones.enumerated() { cloneIndex[c.frame] = k }
        var compressor = MeasurementCompressor(blocks: state.calibrationBlocks + state.clones.count)
        let rig = state.rig
        let sigma2 = sigma * sigma

        for track in tracks {
            // Triangulate with the current clone estimates, dropping outlying rays (§III-C).
            var obs = track.observations.filter { cloneIndex[$0.frame] != nil }
            guard obs.count >= 2 else { continue }
            obs = obs.map { UpdaterHelper.modelled($0, state: state, lenses: lenses) }
            var poses = obs.compactMap { o in
                cloneIndex[o.frame].map { UpdaterHelper.rowPose(of: o, clone: state.clones[$0], readout: state.readout) }
            }
            guard let x = Triangulation.triangulateRobust(&obs, poses: &poses, rig: rig, maxErrorNormalized: maxTriangulationError,
                                                          outlierNormalized: outlierSigmas * sigma),
                  var f = UpdaterHelper.linearize(obs, point: x, cloneIndex: cloneIndex, state: state, lenses: lenses),
                  var (ho, ro) = UpdaterHelper.nullSpaceProject(hf: &f.hf, hx: &f.hx, r: &f.residual,
                                                                rows: f.rows, columns: f.columns) else {
                outcome.failedTriangulation += 1
                continue
            }
            if let w = lowParallaxWeight(obs, poses: poses, rig: rig), w < 1 {
                for i in ho.indices { ho[i] *= w }
                for i in ro.indices { ro[i] *= w }
            }
            let rows = f.rows - 3
            let columns = UpdaterHelper.CloneColumns(involved: f.involved)
            guard UpdaterHelper.passesChiSquared(h: ho, residual: ro, rows: rows, columns: columns, state: state,
                                                 noiseVariance: sigma2, probability: chiSquaredProbability) else {
                outcome.rejected += 1
                continue
            }
            compressor.accumulate(h: ho, residual: ro, rows: rows, columns: columns)
            outcome.used += 1
            points.append((track.id, x))
        }
        guard outcome.used > 0 else { return (outcome, points) }

        let (h, r) = compressor.compressed()
        // One range: the readout, the calibration blocks (if any), then the clones.
        let start = state.updateStart
        StateHelper.update(&state, jacobian: h, columns: start..<(start + compressor.dimension), residual: r,
                           noiseVariance: sigma2, structure: .upperTriangular)
        return (outcome, points)
    }

    /// Factor (≤ 1) on a track's whitened Jacobian and residual, (parallax / reference)², which
    /// multiplies its σ by (reference / parallax)²; nil for a track with a right observation (the
    /// baseline fixes its depth) or when the weighting is off.
    ///
    /// Why: a track whose rays barely diverge has a depth known to tens of per cent, and the
    /// Jacobians linearised at that depth tell the filter how the camera translated with more
    /// confidence than they carry. See ``TrackerConfiguration/lowParallaxReference``.
    private func lowParallaxWeight(_ obs: [Observation], poses: [(Matrix3, Vector3)], rig: CameraRig) -> Double? {
        guard lowParallaxReference > 0, obs.count >= 2, !obs.contains(where: { $0.right != nil }) else { return nil }
        let parallax = Triangulation.leftParallax(obs, poses: poses, rig: rig)
        guard parallax < lowParallaxReference else { return nil }
        let ratio = parallax / lowParallaxReference
        return ratio * ratio
    }

}
