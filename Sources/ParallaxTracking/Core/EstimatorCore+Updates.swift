import ParallaxMath
import ParallaxVision

extension EstimatorCore {
    /// True when the image content has not moved since the previous frame: the median feature
    /// displacement is below `configuration.stationaryPixelThreshold` over enough features.
    func isStationary(_ frame: FeatureFrame) -> Bool {
        var d: [Double] = []
        d.reserveCapacity(frame.features.count)
        for f in frame.features { if let p = memory.previousPixels[f.id] { d.append((f.pixel - p).norm) } }
        guard d.count >= configuration.minimumFeatures else { return false }
        d.sort()
        return d[d.count / 2] < configuration.stationaryPixelThreshold
    }

    /// The tracks to use this frame (OpenVINS's choice): every lost track long enough to
    /// triangulate, plus up to `maxWindowTracksPerUpdate` of the longest still-tracked ones that
    /// reach back to the clone about to be marginalised. The chosen window tracks are consumed;
    /// the lost ones are dropped from the database.
    mutating func selectTracksForUpdate(_ s: FilterState, currentIDs: Set<Int>) -> [FeatureTrack] {
        let minFrames = isStereo ? 2 : 3
        let lost = features.lostTracks(currentIDs: currentIDs)
        var selected = lost.filter { $0.observations.count >= minFrames }
        if s.clones.count > configuration.windowSize, let oldest = s.clones.first?.frame {
            // Bounds the cost of frames where many tracks started together (after initialisation);
            // the others only lose their oldest observation at marginalisation.
            var spanning = features.tracksStarting(atFrame: oldest, currentIDs: currentIDs)
                .filter { $0.observations.count >= minFrames }
            spanning.sort { ($0.observations.count, $1.id) > ($1.observations.count, $0.id) }
            for t in spanning.prefix(configuration.maxWindowTracksPerUpdate) {
                selected.append(t)
                features.consume(t.id)
            }
        }
        features.remove(lost.map(\.id))
        return selected
    }

    /// Chooses the tracks to use this frame, updates, and marginalises the oldest clones when full.
    mutating func runUpdates(_ s: inout FilterState, current frame: FeatureFrame) {
        let currentIDs = Set(frame.features.map(\.id))
        let selected = selectTracksForUpdate(s, currentIDs: currentIDs)
        if !selected.isEmpty {
            let sigma = configuration.pixelNoiseSigma / (0.5 * (camera0Model.fx + camera0Model.fy))
            var updater = MSCKFUpdater(rig: rig, sigma: sigma, chiSquaredProbability: configuration.chiSquaredProbability)
            updater.outlierSigmas = configuration.outlierSigmas
            updater.maxTriangulationError = configuration.maxTriangulationError
            let (outcome, _) = updater.update(&s, tracks: selected)
            recordUpdate(used: outcome.used, rejected: outcome.rejected)
        }
        while s.clones.count > configuration.windowSize {
            let gone = s.clones[0].frame
            StateHelper.marginalizeClone(&s, at: 0)
            features.removeObservations(ofFrame: gone, currentIDs: currentIDs)
        }
    }

    /// Well-triangulated currently tracked features, for the AR layer (planes, hit tests).
    func featurePoints(_ frame: FeatureFrame?) -> [TrackedFeaturePoint] {
        guard let frame, let s = state else { return [] }
        var cloneByFrame: [Int: Clone] = [:]
        for c in s.clones { cloneByFrame[c.frame] = c }
        var out: [TrackedFeaturePoint] = []
        for f in frame.features {
            guard let t = features.track(f.id) else { continue }
            var obs: [Observation] = [], poses: [(Matrix3, Vector3)] = []
            for o in t.observations {
                guard let c = cloneByFrame[o.frame] else { continue }
                obs.append(o)
                poses.append((c.rotation, c.position))
            }
            guard obs.count >= 2 || (obs.count == 1 && obs[0].right != nil) else { continue }
            if let x = Triangulation.triangulate(obs, poses: poses, rig: rig, iterations: 3,
                                                 minParallax: configuration.featurePointMinParallax) {
                out.append(TrackedFeaturePoint(id: f.id, position_world: x))
            }
        }
        return out
    }
}
