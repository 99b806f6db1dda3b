import Foundation
import ParallaxDatasets
import ParallaxImaging
import ParallaxMapping
import ParallaxMath
import ParallaxTracking
import ParallaxVision

/// The session's mapping layer: the mapper and its latest answer.
final class SessionWorldMapping {
    let mapper: WorldMapper
    var last: MappingOutput?
    /// True when the session started from a loaded map (relocalizing until it is found).
    let fromLoadedMap: Bool
    /// The landmark map's ``LandmarkMap/frameNumber`` from which the current segment's points
    /// arrived (its placement); nil before the first placement.
    var segmentPointsSince: Int?

    init(mapper: WorldMapper, fromLoadedMap: Bool) {
        self.mapper = mapper
        self.fromLoadedMap = fromLoadedMap
    }
}

extension Session {
    /// The current world map (`ARSession.getCurrentWorldMap`): keyframes, map points and user anchors.
    /// - Throws: ``WorldMapUnavailable`` before tracking has mapped anything (no keyframe yet).
    public func getCurrentWorldMap() throws -> WorldMap {
        guard let mapping = worldMapping, !mapping.mapper.database.keyframes.isEmpty else {
            throw WorldMapUnavailable(description: "not enough of the scene is mapped yet (no keyframe)")
        }
        // A loop closure still being optimised belongs in the saved map: wait for it.
        if let loop = mapping.mapper.finishPendingLoopClosure() { follow(loop) }
        guard let T_A_W = worldTransform else {
            throw WorldMapUnavailable(description: "not enough of the scene is mapped yet (no keyframe)")
        }
        let anchors = anchors.compactMap { $0 as? WorldAnchor }.map {
            ArchivedAnchor(identifier: $0.identifier, name: $0.name, transform: $0.transform)
        }
        return WorldMap(archive: MapArchive(keyframes: mapping.mapper.database, T_A_W: T_A_W, anchors: anchors))
    }

    /// The mapping status of the latest frame.
    public var worldMappingStatus: WorldMappingStatus { worldMapping?.last?.status ?? .notAvailable }

    /// The mapper in use (keyframes, relocalization count, costs); nil before the first frame.
    public var worldMapper: WorldMapper? { worldMapping?.mapper }

    /// Passes a pose source's answer (odometry frame) through the mapper: poses and points move to
    /// the map world, and the state is `limited(relocalizing)` while the segment is not placed.
    func mapped(_ output: SourceOutput, image: GrayImage, timestamp: Double, calibration: CameraCalibration) throws -> SourceOutput {
        if worldMapping == nil {
            let initial = configuration?.initialWorldMap
            var settings = WorldMapperConfiguration()
            settings.loopClosure.trackerMode = tracksInStereo ? .stereo : .mono
            let mapper = WorldMapper(camera: try calibration.makeCameraModel(), database: initial?.archive.keyframes ?? .init(),
                                     configuration: settings)
            worldMapping = SessionWorldMapping(mapper: mapper, fromLoadedMap: initial != nil)
            if let initial {
                T_A_W = initial.archive.T_A_W
                for anchor in initial.anchors { add(anchor: anchor) }
            }
        }
        guard let mapping = worldMapping else { return output }
        let T_odom_camera = output.T_world_body.map { $0 * calibration.T_body_camera }
        let points = output.featurePoints.map { TrackedFeaturePoint(id: Int(truncatingIfNeeded: $0.id), position_world: $0.position) }
        let m = mapping.mapper.process(timestamp: timestamp, trackingState: output.trackingState, T_odom_camera: T_odom_camera,
                                       featurePoints: points, image: image, positionSigma: output.tracking?.positionSigma,
                                       accelerometerBias: output.tracking?.accelerometerBiasInCamera0)
        let previous = mapping.last
        mapping.last = m
        if let loop = m.loopClosure {
            follow(loop)
        } else if let previous, previous.isAligned, m.isAligned, let since = mapping.segmentPointsSince {
            followPlacement(from: previous.T_world_odom, to: m.T_world_odom, pointsSince: since)
        }
        if m.isAligned, previous?.isAligned != true { mapping.segmentPointsSince = landmarks.frameNumber + 1 }
        var out = output
        out.T_world_body = output.T_world_body.map { m.T_world_odom * $0 }
        let R = m.T_world_odom.rotationMatrix
        out.featurePoints = output.featurePoints.map { p in
            var moved = p
            moved.position = m.T_world_odom * p.position
            moved.covariance = R * p.covariance * R.transpose
            return moved
        }
        if !m.isAligned, output.T_world_body != nil { out.trackingState = .limited(.relocalizing) }
        return out
    }

    /// The mapper moved the current segment in the map without a loop closure (a relocalization
    /// refining a fresh placement, by up to a few centimetres): the points this segment gave,
    /// placed with the earlier `T_world_odom`, move rigidly with it. Older points stay: they came
    /// from segments whose placement has not changed. Planes refit from the moved points at the
    /// next update (their support changed).
    func followPlacement(from before: RigidTransform, to after: RigidTransform, pointsSince first: Int) {
        let delta = after * before.inverse
        guard delta.translation.norm > 1e-4 || delta.rotation.vector.norm > 1e-6 else { return }
        landmarks.move(by: { _ in delta }, seenSince: first)
    }

    /// A loop closure moved the keyframes: what the session placed in the world moves with them.
    func follow(_ loop: LoopClosureEvent) {
        moveAnchors(with: loop)
        movePlaneMap(with: loop)
    }

    /// A loop closure moved the keyframes: the plane map's points and planes move with the
    /// keyframes nearest to them, as user anchors do, and the delegate hears `didUpdate` for the
    /// plane anchors (see `PlaneTracker.move(by:)` for why).
    func movePlaneMap(with loop: LoopClosureEvent) {
        let correction = loop.corrections()
        landmarks.move(by: correction)
        guard var tracker = planes else { return }
        let moved = tracker.move(by: correction)
        planes = tracker
        guard let T_A_W = worldTransform, !moved.isEmpty else { return }
        applyPlaneChanges(PlaneChanges(planes: moved), T_A_W: T_A_W)
    }

    /// A loop closure moved the keyframes: each user anchor moves with the keyframe nearest to it
    /// (ARKit keeps anchors attached to the map the same way), and the delegate hears `didUpdate`.
    func moveAnchors(with loop: LoopClosureEvent) {
        guard let T_A_W, !userAnchors.isEmpty else { return }
        let T_W_A = T_A_W.inverse
        let correction = loop.corrections()
        for i in userAnchors.indices {
            let pose_world = T_W_A * RigidTransform(matrix: userAnchors[i].transform)
            userAnchors[i].transform = (T_A_W * correction(pose_world.translation) * pose_world).matrix
        }
        delegate?.session(self, didUpdate: userAnchors)
    }
}
