import Foundation
import ParallaxMath

/// A map point seen by a keyframe: its world position, where the keyframe saw it, and the
/// descriptor there.
public struct KeyframePoint: Sendable, Equatable {
    /// The tracker's feature id (unique within a tracking segment).
    public var featureID: Int
    /// Position in the map's world (z up, m).
    public var position_world: Vector3
    /// Pixel in the keyframe's cam0 image.
    public var pixel: Vector2
    /// Oriented BRIEF descriptor at ``pixel``.
    public var descriptor: BinaryDescriptor

    /// Creates a point.
    public init(featureID: Int, position_world: Vector3, pixel: Vector2, descriptor: BinaryDescriptor) {
        self.featureID = featureID
        self.position_world = position_world
        self.pixel = pixel
        self.descriptor = descriptor
    }
}

/// A keyframe of the world map: a cam0 pose in the map's world and the points it saw.
public struct Keyframe: Sendable, Equatable {
    /// Identifier, increasing in creation order.
    public var id: Int
    /// Frame time (s, the dataset clock of the session that made it).
    public var timestamp: Double
    /// The cam0 pose (OpenCV camera) in the map's world.
    public var T_world_camera: RigidTransform
    /// Points seen, with descriptors.
    public var points: [KeyframePoint]

    /// Creates a keyframe.
    public init(id: Int, timestamp: Double, T_world_camera: RigidTransform, points: [KeyframePoint]) {
        self.id = id
        self.timestamp = timestamp
        self.T_world_camera = T_world_camera
        self.points = points
    }

    /// Viewing direction (optical axis) in the world.
    public var axis_world: Vector3 { T_world_camera.rotate(Vector3(0, 0, 1)) }
}

/// The keyframes of a map with the questions mapping asks of them.
public struct KeyframeDatabase: Sendable, Equatable {
    /// All keyframes, by id order.
    public private(set) var keyframes: [Keyframe] = []

    /// An empty database.
    public init() {}

    /// A database holding `keyframes`.
    public init(keyframes: [Keyframe]) { self.keyframes = keyframes.sorted { $0.id < $1.id } }

    /// The next free keyframe id.
    public var nextID: Int { (keyframes.last?.id ?? -1) + 1 }

    /// Total map points over all keyframes.
    public var pointCount: Int { keyframes.reduce(0) { $0 + $1.points.count } }

    /// Adds a keyframe.
    public mutating func add(_ keyframe: Keyframe) { keyframes.append(keyframe) }

    /// The keyframe nearest to a camera pose that looks the same way: within `distance` metres
    /// and `angle` radians of viewing direction, nil if none (a place already mapped).
    public func covering(_ T_world_camera: RigidTransform, distance: Double, angle: Double) -> Keyframe? {
        let axis = T_world_camera.rotate(Vector3(0, 0, 1))
        let cosMax = cos(angle)
        var best: (Double, Keyframe)?
        for k in keyframes where k.axis_world.dot(axis) >= cosMax {
            let d = (k.T_world_camera.translation - T_world_camera.translation).norm
            if d <= distance, d < (best?.0 ?? .infinity) { best = (d, k) }
        }
        return best?.1
    }

    /// Keyframes ranked by how many of `descriptors` find a close descriptor among their points
    /// (distance ≤ `maximumDistance`), best first, at most `count` with at least `minimumVotes`.
    public func candidates(for descriptors: [BinaryDescriptor], maximumDistance: Int = 50, count: Int = 3,
                           minimumVotes: Int = 12) -> [Keyframe] {
        var scored: [(Int, Keyframe)] = []
        for k in keyframes {
            var votes = 0
            for q in descriptors where k.points.contains(where: { $0.descriptor.distance(to: q) <= maximumDistance }) {
                votes += 1
            }
            if votes >= minimumVotes { scored.append((votes, k)) }
        }
        return scored.sorted { $0.0 != $1.0 ? $0.0 > $1.0 : $0.1.id > $1.1.id }.prefix(count).map(\.1)
    }

    /// Moves every keyframe and point by a 4-DoF correction `T` (applied on the world side).
    public mutating func transform(by T: RigidTransform) {
        for i in keyframes.indices {
            keyframes[i].T_world_camera = T * keyframes[i].T_world_camera
            for j in keyframes[i].points.indices { keyframes[i].points[j].position_world = T * keyframes[i].points[j].position_world }
        }
    }
}
