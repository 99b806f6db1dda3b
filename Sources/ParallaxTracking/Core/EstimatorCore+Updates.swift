import ParallaxMath
import ParallaxVision

extension EstimatorCore {
    /// How the image moved since the previous frame, over the features seen in both (nil when
    /// fewer than `configuration.minimumFeatures`). `rotation` is the gyro-predicted cam0 rotation
    /// (`p_cur = R p_prev`); without it nothing is derotated.
    func imageMotion(_ frame: FeatureFrame, rotation: Matrix3?) -> ImageMotion? {
        var raw: [Double] = [], derotated: [Double] = []
        raw.reserveCapacity(frame.features.count)
        derotated.reserveCapacity(frame.features.count)
        let focal = camera0MeanFocal
        for f in frame.features {
            guard let p = memory.previousPixels[f.id] else { continue }
            raw.append((f.pixel - p.pixel).norm)
            var predicted = p.normalized
            if let rotation {
                let b = rotation * Vector3(p.normalized.x, p.normalized.y, 1)
                if b.z > 1e-6 { predicted = Vector2(b.x / b.z, b.y / b.z) }
            }
            derotated.append((f.normalized - predicted).norm * focal)
        }
        guard raw.count >= configuration.minimumFeatures else { return nil }
        raw.sort()
        derotated.sort()
        return ImageMotion(median: raw[raw.count / 2], derotatedMedian: derotated[derotated.count / 2],
                           turn: rotation.map { SO3.log($0).norm * focal } ?? 0)
    }

    /// No visual information on translation lately: no track was used for a few frames, or the
    /// velocity is still uncertain; never within ``TrackerConfiguration/holdPauseAfterAlignment``
    /// of a start whose velocity the alignment measured.
    func lacksTranslationConstraint(_ s: FilterState) -> Bool {
        if let aligned = startup.alignedStartTime, s.timestamp - aligned < configuration.holdPauseAfterAlignment {
            return false
        }
        return health.framesSinceTrackUpdate >= configuration.handheldHoldAfterFrames
            || s.velocitySigma > configuration.convergedVelocitySigma
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

    /// The image noise σ in normalised coordinates (pixels over cam0's mean focal length): the
    /// updater's measurement noise and the feature points' triangulation noise.
    var normalizedPixelNoise: Double { configuration.pixelNoiseSigma / camera0MeanFocal }

    /// cam0's mean focal length (px): converts normalised image distances to pixels.
    var camera0MeanFocal: Double { 0.5 * (camera0Model.fx + camera0Model.fy) }

    /// Chooses the tracks to use this frame, updates, and marginalises the oldest clones when full.
    mutating func runUpdates(_ s: inout FilterState, current frame: FeatureFrame) {
        let currentIDs = Set(frame.features.map(\.id))
        let selected = selectTracksForUpdate(s, currentIDs: currentIDs)
        if !selected.isEmpty {
            var updater = MSCKFUpdater(sigma: normalizedPixelNoise, chiSquaredProbability: configuration.chiSquaredProbability)
            updater.outlierSigmas = configuration.outlierSigmas
            updater.maxTriangulationError = configuration.maxTriangulationError
            if s.timestamp - (health.startTime ?? s.timestamp) < configuration.lowParallaxWindow {
                updater.lowParallaxReference = configuration.effectiveLowParallaxReference
            }
            updater.lenses = lenses
            let (outcome, _) = updater.update(&s, tracks: selected)
            recordUpdate(used: outcome.used, rejected: outcome.rejected)
            if outcome.used > 0 { health.framesSinceTrackUpdate = 0 }
        }
        while s.clones.count > configuration.windowSize {
            let gone = s.clones[0].frame
            StateHelper.marginalizeClone(&s, at: 0)
            features.removeObservations(ofFrame: gone, currentIDs: currentIDs)
        }
    }

    /// Well-triangulated currently tracked features, for the AR layer (planes, hit tests): each
    /// from its views in the clone window together with the older views ``FeaturePointHistory``
    /// kept (the window alone gives too little parallax on a slow walk); the window alone when the
    /// longer track does not triangulate within the error bound. Changes no filter state.
    mutating func featurePoints(_ frame: FeatureFrame?) -> [TrackedFeaturePoint] {
        guard let frame, let s = state else { return [] }
        pointHistory.noteFilterAge(health.framesSinceInit)
        pointHistory.follow(s.clones)
        var cloneByFrame: [Int: Clone] = [:]
        var cloneIndex: [Int: Int] = [:]
        for (k, c) in s.clones.enumerated() {
            cloneByFrame[c.frame] = c
            cloneIndex[c.frame] = k
        }
        var out: [TrackedFeaturePoint] = []
        let sigma = normalizedPixelNoise
        for f in frame.features {
            guard let t = features.track(f.id) else { continue }
            // Oldest first, as the database appends observations frame by frame. Each view keeps the
            // pose its row was read from; the observations are moved to the filter's current
            // intrinsics and readout when triangulated, as the update does.
            let recent = t.observations.compactMap { o in
                cloneByFrame[o.frame].map {
                    FeaturePointHistory.View(observation: o, pose: UpdaterHelper.rowPose(of: o, clone: $0, readout: s.readout),
                                             heldTime: $0.heldTime)
                }
            }
            let views = pointHistory.record(f.id, window: recent)
            let windowFrames = recent.map(\.observation.frame)
            for candidate in [views, recent] where candidate.count >= 2 || (candidate.count == 1 && candidate[0].observation.right != nil) {
                let obs = candidate.map { UpdaterHelper.modelled($0.observation, state: s, lenses: lenses) }
                let poses = candidate.map(\.pose)
                if let x = Triangulation.triangulate(obs, poses: poses, rig: s.rig,
                                                     iterations: 3, minParallax: configuration.featurePointMinParallax) {
                    let covariance = Triangulation.pointCovariance(x, obs, poses: poses, rig: s.rig, sigmaNormalized: sigma)
                    let motion = Self.motionDepthSigma(x, views: candidate, window: windowFrames,
                                                       cloneIndex: cloneIndex, state: s,
                                                       heldDrift: configuration.handheldHoldVelocitySigma)
                    out.append(TrackedFeaturePoint(id: f.id, position_world: x, covariance: covariance, motionDepthSigma: motion))
                    break
                }
                if candidate.count == recent.count { break }  // no older views: the same rays again
            }
        }
        pointHistory.keepOnly(Set(frame.features.map(\.id)))
        return out
    }

    /// The depth standard deviation (m, along the viewing direction from the newest view) that the
    /// uncertainty of the baseline between the oldest and newest of `views` causes: at a given
    /// parallax, depth scales with the baseline, so a baseline component `b⊥` across the ray known to
    /// σ gives a relative depth error σ / |b⊥|. Two parts make up σ²:
    /// - the filter's covariance of the translation between the oldest and newest window clones
    ///   among `window` (``FilterState/relativePositionCovariance(_:_:)``); views older than the
    ///   window were fixed when marginalised, and their error relative to it is at least this;
    /// - `(heldDrift · h)²`, with `h` the seconds between the two views during which the filter held
    ///   its velocity at zero or had done so within ``TrackerConfiguration/heldSettleTime``
    ///   (``FilterState/heldTime``): a hand drifting at up to `heldDrift` meanwhile. On a phone
    ///   start (simulated TUM-VI room5) the hand moved 1.6 cm in the first 1.3 s while the
    ///   filter's estimate moved 0.4 mm, and the points triangulated across those frames were 28 %
    ///   of their range off (median) until about 5 s.
    ///
    /// Zero for a single view and for stereo views (a stereo pair's baseline is the rig's).
    static func motionDepthSigma(_ x: Vector3, views: [FeaturePointHistory.View], window: [Int],
                                 cloneIndex: [Int: Int], state s: FilterState, heldDrift: Double) -> Double {
        // A stereo view fixes the depth by the rig's baseline, whatever the motion.
        guard let oldest = views.first, let newest = views.last, views.count > 1,
              !views.contains(where: { $0.observation.right != nil }) else { return 0 }
        let ray = x - newest.pose.1
        let range = ray.norm
        guard range > 1e-6 else { return 0 }
        let u = ray / range
        let baseline = newest.pose.1 - oldest.pose.1
        let across = baseline - u * baseline.dot(u)
        let length = across.norm
        guard length > 1e-6 else { return 0 }
        let e = across / length
        let clones = window.compactMap { cloneIndex[$0] }
        var variance = 0.0
        if let a = clones.min(), let b = clones.max(), a != b {
            variance += e.dot(s.relativePositionCovariance(a, b) * e)
        }
        let held = heldDrift * max(0, newest.heldTime - oldest.heldTime)
        variance += held * held
        guard variance.isFinite, variance > 0 else { return 0 }
        return range * variance.squareRoot() / length
    }
}

/// Image motion between two frames, as the median feature displacement in pixels.
struct ImageMotion {
    /// Median displacement.
    var median: Double
    /// Median displacement left once the gyro-predicted rotation is removed: what only a
    /// translation of the camera (or a gyro error) explains.
    var derotatedMedian: Double
    /// The gyro-predicted rotation since the previous frame as an image displacement (pixels, the
    /// angle times the mean focal length); 0 without a prediction.
    var turn = 0.0

    /// Nothing moved, and the gyro agrees: the camera is at rest. Tracks that stand still while the
    /// gyro turns the camera by pixels are stuck (on a washed-out or featureless part of the
    /// image), not a camera at rest: a second of saturated frames in a 150 °/s turn left a few
    /// such tracks, and the zero-velocity updates they asked for reset the filter.
    func isStill(_ c: TrackerConfiguration) -> Bool {
        median < c.stationaryPixelThreshold && turn < c.stillMaximumTurnPixels
    }

    /// The image moved, but only as a rotation explains: a hand turning the device in place.
    func isTurningInPlace(_ c: TrackerConfiguration) -> Bool {
        !isStill(c) && derotatedMedian < c.turningInPlacePixelThreshold
    }
}
