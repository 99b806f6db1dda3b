import Foundation
import ParallaxDatasets
import ParallaxImaging
import ParallaxMath
import ParallaxTracking

/// A 3D point of the map with its position covariance (estimator world `W`).
struct MapPoint {
    /// Stable identifier (the feature track id).
    var id: UInt64
    /// Position in `W` (m).
    var position: Vector3
    /// Position covariance (m²); isotropic (2 cm)² when the source gives none.
    var covariance: Matrix3

    /// The default covariance of points without one.
    static let defaultCovariance = Matrix3(diagonal: Vector3(4e-4, 4e-4, 4e-4))
}

/// What a pose source reports for one camera frame, in the estimator's z-up world `W`.
struct SourceOutput {
    /// Tracking quality.
    var trackingState: TrackingState
    /// `T_W_B`, nil while no pose exists.
    var T_world_body: RigidTransform?
    /// Tracked 3D points (stable id, position in `W`).
    var featurePoints: [MapPoint]
}

/// A producer of poses and 3D points from a dataset replay.
protocol PoseSource {
    /// Feeds one IMU sample.
    mutating func process(imu: IMUSample)
    /// Processes one camera frame (raw cam0 image, plus cam1's when stereo).
    mutating func process(frame: FrameEvent, image: GrayImage, rightImage: GrayImage?) throws -> SourceOutput
}

/// Linear/slerp interpolation of a ground-truth trajectory at arbitrary times.
struct GroundTruthInterpolator {
    let states: [GroundTruthState]

    init(states: [GroundTruthState]) { self.states = states }

    /// `T_W_B` at `timestampNs`; nil outside the trajectory (beyond 50 ms of its ends).
    func pose(at timestampNs: Int64) -> RigidTransform? {
        guard let first = states.first, let last = states.last else { return nil }
        if timestampNs <= first.timestampNs {
            return first.timestampNs - timestampNs <= 50_000_000 ? first.T_world_body : nil
        }
        if timestampNs >= last.timestampNs {
            return timestampNs - last.timestampNs <= 50_000_000 ? last.T_world_body : nil
        }
        // Binary search for the bracketing pair.
        var lo = 0, hi = states.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if states[mid].timestampNs <= timestampNs { lo = mid } else { hi = mid }
        }
        let a = states[lo], b = states[hi]
        let t = Double(timestampNs - a.timestampNs) / Double(max(1, b.timestampNs - a.timestampNs))
        let q = a.orientation.normalized.slerp(to: b.orientation.normalized, t: t)
        return RigidTransform(rotation: q, translation: a.position + (b.position - a.position) * t)
    }
}
