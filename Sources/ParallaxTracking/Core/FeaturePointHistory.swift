import ParallaxMath

/// Older views of the features still tracked, for ``EstimatorCore/featurePoints(_:)``.
///
/// Why: the clone window alone is too short to triangulate most features on a slow walk. The
/// window holds 11 clones (0.55 s at 20 Hz), and an MSCKF update consumes a track's observations
/// when it reaches the oldest clone, so a feature has about five observations in the window on
/// average. Turning around a table with the camera on its centre gives those few views less than
/// the 0.03 rad of parallax a point needs, and the reported points fell to 1–20 a frame for
/// seconds at a time while tracking was normal. The filter no longer needs an observation once it
/// is used or marginalised, but the camera pose it was seen from stays a good estimate, so this
/// keeps a few such views per feature (with the clone pose as last estimated) and triangulates
/// from them together with the window: the baseline grows with the track's age.
///
/// The filter never reads it (its points give the tracker only the depths of its translation
/// prediction). Each view keeps the raw observation and the pose its row was read from; the points
/// are triangulated with the filter's current intrinsics and readout (``UpdaterHelper/modelled``).
struct FeaturePointHistory {
    /// One view of a feature: the observation and the body pose (R_world_body, p_world_body) of its
    /// frame, with the filter's ``FilterState/heldTime`` at that frame.
    struct View {
        var observation: Observation
        var pose: (Matrix3, Vector3)
        var heldTime: Double = 0
    }

    /// Views kept per feature from frames that left the window (or whose observations were consumed).
    static let maximumFrozenViews = 6

    /// Each feature's views, oldest first, with their poses in the storage frame (see ``storageRotation``).
    private var views: [Int: [View]] = [:]
    /// The map from the storage frame to the world (`R_world = storageRotation · R`,
    /// `p_world = storageRotation · p + storagePosition`): every correction ``follow(_:)`` applies to
    /// the kept views is composed into it once instead of being applied to each view.
    private var storageRotation = Matrix3.identity
    private var storagePosition = Vector3.zero
    private var lastFramesSinceInit = Int.max
    /// The window's clone poses at the previous frame, by frame number.
    private var previousClonePoses: [Int: (Matrix3, Vector3)] = [:]

    /// Forgets every view after the filter restarted (its world and clone numbering start again):
    /// `framesSinceInit` grows by one each frame while the filter runs, so a value not above the
    /// last one means a restart.
    mutating func noteFilterAge(_ framesSinceInit: Int) {
        if framesSinceInit <= lastFramesSinceInit, lastFramesSinceInit != Int.max {
            views.removeAll()
            previousClonePoses.removeAll()
            storageRotation = .identity
            storagePosition = .zero
        }
        lastFramesSinceInit = framesSinceInit
    }

    /// Moves every kept view by the correction the filter made since the previous frame to the
    /// oldest clone in both windows, so that frozen views stay attached to the window.
    ///
    /// Why: a frozen pose is the estimate from when its clone left the window, and the filter
    /// keeps correcting the window after that. Triangulating one frozen view with window views
    /// then mixed two versions of the trajectory. On a table walk, the gap between them put wall
    /// points 3–5 m away 2–3 cm too close to the camera, and the planes fitted to them followed
    /// (simulated rpng_table_03: wall-left's points 2.6 cm in front of the wall). The frozen views
    /// were seen just before that clone, so carrying them along rigidly keeps them consistent with
    /// the window.
    mutating func follow(_ clones: [Clone]) {
        defer {
            previousClonePoses = Dictionary(uniqueKeysWithValues: clones.map { ($0.frame, ($0.rotation, $0.position)) })
        }
        guard let shared = clones.first(where: { previousClonePoses[$0.frame] != nil }),
              let (rPrevious, pPrevious) = previousClonePoses[shared.frame] else { return }
        let rDelta = shared.rotation * rPrevious.transpose
        let moved = (rDelta - Matrix3.identity).frobeniusNorm > 1e-12 || (shared.position - pPrevious).norm > 1e-12
        guard moved else { return }
        // x ↦ ΔR (x − p_before) + p_now, composed after the storage map.
        storageRotation = rDelta * storageRotation
        storagePosition = rDelta * (storagePosition - pPrevious) + shared.position
    }

    /// Records the window's views of feature `id` (refreshing the poses of frames still in the
    /// window) and returns all its views, oldest first. `window` holds the views of clones alive
    /// now, oldest first.
    mutating func record(_ id: Int, window: [View]) -> [View] {
        let stored = views.removeValue(forKey: id) ?? []
        var frozen: [View] = []
        frozen.reserveCapacity(stored.count)
        for view in stored where !window.contains(where: { $0.observation.frame == view.observation.frame }) {
            var world = view
            world.pose = (storageRotation * view.pose.0, storageRotation * view.pose.1 + storagePosition)
            frozen.append(world)
        }
        if frozen.count > Self.maximumFrozenViews {
            let dropped = Set(thinned(frozen.map(\.observation.frame)))
            frozen.removeAll { dropped.contains($0.observation.frame) }
        }
        // The frozen frames and the window's are distinct.
        let all = (frozen + window).sorted { $0.observation.frame < $1.observation.frame }
        let toStorage = storageRotation.transpose
        views[id] = all.map { view in
            var kept = view
            kept.pose = (toStorage * view.pose.0, toStorage * (view.pose.1 - storagePosition))
            return kept
        }
        return all
    }

    /// Drops the features no longer tracked (`current` holds the ids of this frame).
    mutating func keepOnly(_ current: Set<Int>) {
        let gone = views.keys.filter { !current.contains($0) }
        for id in gone { views[id] = nil }
    }

    /// The frozen frames to drop so that ``maximumFrozenViews`` remain: always keep the oldest
    /// (the longest baseline) and the newest; drop, one by one, the frame closest to its
    /// predecessor, so the kept views stay spread over the track's life.
    private func thinned(_ frames: [Int]) -> [Int] {
        var kept = frames, dropped: [Int] = []
        while kept.count > Self.maximumFrozenViews {
            var best = 1
            for k in 1..<(kept.count - 1) where kept[k] - kept[k - 1] < kept[best] - kept[best - 1] { best = k }
            dropped.append(kept.remove(at: best))
        }
        return dropped
    }
}
