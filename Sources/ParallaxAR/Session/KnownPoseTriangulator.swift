import Foundation
import ParallaxImaging
import ParallaxMath
import ParallaxVision

/// Builds a 3D point map from real images when the camera poses are known (the oracle source).
///
/// The Vision front-end (``FeatureTracker``: KLT tracks with stable ids, epipolar RANSAC) follows
/// features through the raw images; every observation is stored as a ray (camera centre and unit
/// bearing in `W`). Once a track's rays span at least ``minimumParallax`` the point is the
/// least-squares intersection of all its rays — the point minimising the sum of squared
/// perpendicular distances, `p = (Σ (I − d dᵀ))⁻¹ Σ (I − d dᵀ) c` (Hartley & Zisserman 2003,
/// §12.2 "midpoint" generalised to n views) — and is kept only when every ray reprojects within
/// ``maximumReprojectionError`` pixels and lies in front of its camera.
/// Points whose tracks ended stay in the map (persistent landmarks), like ARKit's world map.
struct KnownPoseTriangulator {
    /// Minimum angle (radians) between the first and the latest bearing of a track.
    var minimumParallax = 2.0 * Double.pi / 180
    /// Reprojection gate in pixels.
    var maximumReprojectionError = 1.5
    /// Observations kept per track (the first one plus the most recent ones).
    var maximumObservations = 24
    /// Feature position noise assumed for the uncertainty gate (pixels, 1σ).
    var angularSigma = 0.5
    /// Largest 1σ position uncertainty (m, along the worst direction) a published point may have.
    var maximumPositionSigma = 0.15

    private var tracker: FeatureTracker
    private let focal: Double
    private var rays: [Int: [(centre: Vector3, bearing: Vector3)]] = [:]
    private var previousRotation: Matrix3?
    /// Triangulated points by track id (world `W`).
    private(set) var map: [Int: (position: Vector3, covariance: Matrix3)] = [:]

    init(camera: any CameraModel) {
        var configuration = FeatureTrackerConfiguration()
        configuration.maxFeatures = 300
        tracker = FeatureTracker(camera: camera, configuration: configuration)
        focal = 0.5 * (camera.fx + camera.fy)
    }

    /// Tracks features in `image` (raw, distorted) taken from `T_world_camera` (OpenCV camera),
    /// updates the map and returns the points seen in this frame.
    mutating func process(image: GrayImage, timestamp: Double, T_world_camera: RigidTransform)
        -> [MapPoint]
    {
        guard let plane = FloatPlane(width: image.width, height: image.height, gray8: image.pixels) else { return [] }
        let R = T_world_camera.rotationMatrix
        let predicted = previousRotation.map { R.transpose * $0 }  // R_cur_prev = R_C_W · R_W_Cprev
        previousRotation = R
        let frame = tracker.process(image: plane, timestamp: timestamp, predictedRotation: predicted)
        var seen: [MapPoint] = []
        var alive = Set<Int>()
        for f in frame.features {
            alive.insert(f.id)
            let b = R * Vector3(f.normalized.x, f.normalized.y, 1).normalized
            var list = rays[f.id] ?? []
            list.append((T_world_camera.translation, b))
            if list.count > maximumObservations { list.remove(at: 1) }
            rays[f.id] = list
            if let p = triangulate(list) {
                map[f.id] = p
            }
            if let p = map[f.id] { seen.append(MapPoint(id: UInt64(f.id), position: p.position, covariance: p.covariance)) }
        }
        // Forget the rays of ended tracks (their points stay in the map).
        for id in rays.keys where !alive.contains(id) { rays[id] = nil }
        return seen
    }

    private func triangulate(_ list: [(centre: Vector3, bearing: Vector3)]) -> (position: Vector3, covariance: Matrix3)? {
        guard list.count >= 3, let first = list.first, let last = list.last else { return nil }
        let angle = acos(max(-1, min(1, first.bearing.dot(last.bearing))))
        guard angle >= minimumParallax else { return nil }
        // Two passes: unweighted, then each ray weighted by 1/depth² (its perpendicular error
        // grows with depth for a fixed angular error), which is the maximum-likelihood point for
        // isotropic angular noise to first order.
        var depths = [Double](repeating: 1, count: list.count)
        var point = Vector3.zero
        var information = Matrix3(diagonal: .zero)
        for _ in 0..<2 {
            var A = Matrix3(diagonal: .zero)
            var rhs = Vector3.zero
            for (r, depth) in zip(list, depths) {
                let P = (Matrix3.identity - Matrix3.outer(r.bearing, r.bearing)) * (1 / (depth * depth))
                A = A + P
                rhs += P * r.centre
            }
            guard let Ainv = A.inverse else { return nil }
            point = Ainv * rhs
            information = A
            depths = list.map { max(0.05, (point - $0.centre).dot($0.bearing)) }
        }
        let gate = maximumReprojectionError / focal  // as an angle (small-angle approximation)
        for r in list {
            let v = point - r.centre
            let depth = v.dot(r.bearing)
            guard depth > 0.05 else { return nil }
            let perpendicular = (v - r.bearing * depth).norm / depth
            guard perpendicular <= gate else { return nil }
        }
        // Covariance σ_θ² · A⁻¹ (A weighted by 1/depth²); keep only well-constrained points.
        guard let covariance = information.inverse else { return nil }
        let sigma = angularSigma / focal
        let worst = Self.largestEigenvalue(covariance) * sigma * sigma
        guard worst.squareRoot() <= maximumPositionSigma else { return nil }
        return (point, covariance * (sigma * sigma))
    }

    /// Largest eigenvalue of a symmetric positive semi-definite 3×3 matrix (power iteration;
    /// 30 steps are plenty for the elongated covariances of triangulated points).
    static func largestEigenvalue(_ m: Matrix3) -> Double {
        var v = Vector3(0.577, 0.577, 0.577)
        var lambda = 0.0
        for _ in 0..<30 {
            let w = m * v
            lambda = w.norm
            guard lambda > 0 else { return 0 }
            v = w / lambda
        }
        return lambda
    }
}
