import Foundation
import ParallaxAR
import ParallaxDatasets
import ParallaxMapping
import ParallaxMath
import ParallaxTracking
import ParallaxVision

/// Issue 16's second-session figures, measured against the ground truth with no fit to the second
/// session: session 1 maps one dataset and saves the map (through the file format, as
/// `replay --save-map` does); sessions 2 start at chosen times of another dataset of the same scene
/// with that map loaded, and must localize in it.
///
/// **Anchors.** Session 1 places one anchor in front of each k-th keyframe (``anchorDistance``
/// along the camera's optical axis, where a user's tap on a surface ahead would put it), at the
/// keyframe's pose in the saved map (after loop closure). Where the user meant it is where session
/// 1 showed it: the true body pose at that keyframe carries the anchor's body-frame offset into the
/// real world. In session 2 the anchor is drawn where the session's estimate puts it relative to
/// the camera; the true body pose at that frame carries that into the real world. The distance
/// between the two real-world points is the **anchor error**: what a user would see move, over
/// every frame that has the anchor in view. It uses the two ground truths only, joined through the
/// scene (`truth/planes.json`'s `T_scene_world` of each simulated dataset), so no alignment is
/// fitted to either session.
///
/// **Camera error** (secondary): session 2's body position in the map world, carried into the
/// truth by a posyaw alignment fitted on session 1's frames (so it holds session 1's own error).
public struct SecondSessionEvaluation {
    /// One second session.
    public struct Start: Sendable {
        /// Start in the session dataset, seconds after its first frame.
        public var start: Double
        /// Seconds from the start to the first frame tracked normally and placed in the map, nil if never.
        public var localizedAfter: Double?
        /// Body position errors (m) of the frames after localizing, in the truth via session 1's alignment.
        public var cameraErrors: [Double]
        /// Seconds after the start of each of ``cameraErrors``.
        public var cameraErrorTimes: [Double] = []
        /// Anchor errors (m): one per frame and anchor in view after localizing.
        public var anchorErrors: [Double]
        /// Distinct anchors seen.
        public var anchorsSeen: Int
        /// Frames in the session.
        public var frames: Int
        /// Loop closures optimised and loop candidates refused in the session (after localizing,
        /// loops against the loaded map keep correcting it), and why each was refused.
        public var loopsClosed = 0, loopsRefused: [String] = []
    }

    /// The map's size and session 1's own accuracy.
    public struct MapSummary: Sendable {
        /// Keyframes and map points saved; anchors placed.
        public var keyframes: Int, points: Int, anchors: Int
        /// Session 1's ATE (posyaw, m) over its normal frames.
        public var sessionATE: Double
    }

    /// The dataset session 1 maps, and its time range.
    public var mapDataset: EuRoCDataset
    public var mapRange: (from: Double?, to: Double?) = (nil, nil)
    /// The dataset the second sessions run on (may be the same folder).
    public var sessionDataset: EuRoCDataset
    /// Tracker mode of both sessions.
    public var mode: TrackerConfiguration.Mode
    /// Mapper settings of both sessions.
    public var configuration = WorldMapperConfiguration()
    /// Metres in front of the camera where an anchor is placed.
    public var anchorDistance = 1.5
    /// One anchor per this many keyframes.
    public var anchorStride = 5
    /// Farthest an anchor counts as in view (m).
    public var viewDistance = 6.0

    /// Creates an evaluation.
    public init(mapDataset: EuRoCDataset, sessionDataset: EuRoCDataset, mode: TrackerConfiguration.Mode) {
        self.mapDataset = mapDataset
        self.sessionDataset = sessionDataset
        self.mode = mode
    }

    /// Runs session 1, then one session 2 per start (each `duration` seconds long).
    public func run(starts: [Double], duration: Double) throws -> (map: MapSummary, starts: [Start]) {
        let T_session_map = try truthLink()
        let camera = try mapDataset.cameras[0].makeCameraModel()
        let T_body_camera = mapDataset.cameras[0].T_body_camera
        var settings = configuration
        settings.loopClosure.trackerMode = mode

        let first = WorldMapper(camera: camera, configuration: settings)
        let one = try MappedReplay(dataset: mapDataset, mode: mode).run(mapper: first, from: mapRange.from, to: mapRange.to)
        let good = one.filter { $0.state == .normal && $0.position_world != nil && $0.truth_world != nil }
        guard good.count >= 3 else {
            throw SessionError("\(mapDataset.mav0.path): session 1 tracked \(good.count) frames with ground truth; cannot place its map in the truth")
        }
        let alignment = try TrajectoryAlignment.estimate(.posyaw, estimate: good.compactMap(\.position_world),
                                                         reference: good.compactMap(\.truth_world))
        let squared = good.compactMap { s in s.position_world.flatMap { p in s.truth_world.map { (alignment.apply(p) - $0).squaredNorm } } }
        let sessionATE = (squared.reduce(0, +) / Double(squared.count)).squareRoot()

        // Anchors: a point ahead of every k-th keyframe camera, in the map world and in session 1's truth.
        let truthA = try GroundTruthPoses(dataset: mapDataset)
        var anchors: [(map: Vector3, truth: Vector3)] = []
        let ahead = T_body_camera * Vector3(0, 0, anchorDistance)
        for (i, kf) in first.database.keyframes.enumerated() where i % anchorStride == 0 {
            guard let truthBody = truthA?.T_world_body(at: Int64((kf.timestamp * 1e9).rounded())) else { continue }
            let T_world_body = kf.T_world_camera * T_body_camera.inverse
            anchors.append((T_world_body * ahead, T_session_map * (truthBody * ahead)))
        }

        // The saved map, through the file format.
        let bytes = MapFile.encode(MapArchive(keyframes: first.database, T_A_W: .identity, anchors: []))
        let loaded = try MapFile.decode(bytes)
        let summary = MapSummary(keyframes: loaded.keyframes.keyframes.count, points: loaded.keyframes.pointCount,
                                 anchors: anchors.count, sessionATE: sessionATE)

        let T_camera_body = T_body_camera.inverse, T_map_session = T_session_map.inverse
        var results: [Start] = []
        for start in starts {
            let mapper = WorldMapper(camera: camera, database: loaded.keyframes, configuration: settings)
            let two = try MappedReplay(dataset: sessionDataset, mode: mode).run(mapper: mapper, from: start, to: start + duration)
            guard let localized = two.first(where: { $0.state == .normal && $0.output.isAligned }) else {
                results.append(Start(start: start, localizedAfter: nil, cameraErrors: [], anchorErrors: [], anchorsSeen: 0, frames: two.count))
                continue
            }
            var cameraErrors: [Double] = [], times: [Double] = [], anchorErrors: [Double] = [], seen = Set<Int>()
            for s in two where s.time >= localized.time && s.state == .normal && s.output.isAligned {
                guard let T_world_body = s.T_world_body, let truthBody = s.truth_T_world_body else { continue }
                times.append(s.time)
                cameraErrors.append((alignment.apply(T_world_body.translation) - T_map_session * truthBody.translation).norm)
                let T_body_world = T_world_body.inverse
                for (k, anchor) in anchors.enumerated() {
                    let inBody = T_body_world * anchor.map
                    let inCamera = T_camera_body * inBody
                    guard inCamera.z > 0.2, inCamera.norm <= viewDistance, camera.project(inCamera) != nil else { continue }
                    anchorErrors.append((truthBody * inBody - anchor.truth).norm)
                    seen.insert(k)
                }
            }
            results.append(Start(start: start, localizedAfter: localized.time, cameraErrors: cameraErrors, cameraErrorTimes: times,
                                 anchorErrors: anchorErrors, anchorsSeen: seen.count, frames: two.count,
                                 loopsClosed: mapper.loopClosures.count, loopsRefused: mapper.rejectedLoops))
        }
        return (summary, results)
    }

    /// `T_sessionWorld_mapWorld` between the two ground truths: identity for one dataset folder,
    /// else through the scene both were simulated in (`T_scene_world` of each `truth/planes.json`).
    func truthLink() throws -> RigidTransform {
        let a = mapDataset.mav0.deletingLastPathComponent().standardizedFileURL
        let b = sessionDataset.mav0.deletingLastPathComponent().standardizedFileURL
        if a == b { return .identity }
        guard let T_scene_a = try PlaneTruthFile.sceneTransform(datasetRoot: a),
              let T_scene_b = try PlaneTruthFile.sceneTransform(datasetRoot: b) else {
            throw SessionError("the ground truths of \(a.path) and \(b.path) cannot be related: each needs truth/planes.json "
                               + "with T_scene_world (written by parallax simulate); use the same dataset for both sessions otherwise")
        }
        return T_scene_b.inverse * T_scene_a
    }
}
