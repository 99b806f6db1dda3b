import ParallaxImaging
import ParallaxMath

extension WorldMapper {
    /// One loop detection attempt (at most every ``LoopClosureConfiguration/interval`` seconds of
    /// aligned, normal tracking): the relocalizer against keyframes older than
    /// ``LoopClosureConfiguration/minimumAge``, the checks, then the loop edge and the pose graph.
    func detectLoop(timestamp: Double, T_odom_camera T_oc: RigidTransform, image: GrayImage) -> LoopClosureEvent? {
        let t0 = threadMilliseconds()
        defer { loopMilliseconds.append(threadMilliseconds() - t0) }
        let loops = self.loops
        let isOld = { (k: Keyframe) in loops.isCandidate(k, now: timestamp) }
        guard database.keyframes.contains(where: isOld) else { return nil }
        let predicted = T_world_odom * T_oc
        var finder = relocalizer
        guard let r = finder.locate(image, R_gravity_camera: predicted.rotationMatrix, camera: camera, in: database,
                                    where: isOld) else { return nil }
        return closeLoop(r, timestamp: timestamp, T_odom_camera: T_oc)
    }

    /// Checks a verified place match against the odometry and, when it passes, adds the loop edge,
    /// optimises the pose graph and applies the corrections (keyframes, their points, the live
    /// `T_world_odom`). Nil when refused (the reason goes to ``rejectedLoops``) or when the
    /// current segment has no keyframe yet to attach the loop to.
    func closeLoop(_ r: Relocalization, timestamp: Double, T_odom_camera T_oc: RigidTransform) -> LoopClosureEvent? {
        guard let oldID = r.keyframeIDs.first, let oldKeyframe = database.keyframes.first(where: { $0.id == oldID }) else { return nil }
        if let reason = loops.check(r, predicted: T_world_odom * T_oc, oldKeyframe: oldID, segment: segment) {
            rejectedLoops.append(reason)
            return nil
        }
        guard let latest = database.keyframes.last(where: { loops.records[$0.id]?.segment == segment }) else { return nil }
        loops.addLoop(old: oldKeyframe, latest: latest.id, T_world_camera: r.T_world_camera, T_odom_camera: T_oc)
        let t0 = threadMilliseconds()
        let optimized = loops.optimize(database)
        var corrections: [(id: Int, position: Vector3, correction: RigidTransform)] = []
        var moved = database.keyframes
        for i in moved.indices {
            guard let after = optimized.poses[moved[i].id] else { continue }
            let C = LoopCloser.correction(from: LoopCloser.yawPose(moved[i].T_world_camera), to: after)
            corrections.append((moved[i].id, moved[i].T_world_camera.translation, C))
            moved[i].T_world_camera = C * moved[i].T_world_camera
            for j in moved[i].points.indices { moved[i].points[j].position_world = C * moved[i].points[j].position_world }
        }
        database.replacePoses(from: moved)  // descriptors unchanged: the bags of words stay
        let live = corrections.first { $0.id == latest.id }?.correction ?? .identity
        T_world_odom = WorldMapper.yawAndTranslation(live * T_world_odom)
        let event = LoopClosureEvent(timestamp: timestamp, oldKeyframeID: oldID, currentKeyframeID: latest.id, inliers: r.inlierCount,
                                     liveCorrection: live, keyframeCorrections: corrections,
                                     optimizationMilliseconds: threadMilliseconds() - t0, iterations: optimized.iterations,
                                     costBefore: optimized.costBefore, costAfter: optimized.costAfter)
        loopClosures.append(event)
        if loops.unverifiedSegment == segment { loops.unverifiedSegment = nil }
        return event
    }
}
