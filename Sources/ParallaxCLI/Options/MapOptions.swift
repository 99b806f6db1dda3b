import ArgumentParser
import Foundation
import ParallaxAR
import ParallaxDatasets
import ParallaxMapping
import ParallaxMath
import ParallaxTracking

/// `--save-map` / `--load-map` of `parallax replay`: run the dataset through an AR session with
/// the world-map layer, starting from a saved map and/or saving the map at the end.
struct MapOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Save the world map at the end of the replay (keyframes, map points, anchors).",
                               valueName: "file.map"))
    var saveMap: String?

    @Option(help: ArgumentHelp("Start from a saved world map: the session relocalizes in it, then tracks in its world.",
                               valueName: "file.map"))
    var loadMap: String?

    @Option(parsing: .unconditional,
            help: "With --save-map: place a named anchor 1 m in front of the camera at this time (s after the start).")
    var anchorAt: Double?

    /// Whether a map option was given.
    var isRequested: Bool { saveMap != nil || loadMap != nil }

    func validate() throws {
        if let anchorAt { try NumberChecks.nonNegative(anchorAt, "--anchor-at", atMost: NumberChecks.maxSeconds, unit: "s") }
    }

    /// Replays `dataset` in an AR session with tracked poses and the map options; with
    /// `trajectory`, writes the body poses of the frames tracked normally in the map's world.
    func run(dataset: URL, from: Double?, to: Double?, tracker: TrackerConfiguration, trajectory: String? = nil) throws {
        let session = try Session(datasetAt: dataset, replay: ReplayOptions(source: .tracking, startTime: from, stopTime: to,
                                                                            trackerMode: tracker.mode,
                                                                            trackerConfiguration: tracker))
        var configuration = WorldTrackingConfiguration()
        configuration.isLightEstimationEnabled = false
        if let loadMap {
            let map = try WorldMap(contentsOf: URL(fileURLWithPath: loadMap))
            configuration.initialWorldMap = map
            print("loaded \(loadMap): \(map.keyframeCount) keyframes, \(map.archive.keyframes.pointCount) points, "
                  + "\(map.anchors.count) anchors")
        }
        session.run(configuration)
        var frames = 0, first: Double?, localizedAt: Double?, anchorPlaced = false
        var statuses: [WorldMappingStatus: Int] = [:]
        // The calibration the session itself poses its camera with.
        guard let camera = session.cameraCalibration else { throw CLIError("\(dataset.path) has no camera") }
        var poses = MapTrajectory(T_body_camera: camera.T_body_camera)
        while let frame = try session.nextFrame() {
            frames += 1
            poses.add(frame, T_A_W: session.worldTransform)
            if first == nil { first = frame.timestamp }
            let t = frame.timestamp - (first ?? frame.timestamp)
            statuses[frame.worldMappingStatus, default: 0] += 1
            if localizedAt == nil, loadMap != nil, session.worldMapper?.relocalizationCount ?? 0 > 0 { localizedAt = t }
            if let anchorAt, !anchorPlaced, t >= anchorAt, frame.camera.trackingState == .normal {
                let T_A_C = frame.camera.transform
                let position = T_A_C * Vector4(0, 0, -1, 1)
                session.add(anchor: WorldAnchor(identifier: session.makeIdentifier(), name: "anchor-\(Int(anchorAt))s",
                                                transform: Matrix4(rotation: .identity, translation: Vector3(position.x, position.y, position.z))))
                anchorPlaced = true
            }
        }
        print("world map session: \(frames) frames; mapping status "
              + WorldMappingStatus.allCases.map { "\($0.rawValue) \(statuses[$0] ?? 0)" }.joined(separator: ", "))
        if loadMap != nil {
            print(localizedAt.map { String(format: "localized in the loaded map after %.2f s", $0) } ?? "never localized in the loaded map")
        }
        if let mapper = session.worldMapper {
            let kf = mapper.keyframeMilliseconds
            print(String(format: "map: %d keyframes, %d points, %d relocalizations; %.1f ms per keyframe", mapper.database.keyframes.count,
                         mapper.database.pointCount, mapper.relocalizationCount, kf.isEmpty ? 0 : kf.reduce(0, +) / Double(kf.count)))
        }
        for anchor in session.anchors.compactMap({ $0 as? WorldAnchor }) {
            let c = anchor.transform.column(3)
            print(String(format: "anchor %@ at (%.3f, %.3f, %.3f)", anchor.name ?? anchor.identifier.uuidString, c.x, c.y, c.z))
        }
        if let trajectory {
            try TUMTrajectory.write(poses.trajectory, to: URL(fileURLWithPath: trajectory))
            print("wrote \(trajectory): \(poses.trajectory.count) poses (T_world_body in the map's world, frames tracked normally)")
        }
        if let saveMap {
            let map = try session.getCurrentWorldMap()
            try map.write(to: URL(fileURLWithPath: saveMap))
            print("saved \(saveMap): \(map.keyframeCount) keyframes, \(map.archive.keyframes.pointCount) points, \(map.anchors.count) anchors")
        }
    }
}

/// `parallax info FILE.map`: a world map's summary.
enum MapInfo {
    /// True when `path` names a world-map file (by its magic bytes).
    static func isMapFile(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: MapFile.magic.count)) ?? Data()
        return [UInt8](head) == MapFile.magic
    }

    /// The summary text.
    static func describe(_ path: String) throws -> String {
        let map = try WorldMap(contentsOf: URL(fileURLWithPath: path))
        let frames = map.archive.keyframes.keyframes
        var lines = ["world map \(path) (format version \(MapFile.version))",
                     "keyframes \(frames.count), map points \(map.archive.keyframes.pointCount), anchors \(map.anchors.count)"]
        if let a = frames.first, let b = frames.last {
            let positions = frames.map(\.T_world_camera.translation)
            let lo = positions.reduce(positions[0]) { Vector3(min($0.x, $1.x), min($0.y, $1.y), min($0.z, $1.z)) }
            let hi = positions.reduce(positions[0]) { Vector3(max($0.x, $1.x), max($0.y, $1.y), max($0.z, $1.z)) }
            lines.append(String(format: "keyframe times %.2f–%.2f s; camera positions span %.2f × %.2f × %.2f m (map world, z up)",
                                a.timestamp, b.timestamp, hi.x - lo.x, hi.y - lo.y, hi.z - lo.z))
        }
        for anchor in map.anchors {
            let c = anchor.transform.column(3)
            lines.append(String(format: "anchor %@ at (%.3f, %.3f, %.3f) (AR world)", anchor.name ?? anchor.identifier.uuidString, c.x, c.y, c.z))
        }
        return lines.joined(separator: "\n")
    }
}

/// The body trajectory of a world-map replay in the map's world `W` (z up): the AR session reports
/// cameras in its AR world `A`, so `T_W_B = T_A_W⁻¹ · T_A_Ccv · T_B_C⁻¹` (cam0's extrinsics from the
/// dataset's calibration). Frames not tracked normally are left out: while a loaded map's session
/// relocalizes (`limited(relocalizing)`) its pose is not yet in the map's world.
struct MapTrajectory {
    /// cam0's pose in the body frame.
    let T_body_camera: RigidTransform
    /// The poses so far.
    private(set) var trajectory = Trajectory(poses: [], name: "estimate (map world)")

    init(T_body_camera: RigidTransform) { self.T_body_camera = T_body_camera }

    /// Adds `frame` when it is tracked normally and the session has its AR world.
    mutating func add(_ frame: Frame, T_A_W: RigidTransform?) {
        guard frame.camera.trackingState == .normal, let T_A_W else { return }
        let T_W_B = T_A_W.inverse * frame.camera.poseOpenCV * T_body_camera.inverse
        trajectory.poses.append(TrajectoryPose(time: frame.timestamp, timeNs: frame.timestampNs, T_world_body: T_W_B))
    }
}
