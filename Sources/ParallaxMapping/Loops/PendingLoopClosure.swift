import ParallaxMath

/// A loop closure whose pose graph is being optimised off the tracking thread (VINS-Mono runs its
/// pose graph in a thread of its own for the same reason: a loop over hundreds of keyframes costs
/// tenths of a second, several frame periods).
///
/// The graph is built on the tracking thread (a copy of the keyframes' 4-DoF poses and the edges,
/// cheap) and optimised as a ``BackgroundJob``, handed back at ``LoopClosureConfiguration/optimizationLatency``
/// after the detection; tracking waits only if it is not done by then, and the wait is reported
/// (``LoopClosureEvent/waitMilliseconds``).
struct PendingLoopClosure {
    /// What the optimisation gives back.
    struct Result {
        /// Optimised 4-DoF camera poses by keyframe id.
        var poses: [Int: YawPose]
        /// Gauss–Newton steps, and the cost before and after.
        var iterations: Int, costBefore: Double, costAfter: Double
    }

    /// Frame time (s) of the detection.
    let detectedAt: Double
    /// The revisited keyframe and the latest keyframe of the current segment (the loop edge's ends).
    let oldKeyframeID: Int, latestKeyframeID: Int
    /// PnP inliers of the loop.
    let inliers: Int
    /// The optimisation.
    let job: BackgroundJob<Result>

    /// Starts optimising `graph` (nodes in the order of `ids`).
    init(graph: PoseGraph, ids: [Int], iterations: Int, detectedAt: Double, applyAt: Double,
         oldKeyframeID: Int, latestKeyframeID: Int, inliers: Int) {
        self.detectedAt = detectedAt
        self.oldKeyframeID = oldKeyframeID
        self.latestKeyframeID = latestKeyframeID
        self.inliers = inliers
        job = BackgroundJob(dueAt: applyAt) {
            var g = graph
            let before = g.cost()
            let steps = g.optimize(iterations: iterations)
            var poses: [Int: YawPose] = [:]
            for (n, id) in ids.enumerated() { poses[id] = g.nodes[n] }
            return Result(poses: poses, iterations: steps, costBefore: before, costAfter: g.cost())
        }
    }

    /// Frame time (s) from which the result is applied.
    var applyAt: Double { job.dueAt }
}

/// A loop detection attempt (place recognition and PnP against old keyframes) running off the
/// tracking thread on a snapshot of the map; its answer is checked and turned into a loop edge when
/// due (``LoopClosureConfiguration/detectionLatency`` later), against the same snapshot.
struct PendingLoopDetection {
    /// Frame time (s) of the image searched.
    let startedAt: Double
    /// The tracker's cam0 pose at that frame (odometry frame) and the map's prediction of it.
    let T_odom_camera: RigidTransform, predicted: RigidTransform
    /// The tracking segment at that frame.
    let segment: Int
    /// The keyframes as they were (a later loop closure may move them before the answer is used).
    let snapshot: KeyframeDatabase
    /// The search.
    let job: BackgroundJob<Relocalization?>
}
