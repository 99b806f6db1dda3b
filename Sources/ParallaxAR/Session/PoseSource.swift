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
    /// Depth σ (m) that the uncertainty of the camera's motion between the point's views adds
    /// (``TrackedFeaturePoint/motionDepthSigma``); 0 when the source gives none.
    var motionDepthSigma: Double = 0

    /// Position σ (m): the square root of the covariance's trace and the motion depth variance.
    var sigma: Double {
        (covariance[0, 0] + covariance[1, 1] + covariance[2, 2] + motionDepthSigma * motionDepthSigma).squareRoot()
    }

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
    /// The tracker's full answer (``TrackerPoseSource`` only).
    var tracking: TrackingResult? = nil
}

/// A producer of poses and 3D points from a dataset replay.
protocol PoseSource {
    /// Feeds one IMU sample.
    mutating func process(imu: IMUSample)
    /// Whether the source uses cam1's image (else the session does not decode it).
    var usesRightImage: Bool { get }
    /// Processes one camera frame (raw cam0 image, plus cam1's when stereo).
    mutating func process(frame: FrameEvent, image: GrayImage, rightImage: GrayImage?) throws -> SourceOutput
}
