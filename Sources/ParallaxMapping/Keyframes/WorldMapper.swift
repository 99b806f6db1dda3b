import Foundation
import ParallaxDatasets
import ParallaxImaging
import ParallaxMath
import ParallaxTracking
import ParallaxVision

/// How much of the visible scene the map covers (ARKit's `ARFrame.WorldMappingStatus`).
public enum WorldMappingStatus: String, Sendable, Equatable, CaseIterable {
    /// No map (no pose, or nothing mapped yet).
    case notAvailable
    /// The map does not explain the current view: relocalizing, or tracking is limited.
    case limited
    /// The session is mapping an area it has not seen before.
    case extending
    /// The current view lies in an area the map already covers.
    case mapped
}

/// Settings of ``WorldMapper``.
public struct WorldMapperConfiguration: Sendable {
    /// A new keyframe needs no existing keyframe within this distance (m) …
    public var keyframeDistance = 0.1
    /// … looking within this angle (rad) of the same way: the map grows with area, not time.
    public var keyframeAngle = 10.0 * Double.pi / 180
    /// Shortest time between keyframes (s).
    public var keyframeInterval = 0.25
    /// A view the pose test leaves uncovered still gets no keyframe when the map holds almost all
    /// its points already (``ViewRedundancy``): the map then grows with what was seen, not with
    /// every new way of looking at it. `observers` 0 turns this off.
    public var redundancy = ViewRedundancy()
    /// Fewest described points for a keyframe.
    public var minimumKeyframePoints = 20
    /// Tracking limited for longer than this (s) makes the odometry suspect: relocalize again.
    public var blindLimit = 1.0
    /// Frames between relocalization attempts while unaligned.
    public var relocalizationStride = 2
    /// After a first relocalization, keep refining the alignment for this long (s): a freshly
    /// re-initialised filter still moves its estimate.
    public var refinementWindow = 1.5
    /// A segment of a session that built its own map and has not relocalized after this long (s)
    /// with normal tracking is accepted where the odometry put it (mapping goes on, unverified).
    /// Never applies to a loaded map: that session keeps relocalizing, as ARKit does.
    public var relocalizationTimeout = 10.0
    /// A blind stretch the tracker coasted through without a reset keeps its world frame: once
    /// tracking is normal again, the segment is accepted where the odometry put it when the
    /// filter's position σ grew by at most this much (m) over the stretch — the IMU alone kept
    /// the pose. Relocalization attempts go on for ``refinementWindow`` and re-place it if the
    /// map disagrees, and a later loop may still move it. Measured on 3 s blackouts: see
    /// docs/world-maps.md. 0 turns this off (such segments wait for a relocalization).
    public var coastedGrowthLimit = 0.03
    /// While refining a placed segment, a relocalization that moves the camera by more than this
    /// (m) …
    public var refinementStep = 0.05
    /// … needs at least this many PnP inliers (the strong-loop count of ``LoopClosureConfiguration``),
    /// unless the move is within this many times the drop of the filter's position σ since the
    /// placement: a filter placed right after a coast (σ 5 cm) settles by centimetres in the next
    /// few frames as the images come back, and a placement made from its coasted pose must follow
    /// that. V1_01 stereo, 3 s blackout at 9 s: placed at σ 5.1 cm, the filter moved 6 cm while
    /// σ fell to 1 cm, and refinements with 19–22 inliers that would have followed were refused.
    public var refinementInliers = 25
    /// See ``refinementInliers``; 0 turns the allowance off.
    public var settlingAllowance = 2.0
    /// A first placement without a prediction (a loaded map, or after a reset) with fewer than
    /// ``refinementInliers`` inliers is taken only when a projection search around it verifies it
    /// with at least that many, within these (m, rad) of it.
    public var placementAgreement = (position: 0.05, yaw: 1.0 * Double.pi / 180)
    /// Place the odometry frame from the inliers of all the relocalizations of a placement at
    /// once (its first and the refinements of ``refinementWindow``), not from the latest image
    /// alone: see ``GravityAlignedPnP/placeOdometry(_:yaw:t:scale:)``. Only for a placement
    /// without a prediction (a loaded map's session, a segment after a tracker reset): after a
    /// blind stretch the filter is still settling from its coast during the window, its odometry
    /// over the window is not rigid, and solving the window's frames together made 5 of 12
    /// blackout recoveries worse (tumvi_room3 at 12 s: worst later deviation 5.2 → 9.8 cm).
    public var jointPlacement = true
    /// The projection search that verifies such a placement: tighter than the blackout search
    /// (15 px instead of 40, 64 bits instead of 80, ratio 0.8 instead of 0.9, a prediction kept
    /// only when 5 px instead of 12 px agree), since it checks a guess rather than refining a coast.
    /// With the blackout search, a placement 39 cm off was confirmed; with this one the search's
    /// own solve lay 35 cm and 6° away, and it was refused.
    public var placementVerification: ProjectionSearch = {
        var s = ProjectionSearch()
        s.radius = 15
        s.maximumDistance = 64
        s.ratio = 0.8
        s.confirmationPixels = 5
        return s
    }()
    /// A keyframe whose view the tracker has since re-levelled by more than this (rad) is
    /// *unsettled*: it is no loop candidate, and it does not count as covering its place, so a
    /// revisit makes a fresh keyframe there (see ``WorldMapper/unsettledTilt(of:)``). 0 turns the
    /// rule off.
    /// Measured on 58 mono hand-held, flight and walk simulations (`parallax evaluate map`, stop
    /// 71): live ATE summed 76.3 → 71.0 cm (the odometry's own 71.0), keyframes after the pose
    /// graph 68.1 → 65.4 cm; at 0.5° 71.9 / 65.6 cm. 18 stereo sets: live 17.7 → 16.8 cm.
    public var settledTilt = 0.3 * Double.pi / 180
    /// A keyframe that stayed within ``settledTilt`` for this long (s) after it was made is settled
    /// for good. The start's corrections come within seconds (on a hovering drone, within a
    /// minute); later the bias estimate follows the IMU's own slow drift, which re-levels nothing
    /// and must not unsettle the map. EuRoC's accelerometer random walk (0.003 m/s²/√s) moves the
    /// horizontal bias by about 0.03 m/s² (g × 0.19°) in 60 s but 0.1 m/s² (g × 0.6°) in
    /// 10 minutes: without a window a long session's old keyframes would leave the loops and be
    /// made again. Measured on MH_01 120 s (stop 71): 60 s gives what no window gives (mono live
    /// 2.9 cm, stereo 1.2 cm); 30 s made mono 3.0 cm.
    public var settlingWindow = 60.0
    /// Loop closing (4-DoF pose graph over the keyframes).
    public var loopClosure = LoopClosureConfiguration()
    /// Creates the defaults.
    public init() {}
}

/// What the mapper says about one frame.
public struct MappingOutput: Sendable {
    /// The current segment's `T_world_odom` (odometry frame → map world), 4-DoF.
    public var T_world_odom: RigidTransform
    /// False while the current segment has not been placed in the map (relocalizing).
    public var isAligned: Bool
    /// The mapping status.
    public var status: WorldMappingStatus
    /// True when ``T_world_odom`` changed on this frame (a relocalization).
    public var relocalized: Bool
    /// CPU milliseconds (thread time) the mapper spent on this frame.
    public var milliseconds: Double
    /// True when this frame became a keyframe.
    public var addedKeyframe: Bool
    /// The relocalization attempt made on this frame, if any.
    public var attempt: Relocalizer.Attempt? = nil
    /// The loop closure applied on this frame, if any: poses, points and ``T_world_odom`` moved;
    /// clients move what they placed in the world with ``LoopClosureEvent/correction(near:)``.
    public var loopClosure: LoopClosureEvent? = nil
}

/// The mapping layer over the tracker's odometry (VINS-Mono's relocalization model): keyframes with
/// oriented-BRIEF map points; each tracking segment (the tracker restarts in a fresh odometry frame
/// after a reset) gets a 4-DoF `T_world_odom`, found by relocalizing against the keyframes.
/// Work happens at keyframes and relocalization attempts only, and its cost is reported apart.
public final class WorldMapper {
    /// Settings.
    public let configuration: WorldMapperConfiguration
    /// cam0 model.
    public let camera: any CameraModel
    /// The keyframes.
    public internal(set) var database: KeyframeDatabase
    /// The relocalizer.
    public var relocalizer = Relocalizer()
    /// Relocalizations so far (successful PnP solves that moved `T_world_odom`).
    public private(set) var relocalizationCount = 0
    /// Mapping CPU milliseconds per keyframe added.
    public private(set) var keyframeMilliseconds: [Double] = []
    /// Mapping CPU milliseconds per relocalization attempt.
    public private(set) var relocalizationMilliseconds: [Double] = []
    /// Mapping-thread CPU milliseconds per loop detection attempt (place recognition and PnP; the
    /// pose graph is in ``LoopClosureEvent/optimizationMilliseconds``).
    public internal(set) var loopMilliseconds: [Double] = []
    /// Wall-clock milliseconds the tracking thread waited for background loop detections in all.
    public internal(set) var loopWaitMilliseconds = 0.0
    /// Loop closures applied, for reports: each without its ``LoopClosureEvent/keyframeCorrections``
    /// (those reach the client once, in ``MappingOutput/loopClosure``), so the history stays small.
    public internal(set) var loopClosures: [LoopClosureEvent] = []
    /// Loops whose edge agreed with the map already (added to the graph without an optimisation).
    public internal(set) var consistentLoops = 0
    /// Loops with too few inliers on their own that the next detection confirmed
    /// (``LoopClosureConfiguration/minimumConfirmedInliers``).
    public internal(set) var confirmedLoops = 0
    /// Loops whose optimisation was deferred (``LoopClosureConfiguration/minimumOptimizationInterval``).
    public internal(set) var deferredLoops = 0
    /// Why verified-looking loop candidates (enough PnP inliers for a relocalization) were refused.
    public internal(set) var rejectedLoops: [String] = []

    var loops: LoopCloser
    /// The loop edges of the pose graph so far (`from`/`to` are keyframe ids): each old keyframe's
    /// view of a later one as its PnP measured it, with the σ it entered the graph with.
    public var loopEdges: [PoseGraphEdge] { loops.loopEdges }
    /// A loop closure whose pose graph is being optimised in the background.
    var pendingLoop: PendingLoopClosure?
    /// A loop detection attempt running in the background.
    var pendingDetection: PendingLoopDetection?
    /// Time of the latest frame processed.
    var lastTimestamp: Double?
    var segment = 0
    var T_world_odom = RigidTransform.identity
    var aligned: Bool
    private var hadPose = false
    private var limitedSince: Double?
    /// The filter's position σ on the last normal frame, and at the start of the current blind stretch.
    private var lastNormalSigma: Double?
    private var sigmaBeforeBlind: Double?
    /// Segments accepted after a coasted blind stretch (``WorldMapperConfiguration/coastedGrowthLimit``).
    public private(set) var coastedAcceptances = 0
    private var blindStretchHandled = false
    /// True while ``T_world_odom`` still places the current odometry frame: the segment was
    /// unaligned by a blind stretch the tracker coasted through, not by a reset.
    private var predictionValid = false
    private var refineUntil: Double?
    /// The filter's position σ when the current segment was placed (see
    /// ``WorldMapperConfiguration/settlingAllowance``).
    private var placementSigma: Double?
    private var frameCounter = 0
    /// The tracker's accelerometer bias on the latest frame (cam0 axes), when given.
    private(set) var accelerometerBias: Vector3?
    /// Keyframes within their ``WorldMapperConfiguration/settlingWindow`` and not yet found
    /// unsettled, and those that stayed settled through it (see ``isSettled(_:)``).
    private var settling = Set<Int>(), settledForGood = Set<Int>()
    private var unalignedSince: Double?
    private let loadedMap: Bool
    private var lastKeyframeTime = -Double.infinity
    /// The latest answer of ``viewIsRedundant(_:T_odom_camera:)`` and when it was asked.
    private var redundancyCheck: (time: Double, redundant: Bool)?
    /// The relocalizations that placed the current segment, waiting for its first keyframe to
    /// become loop edges (see ``recordPlacementEdges(to:)``); the newest few are kept.
    private var placements: [(found: Relocalization, T_odom_camera: RigidTransform, segment: Int)] = []
    /// The inliers of every relocalization since the current placement began, in the odometry
    /// frame, solved together for ``T_world_odom`` (``WorldMapperConfiguration/jointPlacement``).
    private var placementViews: [GravityAlignedPnP.OdometryView] = []
    /// Whether the current placement is solved jointly: only one without a prediction (a loaded
    /// map, or after a reset), see ``WorldMapperConfiguration/jointPlacement``.
    private var jointPlacementNow = false

    /// A mapper starting from `database` (empty: the first segment defines the world; not empty:
    /// a loaded map, so the session relocalizes before it reports mapped poses).
    public init(camera: any CameraModel, database: KeyframeDatabase = .init(), configuration: WorldMapperConfiguration = .init()) {
        self.camera = camera
        self.database = database
        self.configuration = configuration
        aligned = database.keyframes.isEmpty
        loops = LoopCloser(configuration: configuration.loopClosure)
        loadedMap = !database.keyframes.isEmpty
    }

    /// Processes one frame: the tracker's state, its cam0 pose in the odometry frame, its points
    /// (odometry frame), the raw cam0 image, the filter's position σ (m, when known: see
    /// ``TrackingResult/positionSigma``) and its accelerometer bias in cam0 axes (m/s², when known:
    /// see ``TrackingResult/accelerometerBiasInCamera0``).
    public func process(timestamp: Double, trackingState: TrackingState, T_odom_camera: RigidTransform?,
                        featurePoints: [TrackedFeaturePoint], image: GrayImage, positionSigma: Double? = nil,
                        accelerometerBias: Vector3? = nil) -> MappingOutput {
        let start = ThreadClock.milliseconds()
        frameCounter += 1
        lastTimestamp = timestamp
        self.accelerometerBias = accelerometerBias
        updateSettling(now: timestamp)
        var relocalized = false, added = false
        var attempt: Relocalizer.Attempt?
        // A loop found earlier whose background optimisation is due now.
        var closure = applyPendingLoopClosure(at: timestamp) ?? optimizeDeferredLoop(at: timestamp)
        if let found = collectLoopDetection(at: timestamp) { closure = found }
        guard let T_oc = T_odom_camera else {
            if hadPose, !database.keyframes.isEmpty { aligned = false }  // the tracker reset: a new segment
            predictionValid = false
            if hadPose { segment += 1 }
            hadPose = false
            var out = output(.notAvailable, start: start, relocalized: false, added: false)
            out.loopClosure = closure
            return out
        }
        loops.moved(to: T_oc, newSegment: !hadPose)
        hadPose = true
        if trackingState == .normal {
            if !aligned, predictionValid, acceptsCoastedSegment(positionSigma: positionSigma) {
                aligned = true
                refineUntil = timestamp + configuration.refinementWindow
                placementSigma = positionSigma
                loops.unverifiedSegment = segment  // placed by the IMU alone: a loop may re-place it
                coastedAcceptances += 1
            }
            limitedSince = nil
            blindStretchHandled = false
            lastNormalSigma = positionSigma
            if aligned { sigmaBeforeBlind = nil }
        } else {
            if limitedSince == nil {
                limitedSince = timestamp
                if aligned { sigmaBeforeBlind = lastNormalSigma }
            }
            // Once per limited stretch: the odometry coasted, so place the segment again.
            if let since = limitedSince, timestamp - since > configuration.blindLimit, !blindStretchHandled,
               !database.keyframes.isEmpty {
                aligned = false
                // Same odometry frame: the coasted pose predicts the view, once the frame was placed
                // in the map (a loaded map's session that never localized has no prediction).
                predictionValid = !loadedMap || relocalizationCount > 0
                blindStretchHandled = true
                segment += 1  // the odometry coasted: no odometry edge across the stretch
            }
        }
        if aligned { unalignedSince = nil } else if unalignedSince == nil { unalignedSince = timestamp }
        if !aligned, !loadedMap || relocalizationCount > 0, trackingState == .normal, let since = unalignedSince,
           timestamp - since > configuration.relocalizationTimeout {
            aligned = true  // give up: continue in the odometry's placement
            loops.unverifiedSegment = segment  // its placement is a guess: a loop may re-place it
        }
        let refining = refineUntil.map { timestamp < $0 } ?? false
        if (!aligned || refining), !database.keyframes.isEmpty, frameCounter % configuration.relocalizationStride == 0 {
            let t0 = ThreadClock.milliseconds()
            if let found = relocate(image, T_odom_camera: T_oc), admitsPlacement(found, T_odom_camera: T_oc, positionSigma: positionSigma),
               let r = confirmedPlacement(found, image: image) {
                if !aligned {
                    placementViews.removeAll()
                    jointPlacementNow = configuration.jointPlacement && !predictionValid
                }
                T_world_odom = place(r, T_odom_camera: T_oc)
                if !aligned {
                    refineUntil = timestamp + configuration.refinementWindow
                    placementSigma = positionSigma
                }
                aligned = true
                predictionValid = true
                if loops.unverifiedSegment == segment { loops.unverifiedSegment = nil }
                placements.removeAll { $0.segment != segment }
                placements.append((r, T_oc, segment))
                if placements.count > loops.configuration.maximumLoopEdgesPerKeyframe { placements.removeFirst() }
                relocalized = true
                relocalizationCount += 1
            }
            relocalizationMilliseconds.append(ThreadClock.milliseconds() - t0)
            attempt = relocalizer.lastAttempt
        }
        let T_wc = T_world_odom * T_oc
        var status: WorldMappingStatus = .limited
        if aligned, trackingState == .normal {
            var view: [(point: TrackedFeaturePoint, pixel: Vector2)]?
            var covered = database.covering(T_wc, distance: configuration.keyframeDistance, angle: configuration.keyframeAngle,
                                            where: isSettled) != nil
            if !covered, configuration.redundancy.observers > 0 {
                if let last = redundancyCheck, timestamp >= last.time, timestamp - last.time < configuration.keyframeInterval {
                    covered = last.redundant
                } else {
                    let snapped = snappedView(featurePoints, T_odom_camera: T_oc, image: image)
                    view = snapped
                    covered = viewIsRedundant(snapped, T_odom_camera: T_oc)
                    redundancyCheck = (timestamp, covered)
                }
            }
            status = covered ? .mapped : .extending
            if !covered, !refining, timestamp - lastKeyframeTime >= configuration.keyframeInterval {
                let t0 = ThreadClock.milliseconds()
                added = addKeyframe(timestamp: timestamp, T_odom_camera: T_oc,
                                    view: view ?? snappedView(featurePoints, T_odom_camera: T_oc, image: image), image: image)
                if added {
                    lastKeyframeTime = timestamp
                    keyframeMilliseconds.append(ThreadClock.milliseconds() - t0)
                    status = .extending
                }
            }
        }
        if aligned, trackingState == .normal, !refining, pendingDetection == nil, loops.attemptDue(at: timestamp),
           let now = startLoopDetection(timestamp: timestamp, T_odom_camera: T_oc, image: image) {
            closure = now
        }
        var out = output(status, start: start, relocalized: relocalized, added: added)
        out.attempt = attempt
        out.loopClosure = closure
        return out
    }

    /// `T_world_odom` after relocalization `r`: its single-image answer, or, with
    /// ``WorldMapperConfiguration/jointPlacement``, the solve over the inliers of every
    /// relocalization of this placement so far, the odometry joining their frames.
    private func place(_ r: Relocalization, T_odom_camera T_oc: RigidTransform) -> RigidTransform {
        let single = Self.yawAndTranslation(r.T_world_camera * T_oc.inverse)
        guard jointPlacementNow else { return single }
        let R_oc = T_oc.rotationMatrix
        placementViews += r.inliers.map {
            GravityAlignedPnP.OdometryView(bearing_odom: R_oc * $0.bearing_camera, point_world: $0.point_world, centre_odom: T_oc.translation)
        }
        guard placementViews.count > r.inliers.count else { return single }
        let yaw = LoopCloser.yaw(of: single)
        let joint = GravityAlignedPnP.placeOdometry(placementViews, yaw: yaw, t: single.translation,
                                                    scale: relocalizer.pnp.threshold / 2)
        guard joint.yaw.isFinite, joint.t.x.isFinite, joint.t.y.isFinite, joint.t.z.isFinite else { return single }
        return RigidTransform(rotationMatrix: GravityAlignedPnP.rz(joint.yaw), translation: joint.t)
    }

    /// Whether relocalization `r` may set the placement: always for a segment not yet placed;
    /// while refining a placed one, a move of the camera beyond
    /// ``WorldMapperConfiguration/refinementStep`` (or beyond what the filter's settling since the
    /// placement explains, ``WorldMapperConfiguration/settlingAllowance``) needs
    /// ``WorldMapperConfiguration/refinementInliers``.
    /// A single PnP on a mono map's points with few inliers can be a decimetre off: after a 3 s
    /// blackout on the V1_01 flight, refinements with 16 and 17 inliers moved the camera 13 and
    /// 18 cm in opposite directions, where the hand-held walks' refinements (5–8 cm) had 63–78.
    private func admitsPlacement(_ r: Relocalization, T_odom_camera T_oc: RigidTransform, positionSigma: Double?) -> Bool {
        guard aligned, !r.confirmsPrediction else { return true }
        let step = ((T_world_odom * T_oc).translation - r.T_world_camera.translation).norm
        let settled = max(0, (placementSigma ?? 0) - (positionSigma ?? .infinity))
        let allowed = max(configuration.refinementStep, configuration.settlingAllowance * settled)
        return step <= allowed || r.inlierCount >= configuration.refinementInliers
    }

    /// The placement to take from relocalization `r`: `r` itself when it had a prediction or
    /// enough inliers (``WorldMapperConfiguration/refinementInliers``); otherwise, as ORB-SLAM's
    /// relocalization does, the map points are projected into the view `r` implies and the answer
    /// taken only when that search verifies it with enough inliers, within
    /// ``WorldMapperConfiguration/placementAgreement`` of `r`. Nil: not sure enough.
    /// A single global solve from 15–19 inliers can be decimetres off (a second session along
    /// V1_02 in a V1_01 map: 39 cm), while the projection search around a right one finds 25–70.
    private func confirmedPlacement(_ r: Relocalization, image: GrayImage) -> Relocalization? {
        guard !aligned, !predictionValid, r.inlierCount < configuration.refinementInliers else { return r }
        guard let p = relocalizer.locate(image, predicted: r.T_world_camera, camera: camera, in: database,
                                         search: configuration.placementVerification),
              p.inlierCount >= configuration.refinementInliers else { return nil }
        let yaw = abs(wrapAngle(LoopCloser.yaw(of: p.T_world_camera) - LoopCloser.yaw(of: r.T_world_camera)))
        guard (p.T_world_camera.translation - r.T_world_camera.translation).norm <= configuration.placementAgreement.position,
              yaw <= configuration.placementAgreement.yaw else { return nil }
        return p
    }

    /// Whether the coasted segment may keep the odometry's placement: the filter's position σ grew
    /// by at most ``WorldMapperConfiguration/coastedGrowthLimit`` since the last normal frame.
    private func acceptsCoastedSegment(positionSigma: Double?) -> Bool {
        guard configuration.coastedGrowthLimit > 0, let now = positionSigma, let before = sigmaBeforeBlind else { return false }
        return (max(0, now * now - before * before)).squareRoot() <= configuration.coastedGrowthLimit
    }

    /// Relocalizes the frame: by projecting map points into the predicted view when the current
    /// odometry frame is placed (refining) or was placed before a coasted blind stretch, otherwise
    /// (and when that finds too little) by global descriptor matching.
    private func relocate(_ image: GrayImage, T_odom_camera T_oc: RigidTransform) -> Relocalization? {
        if aligned || predictionValid,
           let r = relocalizer.locate(image, predicted: T_world_odom * T_oc, camera: camera, in: database) {
            return r
        }
        return relocalizer.locate(image, R_gravity_camera: T_oc.rotationMatrix, camera: camera, in: database)
    }

    private func output(_ status: WorldMappingStatus, start: Double, relocalized: Bool, added: Bool) -> MappingOutput {
        MappingOutput(T_world_odom: T_world_odom, isAligned: aligned, status: status, relocalized: relocalized,
                      milliseconds: ThreadClock.milliseconds() - start, addedKeyframe: added)
    }

    /// Whether the map holds the points of `view` already (``WorldMapperConfiguration/redundancy``).
    /// `view` is what a keyframe made here would keep (``snappedView(_:T_odom_camera:image:)``), so
    /// the question is whether that keyframe would add anything. Asked at most once per
    /// ``WorldMapperConfiguration/keyframeInterval``; the answer is held between (`redundancyCheck`).
    private func viewIsRedundant(_ view: [(point: TrackedFeaturePoint, pixel: Vector2)], T_odom_camera T_oc: RigidTransform) -> Bool {
        let rule = configuration.redundancy
        guard rule.observers > 0, view.count >= configuration.minimumKeyframePoints else { return false }
        let points = view.map { T_world_odom * $0.point.position_world }
        return database.heldFraction(of: points, seenFrom: T_world_odom * T_oc, rule: rule, where: isSettled) >= rule.fraction
    }

    /// The feature points in front of cam0 and inside its image that lie within 3 px of a corner
    /// of `image`, each with that corner: where a keyframe describes its points, since the query
    /// side of relocalization describes detected corners too and both must see the same positions.
    private func snappedView(_ featurePoints: [TrackedFeaturePoint], T_odom_camera T_oc: RigidTransform,
                             image: GrayImage) -> [(point: TrackedFeaturePoint, pixel: Vector2)] {
        let T_co = T_oc.inverse
        let corners = relocalizer.detectCorners(image)
        return featurePoints.compactMap { p in
            let pc = T_co * p.position_world
            guard pc.z > 0.1, let uv = camera.project(pc), camera.contains(uv),
                  let nearest = corners.min(by: { (($0 - uv) * ($0 - uv)).sum() < (($1 - uv) * ($1 - uv)).sum() }),
                  ((nearest - uv) * (nearest - uv)).sum() <= 9 else { return nil }
            return (p, nearest)
        }
    }

    private func addKeyframe(timestamp: Double, T_odom_camera T_oc: RigidTransform,
                             view: [(point: TrackedFeaturePoint, pixel: Vector2)], image: GrayImage) -> Bool {
        let described = relocalizer.extractor.describe(image, at: view.map(\.pixel))
        guard described.count >= configuration.minimumKeyframePoints else { return false }
        let points = described.map { d in
            KeyframePoint(featureID: view[d.index].point.id, position_world: T_world_odom * view[d.index].point.position_world,
                          pixel: d.keypoint.pixel, descriptor: d.keypoint.descriptor)
        }
        let id = database.nextID
        let keyframe = Keyframe(id: id, timestamp: timestamp, T_world_camera: T_world_odom * T_oc, points: points)
        database.add(keyframe)
        loops.keyframeAdded(id: id, segment: segment, T_odom_camera: T_oc, timestamp: timestamp, accelerometerBias: accelerometerBias)
        if accelerometerBias != nil { settling.insert(id) }
        recordPlacementEdges(to: keyframe)
        return true
    }

    /// Turns the relocalizations that placed the current segment into loop edges to its first
    /// keyframe. A relocalization is a PnP against map points, as a loop detection is; without
    /// its edge the segment hangs off the rest of the graph by the weak segment link alone, and
    /// the first loop found decides where it lies. On a second session in a loaded map (simulated
    /// V1_02 against a V1_01 map, from 35 s) a loop with 21 inliers, 15 cm and 1.8° off, moved
    /// a segment the relocalizations had placed within 1.3 cm (docs/world-maps.md).
    private func recordPlacementEdges(to keyframe: Keyframe) {
        for p in placements where p.segment == segment {
            guard let oldID = p.found.keyframeIDs.first, let old = database.keyframes.first(where: { $0.id == oldID }) else { continue }
            loops.addLoop(old: old, latest: keyframe, T_world_camera: p.found.T_world_camera, T_odom_camera: p.T_odom_camera)
        }
        placements.removeAll()
    }

    /// How far (rad) the tracker has re-levelled keyframe `k`'s view since it was made: the
    /// horizontal part of the change of its accelerometer bias estimate, turned into the world by
    /// the keyframe's attitude, over g. Tilt and horizontal bias share the measured specific force
    /// (a still or slowly moving body cannot tell them apart), so when the filter corrects its bias
    /// by δ it corrects its tilt by about |δ_h| / g, and what it placed before — the keyframe's pose
    /// and its points — keeps the old tilt. A 4-DoF pose graph cannot move a tilt, and a loop PnP
    /// against such points holds the current, right tilt and turns the difference into a shift of
    /// tilt × depth. Measured on hand-held starts (stop 71): tilt errors of 1–3° for the first
    /// 5–8 s while the filter's σ said 0.3–0.6°, matching |δ_h| / g (rpng_table_01 phone walk:
    /// bias 0.49 m/s² off, tilt 2.85° off), then 0.1° once the bias had settled.
    /// 0 for a keyframe of a loaded map or without a recorded bias.
    public func unsettledTilt(of k: Keyframe) -> Double {
        guard let then = loops.records[k.id]?.accelerometerBias, let now = accelerometerBias else { return 0 }
        return Self.tiltChange(biasThen: then, biasNow: now, T_world_camera: k.T_world_camera)
    }

    /// The tilt (rad) that a change of the accelerometer bias estimate from `biasThen` to
    /// `biasNow` (camera axes, m/s²) stands for, for a camera at `T_world_camera` (z-up world):
    /// the change's horizontal part in the world over g. The vertical part only trades against the
    /// measured gravity's magnitude.
    public static func tiltChange(biasThen: Vector3, biasNow: Vector3, T_world_camera: RigidTransform) -> Double {
        let d = T_world_camera.rotate(biasNow - biasThen)
        return (d.x * d.x + d.y * d.y).squareRoot() / 9.81
    }

    /// Whether keyframe `k`'s tilt still agrees with the tracker's (``WorldMapperConfiguration/settledTilt``):
    /// unsettled keyframes are no loop candidates and do not cover their place.
    public func isSettled(_ k: Keyframe) -> Bool {
        configuration.settledTilt <= 0 || settledForGood.contains(k.id) || unsettledTilt(of: k) <= configuration.settledTilt
    }

    /// Keyframes that stayed settled through ``WorldMapperConfiguration/settlingWindow`` join
    /// `settledForGood`; one found unsettled meanwhile is judged afresh on every frame from then on.
    private func updateSettling(now: Double) {
        guard configuration.settledTilt > 0, accelerometerBias != nil, !settling.isEmpty else { return }
        for k in database.keyframes where settling.contains(k.id) {
            if unsettledTilt(of: k) > configuration.settledTilt {
                settling.remove(k.id)
            } else if let made = loops.records[k.id]?.madeAt, now - made >= configuration.settlingWindow {
                settling.remove(k.id)
                settledForGood.insert(k.id)
            }
        }
    }

    /// The yaw-and-translation part of a transform whose rotation should be about z only.
    static func yawAndTranslation(_ T: RigidTransform) -> RigidTransform {
        let x = T.rotate(Vector3(1, 0, 0))
        let yaw = atan2(x.y, x.x)
        return RigidTransform(rotationMatrix: GravityAlignedPnP.rz(yaw), translation: T.translation)
    }
}
