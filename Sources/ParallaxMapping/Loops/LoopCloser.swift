import Foundation
import ParallaxMath
import ParallaxTracking

/// Settings of loop closing (see ``LoopCloser``).
public struct LoopClosureConfiguration: Sendable {
    /// Off: the mapper only relocalizes (the odometry-only baseline of `parallax evaluate map`).
    public var enabled = true
    /// Keyframes made less than this long ago (s) are not loop candidates: a loop must revisit a
    /// place, not match the view the tracker is still following.
    public var minimumAge = 10.0
    /// Seconds between loop detection attempts (each costs about a relocalization attempt).
    public var interval = 0.5
    /// Data seconds from a detection attempt's frame to the frame its answer is collected at; the
    /// search runs on the mapping thread meanwhile. 0: on the tracking thread at once.
    public var detectionLatency = 0.5
    /// Prior σ (rad) on the camera's tilt when a loop's PnP is refined with roll and pitch free
    /// (``TiltFreePnP``): the tracker's tilt when the old points were made and now differ by
    /// tenths of a degree, which a tilt held fixed turns into a sideways error of tilt × depth.
    /// Nil (the default): the gravity-aligned PnP's pose as it is. Measured 2026-11-26 (stop 32)
    /// at 0.3° (`parallax evaluate map --loop-tilt-sigma 0.3`), pose-graph keyframes / live:
    /// TUM-VI room3 9.6 → 6.7 mm / 1.2 → 1.0 cm (its loops 23.5 → 13 mm off the truth), room2
    /// 7.0 → 5.9 mm / 1.1 → 1.2 cm, V1_02 stereo 6.5 → 6.1 mm, the room3 phone profile 12.6 →
    /// 11.4 mm; but live MH_01 180 s stereo 2.1 → 2.3 cm, mono 2.3 → 2.4, rpng_table_03 0.9 →
    /// 1.0: where the points are far or the tilt is already right, a free tilt adds the tilt–shift
    /// ambiguity's noise to every loop. An F-test on the two extra unknowns
    /// (``tiltSignificance``) did not tell the cases apart, so it stays off.
    public var tiltSigma: Double? = nil
    /// The F statistic the freed tilt must reach to be kept (see ``TiltFreePnP``); 0 keeps every
    /// refinement (at 5 with σ 1°: room3 7.1 mm, MH_01 180 s stereo live still 2.3 cm).
    public var tiltSignificance = 0.0
    /// Fewest PnP inliers for a loop accepted on one detection (the relocalizer needs 15; a loop
    /// moves the whole map).
    public var minimumInliers = 25
    /// Fewest PnP inliers for a loop accepted when the next detection confirms it: both pass the
    /// odometry checks and put the camera in the same place (``confirmationAgreement``). Two
    /// consecutive agreeing matches are the evidence ORB-SLAM asks of a loop candidate (Mur-Artal &
    /// Tardós, IEEE T-RO 2015, §VI-A: consecutive consistent candidates), and a sparse map (a
    /// mono drone in a hall holds about 20 points per keyframe) rarely gives one image 25 inliers.
    public var minimumConfirmedInliers = 15
    /// How closely (m, rad) two detections must agree: the world pose of the odometry frame
    /// implied by the first, carried along the odometry to the second's camera, against the
    /// second's PnP pose.
    public var confirmationAgreement = (position: 0.04, yaw: 0.75 * Double.pi / 180)
    /// Most data seconds between two detections that confirm each other.
    public var confirmationWindow = 1.5
    /// Drift allowance per metre for a loop that needs confirming, tighter than ``driftPerMetre``:
    /// repeated texture gives pairs of consecutive false matches that agree with each other (in the
    /// simulated hall, a copy of the scene 4–6 m along with the right yaw), and a loop with few
    /// inliers should not move the map by more than plausible drift.
    public var confirmedDriftPerMetre = 0.02
    /// The PnP yaw may differ from the odometry's by at most this (rad) …
    public var maximumYawDisagreement = 8.0 * Double.pi / 180
    /// … and the position by at most this (m) plus ``driftPerMetre`` times the path length
    /// travelled since the old keyframe: drift grows with distance; a false match rarely lands
    /// inside this bound with enough inliers.
    public var maximumPositionDisagreement = 0.15
    /// Drift allowance per metre travelled (see ``maximumPositionDisagreement``).
    public var driftPerMetre = 0.05
    /// Odometry edge standard deviations (m, rad) between consecutive keyframes (a few tenths
    /// of a second apart: the tracker drifts centimetres over minutes, so a short edge is stiff).
    public var odometrySigma = (position: 0.004, yaw: 0.002)
    /// The same when the odometry is stereo (``trackerMode``): half the mono figures. On the same
    /// runs stereo odometry drifts about 0.6× as much as mono (keyframe ATE 1.2–2.2 against
    /// 1.6–4.0 cm), and with mono σ the loops (1–4 cm off each) pulled a stereo graph more than its
    /// odometry deserved: MH_01 stereo 1.1 / 1.2 → 0.9 / 1.0 cm (two seeds), live 1.9 / 2.0 →
    /// 1.6 / 1.8 cm; V1_02 and rpng_table_03 stereo unchanged (0.7, 0.5 cm).
    public var stereoOdometrySigma = (position: 0.002, yaw: 0.001)
    /// The mode of the tracker whose odometry the graph's edges come from (picks
    /// ``odometrySigma`` or ``stereoOdometrySigma``).
    public var trackerMode: TrackerConfiguration.Mode = .mono
    /// Loop edge standard deviations (m, rad): PnP against triangulated points is less exact
    /// than a short stretch of odometry, but a loop is worth many odometry edges.
    public var loopSigma = (position: 0.03, yaw: 0.01)
    /// Weak link between the last keyframe of one tracking segment and the first of the next
    /// (the segment was placed by relocalization, or accepted as is — then the link is a guess):
    /// it only keeps the graph connected, so loops decide where a segment lies.
    public var segmentLinkSigma = (position: 10.0, yaw: 1.0)
    /// Loop edges of detections with fewer than ``minimumInliers`` (accepted because the next
    /// detection confirmed them) take ``loopSigma`` times this: a confirmation shows the match is
    /// right, not that a PnP on 15–24 points is as precise as one on more. Measured 2026-11-26
    /// (stop 31), 1 → 2: V1_01 30 s stereo keyframes 11.9 → 8.3 mm (live 1.1 → 0.8 cm; its three
    /// loops were all weak, the first moved the live pose 1.8 cm while the odometry was within
    /// 7 mm), V1_02 84 s mono live 1.6 → 1.4 cm, MH_01 180 s mono keyframes 13.0 → 12.6 mm; MH_01
    /// 30 s mono keyframes 6.6 → 7.4 mm and rpng_table_03 60 s 4.8 → 5.1 mm (live unchanged).
    public var weakLoopSigmaScale = 2.0
    /// Huber threshold (whitened) on loop edges.
    public var loopHuber = 3.0
    /// Data seconds between a loop's detection and the frame its correction is applied at; the
    /// pose graph is optimised on a background thread meanwhile (see `PendingLoopClosure`), so
    /// tracking does not wait for it. 0: optimised on the tracking thread and applied at once.
    public var optimizationLatency = 1.0
    /// Most Gauss–Newton steps per optimisation.
    public var iterations = 20
    /// Shortest data time (s) between two optimisations: a loop found sooner adds its edge and
    /// waits (the latest such loop is optimised, with every edge so far, when the interval is
    /// over). On a walk that keeps revisiting a room, loops come every second or two. 5 s when an
    /// optimisation over hundreds of keyframes cost tens of milliseconds; 1 s since the block
    /// Cholesky brought that to about 11 ms (2026-11-26, stop 31): the live estimate is corrected
    /// sooner (second sessions in a loaded map, anchor error 90th percentile 50 → 42 mm on mono
    /// V1_02; live ATE 0.1 cm lower on four of seven runs, the pose-graph keyframes within 0.1 mm).
    public var minimumOptimizationInterval = 1.0
    /// A loop whose PnP pose agrees with the map's current poses within these (m, rad) adds its
    /// edge without an optimisation: the map is already consistent there (on a walk that keeps
    /// revisiting one room most loops are), and the edge counts at the next optimisation.
    public var minimumCorrection = (position: 0.005, yaw: 0.1 * Double.pi / 180)
    /// Most loop edges kept per current keyframe (the newest replace the oldest; a second edge
    /// between the same two keyframes replaces the first). Where the map already covers the room
    /// the tracker makes few keyframes, so every detection of a long revisit attaches to the same
    /// latest keyframe: on a 10-minute walk round a table 1 250 edges, the graph's rows joined to
    /// hundreds of others and one optimisation took up to 2.7 s. The newest edges carry the least
    /// odometry between the detection and the keyframe.
    public var maximumLoopEdgesPerKeyframe = 3
    /// Guided search for loops: old keyframes' points projected into the view the map predicts
    /// (ORB-SLAM's search by projection) before the bag-of-words search, which is the fallback.
    /// The odometry drifts centimetres over a revisit, so the prediction lands the old points
    /// within pixels of their corners wherever the camera comes back, even between or beside the
    /// keyframes, where a whole-image vote finds too few matches. The prediction is never kept as
    /// the answer (a loop measures the drift): the PnP solution is. Nil: bag of words only.
    public var projection: ProjectionSearch? = {
        var search = ProjectionSearch()
        search.confirmationMinimum = .max
        return search
    }()
    /// Creates the defaults.
    public init() {}
}

/// A loop closure the mapper applied: the evidence and the corrections, so a client (the AR
/// session) can move what it placed in the world.
public struct LoopClosureEvent: Sendable {
    /// Frame time (s).
    public var timestamp: Double
    /// The revisited keyframe.
    public var oldKeyframeID: Int
    /// The current segment's latest keyframe, which the loop edge joins to it.
    public var currentKeyframeID: Int
    /// PnP inliers.
    public var inliers: Int
    /// Correction applied to the live estimate (`T_world_odom ← correction · T_world_odom`).
    public var liveCorrection: RigidTransform
    /// Per keyframe (id, position before the correction, 4-DoF correction applied to it).
    public var keyframeCorrections: [(id: Int, position: Vector3, correction: RigidTransform)]
    /// CPU milliseconds of the pose-graph optimisation (on the background thread unless
    /// ``LoopClosureConfiguration/optimizationLatency`` is 0).
    public var optimizationMilliseconds: Double
    /// Frame time (s) the loop was detected at; ``timestamp`` is when it was applied.
    public var detectedAt = 0.0
    /// Wall-clock milliseconds the tracking thread waited for the background optimisation at
    /// the hand-off (0 when it had finished).
    public var waitMilliseconds = 0.0
    /// Gauss–Newton steps taken and the graph's cost (squared whitened residuals) before and after.
    public var iterations = 0, costBefore = 0.0, costAfter = 0.0

    /// The correction for something placed at `position_world` (before the correction): that of
    /// the nearest keyframe, as anchors are attached to keyframes (ARKit moves anchors with the
    /// map's keyframes the same way). Identity when there are no keyframes.
    public func correction(near position_world: Vector3) -> RigidTransform {
        keyframeCorrections.min { ($0.position - position_world).squaredNorm < ($1.position - position_world).squaredNorm }?
            .correction ?? .identity
    }

    /// ``correction(near:)`` for many positions, with the same answers: the keyframes are indexed
    /// once (``NearestPointIndex``), so moving n points costs about n log k distances instead of
    /// n k (thousands of map points against hundreds of keyframes at every closure).
    public func corrections() -> (Vector3) -> RigidTransform {
        let index = NearestPointIndex(keyframeCorrections.map(\.position))
        let corrections = keyframeCorrections.map(\.correction)
        return { position in index.nearest(to: position).map { corrections[$0] } ?? .identity }
    }
}

/// Loop closing over the mapper's keyframes (VINS-Mono's model): the odometry of every segment
/// gives edges between consecutive keyframes; a verified revisit of an old keyframe gives a loop
/// edge; a 4-DoF ``PoseGraph`` then spreads the loop's correction along the keyframes.
struct LoopCloser {
    var configuration: LoopClosureConfiguration
    /// What the mapper knows of a keyframe it made itself (loaded keyframes have none).
    struct Record {
        var segment: Int
        var T_odom_camera: RigidTransform
        var madeAt: Double
        var path: Double
        /// The tracker's accelerometer bias (cam0 axes, m/s²) when the keyframe was made; nil when
        /// not given (see ``WorldMapper/unsettledTilt(of:)``).
        var accelerometerBias: Vector3? = nil
    }
    private(set) var records: [Int: Record] = [:]
    private(set) var loopEdges: [PoseGraphEdge] = []
    /// A loop whose edge is in the graph but whose optimisation waits for the interval.
    struct DeferredLoop { var old: Int, latest: Int, inliers: Int }
    var deferred: DeferredLoop?
    /// The latest detection that passed the odometry checks, kept so that the next one can
    /// confirm it (``LoopClosureConfiguration/minimumConfirmedInliers``).
    struct Detection {
        var timestamp: Double
        var segment: Int
        var old: Keyframe, latest: Keyframe
        var T_world_camera: RigidTransform, T_odom_camera: RigidTransform
        /// True once its loop edge is in the graph.
        var edgeAdded: Bool
    }
    var lastDetection: Detection?
    /// Frame time of the latest optimisation started.
    var lastOptimizationAt = -Double.infinity
    private var lastAttempt = -Double.infinity
    /// A segment accepted where the odometry put it after the relocalization timeout: its yaw
    /// and position are a guess, so a loop is not checked against them (inliers only) and
    /// re-places it.
    var unverifiedSegment: Int?
    /// Odometry path length (m) of this session.
    private(set) var path = 0.0
    private var lastCameraPosition: Vector3?

    init(configuration: LoopClosureConfiguration) { self.configuration = configuration }

    /// Accumulates the path length (camera positions in the odometry frame; a new segment restarts).
    mutating func moved(to T_odom_camera: RigidTransform, newSegment: Bool) {
        if let last = lastCameraPosition, !newSegment { path += (T_odom_camera.translation - last).norm }
        lastCameraPosition = T_odom_camera.translation
    }

    mutating func keyframeAdded(id: Int, segment: Int, T_odom_camera: RigidTransform, timestamp: Double, accelerometerBias: Vector3? = nil) {
        records[id] = Record(segment: segment, T_odom_camera: T_odom_camera, madeAt: timestamp, path: path,
                             accelerometerBias: accelerometerBias)
    }

    /// True when a detection attempt is due.
    mutating func attemptDue(at timestamp: Double) -> Bool {
        guard configuration.enabled, timestamp - lastAttempt >= configuration.interval else { return false }
        lastAttempt = timestamp
        return true
    }

    /// True for a keyframe old enough to close a loop with.
    func isCandidate(_ k: Keyframe, now: Double) -> Bool {
        records[k.id].map { now - $0.madeAt >= configuration.minimumAge } ?? true
    }

    /// Checks a PnP answer against the odometry's prediction; the reason when rejected.
    /// Answers with fewer than ``LoopClosureConfiguration/minimumInliers`` (but at least
    /// ``LoopClosureConfiguration/minimumConfirmedInliers``) pass here and still need confirming
    /// (``confirms(_:_:)``).
    func check(_ r: Relocalization, predicted T_world_camera: RigidTransform, oldKeyframe: Int, segment: Int) -> String? {
        if r.inlierCount < configuration.minimumConfirmedInliers { return "inliers \(r.inlierCount) < \(configuration.minimumConfirmedInliers)" }
        if unverifiedSegment == segment { return nil }
        let yaw = abs(wrapAngle(Self.yaw(of: r.T_world_camera) - Self.yaw(of: T_world_camera)))
        if yaw > configuration.maximumYawDisagreement {
            return String(format: "yaw disagrees with the odometry by %.1f°", yaw * 180 / .pi)
        }
        let travelled = records[oldKeyframe].map { path - $0.path } ?? 10
        let drift = r.inlierCount < configuration.minimumInliers ? configuration.confirmedDriftPerMetre : configuration.driftPerMetre
        let bound = configuration.maximumPositionDisagreement + drift * max(0, travelled)
        let distance = (r.T_world_camera.translation - T_world_camera.translation).norm
        if distance > bound { return String(format: "position disagrees with the odometry by %.2f m (bound %.2f m)", distance, bound) }
        return nil
    }

    /// True when detection `later` puts the camera where `earlier` does: the world pose of the
    /// odometry frame that `earlier`'s PnP implies, applied to `later`'s odometry pose, against
    /// `later`'s PnP pose (comparing at the camera, not at the odometry origin, keeps the yaw's
    /// lever arm out). Both must belong to one tracking segment and lie within the window.
    func confirms(_ earlier: Detection, _ later: Detection) -> Bool {
        guard earlier.segment == later.segment, later.timestamp - earlier.timestamp <= configuration.confirmationWindow else { return false }
        let T_world_odom = earlier.T_world_camera * earlier.T_odom_camera.inverse
        let carried = T_world_odom * later.T_odom_camera
        let yaw = abs(wrapAngle(Self.yaw(of: carried) - Self.yaw(of: later.T_world_camera)))
        let distance = (carried.translation - later.T_world_camera.translation).norm
        return distance <= configuration.confirmationAgreement.position && yaw <= configuration.confirmationAgreement.yaw
    }

    /// Records a loop edge: old keyframe `old` (pose in the world now) to `latest`, whose loop
    /// pose is the PnP camera pose carried back along the odometry to the keyframe. Returns how
    /// far the edge disagrees with the map's current poses (nil when `latest` is unknown).
    @discardableResult
    mutating func addLoop(old: Keyframe, latest: Keyframe, T_world_camera pnp: RigidTransform,
                          T_odom_camera current: RigidTransform, weak: Bool = false) -> YawPose? {
        guard let record = records[latest.id] else { return nil }
        let T_world_latest = pnp * current.inverse * record.T_odom_camera
        let measurement = Self.yawPose(old.T_world_camera).relative(to: Self.yawPose(T_world_latest))
        loopEdges.removeAll { $0.from == old.id && $0.to == latest.id }
        // Drop the oldest edges of `latest` until the new one fits (edges are kept in arrival order).
        while loopEdges.filter({ $0.to == latest.id }).count >= max(1, configuration.maximumLoopEdgesPerKeyframe),
              let oldest = loopEdges.firstIndex(where: { $0.to == latest.id }) {
            loopEdges.remove(at: oldest)
        }
        let scale = weak ? configuration.weakLoopSigmaScale : 1
        loopEdges.append(PoseGraphEdge(from: old.id, to: latest.id, measurement: measurement, positionSigma: scale * configuration.loopSigma.position,
                                       yawSigma: scale * configuration.loopSigma.yaw, huber: configuration.loopHuber))
        let now = Self.yawPose(old.T_world_camera).relative(to: Self.yawPose(latest.T_world_camera))
        return YawPose(yaw: wrapAngle(measurement.yaw - now.yaw), position: measurement.position - now.position)
    }

    /// True when a loop edge's disagreement with the map is too small to optimise for.
    func isConsistent(_ disagreement: YawPose) -> Bool {
        disagreement.position.norm < configuration.minimumCorrection.position && abs(disagreement.yaw) < configuration.minimumCorrection.yaw
    }

    /// The pose graph over `database`: the keyframes' 4-DoF poses in keyframe order (their ids in
    /// `ids`), odometry edges between consecutive keyframes of a segment, weak links across
    /// segments, and the loop edges.
    func graph(_ database: KeyframeDatabase) -> (graph: PoseGraph, ids: [Int]) {
        let keyframes = database.keyframes
        var index: [Int: Int] = [:]
        for (n, k) in keyframes.enumerated() { index[k.id] = n }
        let before = keyframes.map { Self.yawPose($0.T_world_camera) }
        // Held: the first keyframe (the gauge) and every keyframe of a loaded map.
        let fixed = keyframes.enumerated().map { $0.offset == 0 || records[$0.element.id] == nil }
        var edges: [PoseGraphEdge] = []
        for n in keyframes.indices.dropFirst() {
            let a = keyframes[n - 1], b = keyframes[n]
            if let ra = records[a.id], let rb = records[b.id], ra.segment == rb.segment {
                let m = Self.yawPose(ra.T_odom_camera).relative(to: Self.yawPose(rb.T_odom_camera))
                let sigma = configuration.trackerMode == .stereo ? configuration.stereoOdometrySigma : configuration.odometrySigma
                edges.append(PoseGraphEdge(from: n - 1, to: n, measurement: m, positionSigma: sigma.position, yawSigma: sigma.yaw))
            } else {
                edges.append(PoseGraphEdge(from: n - 1, to: n, measurement: before[n - 1].relative(to: before[n]),
                                           positionSigma: configuration.segmentLinkSigma.position, yawSigma: configuration.segmentLinkSigma.yaw))
            }
        }
        for e in loopEdges {
            guard let a = index[e.from], let b = index[e.to] else { continue }
            var edge = e
            edge.from = a
            edge.to = b
            edges.append(edge)
        }
        return (PoseGraph(nodes: before, fixed: fixed, edges: edges), keyframes.map(\.id))
    }

    /// Heading of a camera pose: the azimuth of its x axis (image right), which stays near
    /// horizontal for a camera looking forward or down; the yaw a world-side rotation adds to it
    /// is exact whatever the axis.
    static func yaw(of T: RigidTransform) -> Double { YawPose(T).yaw }

    static func yawPose(_ T: RigidTransform) -> YawPose { YawPose(T) }

    /// The world-side 4-DoF transform moving a pose at `from` to `to` (yaw about z, then shift).
    static func correction(from: YawPose, to: YawPose) -> RigidTransform {
        let R = GravityAlignedPnP.rz(wrapAngle(to.yaw - from.yaw))
        let T = RigidTransform(rotationMatrix: R, translation: .zero)
        return RigidTransform(rotationMatrix: R, translation: to.position - T * from.position)
    }
}
