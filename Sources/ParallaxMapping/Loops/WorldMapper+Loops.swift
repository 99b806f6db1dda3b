import ParallaxImaging
import ParallaxMath

extension WorldMapper {
    /// Starts one loop detection attempt (at most every ``LoopClosureConfiguration/interval``
    /// seconds of aligned, normal tracking): the relocalizer against keyframes older than
    /// ``LoopClosureConfiguration/minimumAge`` (by projection from the predicted pose, then by bag of
    /// words), on the mapping thread with a snapshot of the map.
    /// With ``LoopClosureConfiguration/detectionLatency`` 0 it is collected at once.
    func startLoopDetection(timestamp: Double, T_odom_camera T_oc: RigidTransform, image: GrayImage) -> LoopClosureEvent? {
        let loops = self.loops
        let unsettled = Set(database.keyframes.filter { !isSettled($0) }.map(\.id))
        let isOld = { (k: Keyframe) in loops.isCandidate(k, now: timestamp) && !unsettled.contains(k.id) }
        guard database.keyframes.contains(where: isOld) else { return nil }
        let predicted = T_world_odom * T_oc
        let snapshot = database, camera = camera
        var finder = relocalizer
        finder.pooledPointBudget = 0  // loops want few, sure detections: projection and the shortlist
        let latency = max(0, loops.configuration.detectionLatency)
        let projection = loops.configuration.projection
        let job = BackgroundJob<Relocalization?>(dueAt: timestamp + latency) {
            if let search = projection,
               let found = finder.locate(image, predicted: predicted, camera: camera, in: snapshot, search: search, where: isOld) {
                return found
            }
            return finder.locate(image, R_gravity_camera: predicted.rotationMatrix, camera: camera, in: snapshot, where: isOld)
        }
        pendingDetection = PendingLoopDetection(startedAt: timestamp, T_odom_camera: T_oc, predicted: predicted, segment: segment,
                                                snapshot: snapshot, job: job)
        return latency > 0 ? nil : collectLoopDetection(at: timestamp)
    }

    /// Collects the pending detection when due (waiting for it if need be) and checks its answer.
    func collectLoopDetection(at timestamp: Double) -> LoopClosureEvent? {
        guard let d = pendingDetection, timestamp >= d.job.dueAt else { return nil }
        pendingDetection = nil
        let (found, cpu, waited) = d.job.wait()
        loopMilliseconds.append(cpu)
        loopWaitMilliseconds += waited
        guard let r = found, d.segment == segment else { return nil }  // a reset since: the loop is stale
        return closeLoop(r, timestamp: d.startedAt, T_odom_camera: d.T_odom_camera, predicted: d.predicted, in: d.snapshot)
    }

    /// Checks a verified place match against the odometry and, when it passes, adds the loop edge
    /// and starts the pose-graph optimisation (on a background thread; see `PendingLoopClosure`).
    /// Returns the applied event when ``LoopClosureConfiguration/optimizationLatency`` is 0 (the
    /// optimisation ran here), otherwise nil: ``applyPendingLoopClosure(at:)`` applies it later.
    /// Nil too when refused (the reason goes to ``rejectedLoops``) or when the current segment has
    /// no keyframe yet to attach the loop to.
    /// `predicted` and `snapshot` are the map's prediction of the camera and the keyframes as they
    /// were when the image was searched (defaults: as they are now).
    func closeLoop(_ found: Relocalization, timestamp: Double, T_odom_camera T_oc: RigidTransform, predicted: RigidTransform? = nil,
                   in snapshot: KeyframeDatabase? = nil) -> LoopClosureEvent? {
        var r = found
        if let sigma = loops.configuration.tiltSigma, !r.inliers.isEmpty,
           let refined = TiltFreePnP.refine(r.inliers, T_world_camera: r.T_world_camera, tiltSigma: sigma,
                                             significance: loops.configuration.tiltSignificance) {
            r.T_world_camera = refined
        }
        let keyframes = (snapshot ?? database).keyframes
        guard let oldID = r.keyframeIDs.first, let oldKeyframe = keyframes.first(where: { $0.id == oldID }) else { return nil }
        let prediction = predicted ?? T_world_odom * T_oc
        let mapTime = timestamp - (database.keyframes.first?.timestamp ?? timestamp)  // for the reasons: seconds since the map began
        if let reason = loops.check(r, predicted: prediction, oldKeyframe: oldID, segment: segment) {
            let yaw = wrapAngle(LoopCloser.yaw(of: r.T_world_camera) - LoopCloser.yaw(of: prediction)) * 180 / .pi
            let shift = (r.T_world_camera.translation - prediction.translation).norm
            rejectedLoops.append(String(format: "%.2f s, keyframe %d: %@ (PnP vs odometry %.3f m, %.2f°)", mapTime, oldID, reason, shift, yaw))
            return nil
        }
        guard let latest = keyframes.last(where: { loops.records[$0.id]?.segment == segment }) else { return nil }
        // A camera that stays put adds no keyframe: after the loop age has passed, it finds its
        // own latest keyframe. An edge from a keyframe to itself constrains nothing (a hovering
        // drone on MH_01 started twelve optimisations this way).
        guard latest.id != oldID else { return nil }
        let detection = LoopCloser.Detection(timestamp: timestamp, segment: segment, old: oldKeyframe, latest: latest, T_world_camera: r.T_world_camera,
                                             T_odom_camera: T_oc, edgeAdded: r.inlierCount >= loops.configuration.minimumInliers)
        let earlier = loops.lastDetection
        loops.lastDetection = detection
        if !detection.edgeAdded {
            // Too few inliers on its own: accepted only when it confirms the previous detection.
            guard let earlier, loops.confirms(earlier, detection) else {
                rejectedLoops.append(String(format: "%.2f s, keyframe %d: inliers %d < %d and not confirmed by the previous detection",
                                            mapTime, oldID, r.inlierCount, loops.configuration.minimumInliers))
                return nil
            }
            loops.lastDetection?.edgeAdded = true
            confirmedLoops += 1
            if !earlier.edgeAdded {
                loops.addLoop(old: earlier.old, latest: earlier.latest, T_world_camera: earlier.T_world_camera, T_odom_camera: earlier.T_odom_camera,
                              weak: true)
            }
        }
        let disagreement = loops.addLoop(old: oldKeyframe, latest: latest, T_world_camera: r.T_world_camera, T_odom_camera: T_oc,
                                         weak: r.inlierCount < loops.configuration.minimumInliers)
        if let disagreement, loops.isConsistent(disagreement) {
            consistentLoops += 1
            return nil
        }
        let loop = LoopCloser.DeferredLoop(old: oldID, latest: latest.id, inliers: r.inlierCount)
        if pendingLoop != nil || timestamp - loops.lastOptimizationAt < loops.configuration.minimumOptimizationInterval {
            loops.deferred = loop  // optimised when the interval is over (see `optimizeDeferredLoop(at:)`)
            deferredLoops += 1
            return nil
        }
        return startOptimization(loop, at: timestamp, latency: loops.configuration.optimizationLatency)
    }

    /// Starts the optimisation of a loop deferred by ``LoopClosureConfiguration/minimumOptimizationInterval``
    /// once the interval is over, if the tracker is still in the loop's segment (after a reset the
    /// edge simply waits for the next loop). Returns the event when applied at once (latency 0).
    func optimizeDeferredLoop(at timestamp: Double) -> LoopClosureEvent? {
        guard pendingLoop == nil, let loop = loops.deferred,
              timestamp - loops.lastOptimizationAt >= loops.configuration.minimumOptimizationInterval else { return nil }
        loops.deferred = nil
        guard loops.records[loop.latest]?.segment == segment else { return nil }
        return startOptimization(loop, at: timestamp, latency: loops.configuration.optimizationLatency)
    }

    /// Builds the graph (with every loop edge so far) and optimises it in the background; with
    /// `latency` 0 waits for it and returns the applied event.
    private func startOptimization(_ loop: LoopCloser.DeferredLoop, at timestamp: Double, latency: Double) -> LoopClosureEvent? {
        let (graph, ids) = loops.graph(database)
        pendingLoop = PendingLoopClosure(graph: graph, ids: ids, iterations: loops.configuration.iterations, detectedAt: timestamp,
                                         applyAt: timestamp + max(0, latency), oldKeyframeID: loop.old, latestKeyframeID: loop.latest,
                                         inliers: loop.inliers)
        loops.lastOptimizationAt = timestamp
        loops.deferred = nil
        return latency > 0 ? nil : applyPendingLoopClosure(at: timestamp)
    }

    /// Applies the pending loop closure when its hand-off time has come (waiting for the
    /// background optimisation if it is still running): keyframes move to their optimised poses,
    /// their points with them; keyframes made since the loop was detected, and the live
    /// `T_world_odom`, move with the correction of the loop's latest keyframe (they hang off it by
    /// odometry). Nil when nothing is pending or it is not yet time.
    func applyPendingLoopClosure(at timestamp: Double) -> LoopClosureEvent? {
        guard let pending = pendingLoop, timestamp >= pending.applyAt else { return nil }
        pendingLoop = nil
        let (optimized, cpu, waited) = pending.job.wait()
        guard let latestBefore = database.keyframes.first(where: { $0.id == pending.latestKeyframeID }),
              let latestAfter = optimized.poses[pending.latestKeyframeID] else { return nil }
        let live = LoopCloser.correction(from: LoopCloser.yawPose(latestBefore.T_world_camera), to: latestAfter)
        var corrections: [(id: Int, position: Vector3, correction: RigidTransform)] = []
        var moved = database.keyframes
        for i in moved.indices {
            let C = optimized.poses[moved[i].id].map { LoopCloser.correction(from: LoopCloser.yawPose(moved[i].T_world_camera), to: $0) } ?? live
            corrections.append((moved[i].id, moved[i].T_world_camera.translation, C))
            moved[i].T_world_camera = C * moved[i].T_world_camera
            for j in moved[i].points.indices { moved[i].points[j].position_world = C * moved[i].points[j].position_world }
        }
        database.replacePoses(from: moved)  // descriptors unchanged: the bags of words stay
        T_world_odom = WorldMapper.yawAndTranslation(live * T_world_odom)
        var event = LoopClosureEvent(timestamp: timestamp, oldKeyframeID: pending.oldKeyframeID, currentKeyframeID: pending.latestKeyframeID,
                                     inliers: pending.inliers, liveCorrection: live, keyframeCorrections: corrections,
                                     optimizationMilliseconds: cpu, iterations: optimized.iterations,
                                     costBefore: optimized.costBefore, costAfter: optimized.costAfter)
        event.detectedAt = pending.detectedAt
        event.waitMilliseconds = waited
        // The history keeps the evidence, not the per-keyframe corrections (the client gets those
        // in this frame's output): at a hundred bytes per keyframe per closure, a 10-minute walk's
        // hundreds of closures over hundreds of keyframes kept tens of megabytes.
        var record = event
        record.keyframeCorrections = []
        loopClosures.append(record)
        if loops.unverifiedSegment == segment { loops.unverifiedSegment = nil }
        return event
    }

    /// Collects a detection still running, then waits for a loop closure still being optimised and
    /// applies it now, or optimises a deferred loop now (end of a run, or before saving the map); nil when there is neither.
    public func finishPendingLoopClosure() -> LoopClosureEvent? {
        if pendingDetection != nil, let found = collectLoopDetection(at: .infinity) { return found }
        if let pending = pendingLoop {
            return applyPendingLoopClosure(at: max(pending.applyAt, lastTimestamp ?? pending.applyAt))
        }
        guard let loop = loops.deferred, let now = lastTimestamp else { return nil }
        loops.deferred = nil
        guard loops.records[loop.latest]?.segment == segment else { return nil }
        return startOptimization(loop, at: now, latency: 0)
    }
}
