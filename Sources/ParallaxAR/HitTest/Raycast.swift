import Foundation
import ParallaxMath

/// What a raycast may hit (`ARRaycastQuery.Target`).
public enum RaycastTarget: String, Sendable, Hashable, CaseIterable {
    /// Detected planes, within their boundary polygon.
    case existingPlaneGeometry
    /// Detected planes, taken as infinite.
    case existingPlaneInfinite
    /// Planes estimated from feature points around the ray.
    case estimatedPlane
}

/// Which plane orientations a raycast accepts (`ARRaycastQuery.TargetAlignment`).
public enum RaycastAlignment: String, Sendable, Hashable, CaseIterable {
    /// Horizontal planes only.
    case horizontal
    /// Vertical planes only.
    case vertical
    /// Either.
    case any
}

/// A ray in the AR world with its target (`ARRaycastQuery`).
public struct RaycastQuery: Sendable, Equatable {
    /// Ray origin (AR world).
    public var origin: Vector3
    /// Unit ray direction (AR world).
    public var direction: Vector3
    /// What may be hit.
    public var target: RaycastTarget
    /// Accepted orientations.
    public var targetAlignment: RaycastAlignment
    /// Creates a query (the direction is normalised).
    public init(origin: Vector3, direction: Vector3, allowing target: RaycastTarget, alignment: RaycastAlignment) {
        self.origin = origin
        self.direction = direction.normalized
        self.target = target
        self.targetAlignment = alignment
    }
}

/// One raycast hit (`ARRaycastResult`).
public struct RaycastResult: Sendable {
    /// Pose of the hit: translation = the point, y axis = the surface normal.
    public var worldTransform: Matrix4
    /// The target that produced it.
    public var target: RaycastTarget
    /// The orientation of the surface hit.
    public var targetAlignment: PlaneAlignment
    /// The plane anchor hit (nil for estimated planes).
    public var anchor: PlaneAnchor?
    /// Distance along the ray (m).
    public var distance: Double
}

extension Frame {
    /// A query through a normalised image point of this frame (`ARFrame.raycastQuery(from:allowing:alignment:)`).
    public func raycastQuery(from point: Vector2, allowing target: RaycastTarget, alignment: RaycastAlignment) -> RaycastQuery {
        let (o, d) = camera.ray(throughNormalized: point)
        return RaycastQuery(origin: o, direction: d, allowing: target, alignment: alignment)
    }

    /// Runs a raycast against this frame's planes and feature points, nearest first.
    public func raycast(_ query: RaycastQuery) -> [RaycastResult] {
        let o = query.origin, d = query.direction
        func accepts(_ a: PlaneAlignment) -> Bool {
            query.targetAlignment == .any || query.targetAlignment.rawValue == a.rawValue
        }
        var results: [RaycastResult] = []
        switch query.target {
        case .existingPlaneGeometry, .existingPlaneInfinite:
            for plane in planeAnchors where accepts(plane.alignment) {
                guard let t = RayGeometry.intersect(origin: o, direction: d, planePoint: plane.origin, normal: plane.normal)
                else { continue }
                var w = plane.transform
                let hit = o + d * t
                w.columns.3 = Vector4(hit.x, hit.y, hit.z, 1)
                if query.target == .existingPlaneGeometry {
                    let local = (RigidTransform(matrix: plane.transform).inverse * hit)
                    guard RayGeometry.insideGeometry(local, of: plane) else { continue }
                }
                results.append(RaycastResult(worldTransform: w, target: query.target, targetAlignment: plane.alignment,
                                             anchor: plane, distance: t))
            }
        case .estimatedPlane:
            let points = rawFeaturePoints?.confidentPoints(from: o) ?? []
            for (alignment, vertical) in [(PlaneAlignment.horizontal, false), (.vertical, true)] where accepts(alignment) {
                if let plane = RayGeometry.estimatedPlane(origin: o, direction: d, points: points, up: worldUp, vertical: vertical),
                   let t = RayGeometry.intersect(origin: o, direction: d, planePoint: plane.point, normal: plane.normal) {
                    results.append(RaycastResult(worldTransform: RayGeometry.frame(normal: plane.normal, position: o + d * t),
                                                 target: .estimatedPlane, targetAlignment: alignment, anchor: nil, distance: t))
                }
            }
        }
        return results.sorted { $0.distance < $1.distance }
    }
}

extension Session {
    /// Raycasts against the current frame (`ARSession.raycast(_:)`); empty before the first frame.
    public func raycast(_ query: RaycastQuery) -> [RaycastResult] { currentFrame?.raycast(query) ?? [] }
}
