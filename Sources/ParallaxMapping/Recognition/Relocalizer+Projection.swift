import Foundation
import ParallaxImaging
import ParallaxMath
import ParallaxVision

/// Relocalization with a predicted pose: after a blind stretch the tracker has coasted on the
/// IMU and still knows roughly where the camera is (centimetres to decimetres off), so map points
/// can be projected into the predicted view and matched near where they land — ORB-SLAM's "track
/// the local map" search (Mur-Artal & Tardós, IEEE T-RO 2017, §V-B), here feeding the same
/// gravity-aligned PnP as global relocalization.
///
/// Global matching (``Relocalizer/locate(_:R_gravity_camera:camera:in:)``) compares the query with
/// the three keyframes whose descriptors vote best, so it needs a view close to one keyframe's.
/// Projection uses every keyframe near the prediction and only compares descriptors of points that
/// project within ``ProjectionSearch/radius`` of a corner, so views between or beside keyframes
/// (the camera has moved on during the blackout) still find their points, and the spatial gate
/// removes most false matches before RANSAC.
public struct ProjectionSearch: Sendable {
    /// Search radius around each projected map point (pixels).
    public var radius = 40.0
    /// Keyframes whose camera centre is within this distance (m) of the prediction …
    public var keyframeDistance = 4.0
    /// … and whose optical axis is within this angle (rad) of the predicted one contribute points.
    public var keyframeAngle = 75.0 * Double.pi / 180
    /// Points closer to the predicted camera than this (m) are skipped.
    public var minimumDepth = 0.1
    /// Largest Hamming distance of a match (bits of 256); looser than global matching because the
    /// spatial gate already selects.
    public var maximumDistance = 80
    /// Best distance must be below `ratio ×` the best distance to another map point in the radius.
    public var ratio = 0.9
    /// A solution further than this from the prediction (m) is refused as implausible for a coast.
    public var maximumCorrection = 1.0
    /// The prediction itself is confirmed when at least this many matches reproject within
    /// ``confirmationPixels`` of their corners under it …
    public var confirmationMinimum = 10
    /// … (pixels) …
    public var confirmationPixels = 12.0
    /// … and they are at least this fraction of the best pose's consensus: a single-image PnP on the
    /// tracker's triangulated points is good to a few centimetres, worse than a coast of a few
    /// seconds, so a prediction the image agrees with is kept rather than replaced by that noise.
    public var confirmationFraction = 0.8

    /// Creates the defaults.
    public init() {}
}

extension Relocalizer {
    /// Locates the camera that took `image` near `predicted` (its pose in the map's world from the
    /// coasted odometry). Nil when fewer than the PnP minimum agree or the solution is further than
    /// ``ProjectionSearch/maximumCorrection`` from the prediction.
    /// `isIncluded` limits the keyframes whose points are projected (loop detection: only old
    /// enough ones). The answer's ``Relocalization/keyframeIDs`` are ordered by how many of the
    /// solution's inliers each keyframe's points gave, most first.
    public mutating func locate(_ image: GrayImage, predicted T_world_camera: RigidTransform, camera: any CameraModel,
                                in map: KeyframeDatabase, search: ProjectionSearch = ProjectionSearch(),
                                where isIncluded: ((Keyframe) -> Bool)? = nil) -> Relocalization? {
        let query = describeCorners(image)
        lastAttempt = Attempt(corners: query.count)
        guard query.count >= pnp.minimumInliers else { return nil }
        let projected = Self.projectMapPoints(map, into: T_world_camera, camera: camera, search: search, where: isIncluded)
        lastAttempt.candidates = Set(projected.map(\.keyframe)).count
        let matches = Self.matchByProjection(query, projected, camera: camera, search: search)
        let correspondences = matches.map(\.correspondence)
        /// Keyframes by the number of `inliers` (indices into `matches`) their points gave.
        func keyframes(supporting inliers: [Int]) -> [Int] {
            var count: [Int: Int] = [:]
            for i in inliers { count[matches[i].keyframe, default: 0] += 1 }
            return count.sorted { ($0.value, -$0.key) > ($1.value, -$1.key) }.map(\.key)
        }
        lastAttempt.correspondences = correspondences.count
        let R_gravity_camera = T_world_camera.rotationMatrix
        // One RANSAC run: with the minimum lowered to 3 it finds the same best pose as the real
        // minimum would (same seeded samples), so the consensus and the solution both come from it.
        var loose = pnp
        loose.minimumInliers = 3
        let best = loose.solve(correspondences, R_gravity_camera: R_gravity_camera)
        let consensus = best?.inliers.count ?? 0
        let agreeing = Self.agreeing(correspondences, with: T_world_camera, camera: camera, pixels: search.confirmationPixels)
        if agreeing.count >= search.confirmationMinimum, Double(agreeing.count) >= search.confirmationFraction * Double(consensus) {
            lastAttempt.inliers = agreeing.count
            return Relocalization(T_world_camera: T_world_camera, inlierCount: agreeing.count, keyframeIDs: keyframes(supporting: agreeing),
                                  confirmsPrediction: true, inliers: agreeing.map { correspondences[$0] })
        }
        guard let solution = best, consensus >= pnp.minimumInliers else {
            lastAttempt.bestRejectedInliers = consensus
            return nil
        }
        let correction = (solution.T_world_camera.translation - T_world_camera.translation).norm
        guard correction <= search.maximumCorrection else { return nil }
        lastAttempt.inliers = solution.inliers.count
        return Relocalization(T_world_camera: solution.T_world_camera, inlierCount: solution.inliers.count,
                              keyframeIDs: keyframes(supporting: solution.inliers),
                              inliers: solution.inliers.map { correspondences[$0] })
    }

    /// The correspondences (indices) that reproject within `pixels` of their corner from `T_world_camera`.
    static func agreeing(_ c: [PnPCorrespondence], with T_world_camera: RigidTransform, camera: any CameraModel,
                         pixels: Double) -> [Int] {
        let T_cw = T_world_camera.inverse
        let limit = pixels / camera.fx  // the bearings' normalised units
        return c.indices.filter { i in
            let m = c[i]
            let p = T_cw * m.point_world
            guard p.z > 0, m.bearing_camera.z > 0 else { return false }
            let dx = p.x / p.z - m.bearing_camera.x / m.bearing_camera.z
            let dy = p.y / p.z - m.bearing_camera.y / m.bearing_camera.z
            return (dx * dx + dy * dy).squareRoot() <= limit
        }
    }

    /// A map point where the predicted camera would see it.
    struct ProjectedPoint {
        var pixel: Vector2
        var position_world: Vector3
        var descriptor: BinaryDescriptor
        var keyframe: Int
    }

    /// Every point of the keyframes near the prediction that lands inside the image, in front of it.
    static func projectMapPoints(_ map: KeyframeDatabase, into T_world_camera: RigidTransform, camera: any CameraModel,
                                 search: ProjectionSearch, where isIncluded: ((Keyframe) -> Bool)? = nil) -> [ProjectedPoint] {
        let T_cw = T_world_camera.inverse
        let axis = T_world_camera.rotate(Vector3(0, 0, 1))
        let cosMax = cos(search.keyframeAngle)
        let width = Double(camera.width), height = Double(camera.height)
        var out: [ProjectedPoint] = []
        for k in map.keyframes where k.axis_world.dot(axis) >= cosMax
            && (k.T_world_camera.translation - T_world_camera.translation).norm <= search.keyframeDistance
            && isIncluded?(k) ?? true {
            for p in k.points {
                let p_c = T_cw * p.position_world
                guard p_c.z > search.minimumDepth, let uv = camera.project(p_c),
                      uv.x >= 0, uv.y >= 0, uv.x < width, uv.y < height else { continue }
                out.append(ProjectedPoint(pixel: uv, position_world: p.position_world, descriptor: p.descriptor, keyframe: k.id))
            }
        }
        return out
    }

    /// For each query corner, the nearest-descriptor map point projected within the radius, with a
    /// ratio test against other points there (the same physical point seen by two keyframes lies
    /// within a few centimetres and is not counted as a rival). One corner per map point.
    static func matchByProjection(_ query: [DescribedKeypoint], _ points: [ProjectedPoint], camera: any CameraModel,
                                  search: ProjectionSearch) -> [(correspondence: PnPCorrespondence, keyframe: Int)] {
        guard !points.isEmpty else { return [] }
        // Bucket the projections on a grid of the radius so each corner scans its 3×3 cells.
        let cell = search.radius
        var grid: [Int: [Int]] = [:]
        func key(_ x: Int, _ y: Int) -> Int { x &* 73_856_093 ^ y &* 19_349_663 }
        for (i, p) in points.enumerated() {
            grid[key(Int(p.pixel.x / cell), Int(p.pixel.y / cell)), default: []].append(i)
        }
        let r2 = search.radius * search.radius
        var bestForPoint: [Int: (query: Int, distance: Int)] = [:]
        for (qi, q) in query.enumerated() {
            let cx = Int(q.pixel.x / cell), cy = Int(q.pixel.y / cell)
            var best = (index: -1, distance: Int.max), second = Int.max
            for dx in -1...1 {
                for dy in -1...1 {
                    for i in grid[key(cx + dx, cy + dy)] ?? [] {
                        let d = points[i].pixel - q.pixel
                        let d2 = d.x * d.x + d.y * d.y
                        guard d2 <= r2 else { continue }
                        let h = q.descriptor.distance(to: points[i].descriptor)
                        if h < best.distance {
                            let previous = best.index
                            if previous >= 0, (points[previous].position_world - points[i].position_world).norm > 0.05 {
                                second = best.distance
                            }
                            best = (i, h)
                        } else if h < second, best.index >= 0,
                                  (points[best.index].position_world - points[i].position_world).norm > 0.05 {
                            second = h
                        }
                    }
                }
            }
            guard best.index >= 0, best.distance <= search.maximumDistance,
                  second == Int.max || Double(best.distance) < search.ratio * Double(second) else { continue }
            if let previous = bestForPoint[best.index], previous.distance <= best.distance { continue }
            bestForPoint[best.index] = (qi, best.distance)
        }
        return bestForPoint.sorted { $0.value.query < $1.value.query }.map { entry in
            (PnPCorrespondence(bearing_camera: camera.unproject(query[entry.value.query].pixel),
                               point_world: points[entry.key].position_world), points[entry.key].keyframe)
        }
    }
}
