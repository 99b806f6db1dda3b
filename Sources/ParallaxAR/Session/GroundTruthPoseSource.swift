import Foundation
import ParallaxDatasets
import ParallaxImaging
import ParallaxMath
import ParallaxTracking

/// The oracle source: poses from the dataset's ground truth (interpolated at the frame time),
/// 3D points triangulated from the real images with those poses (``KnownPoseTriangulator``).
struct GroundTruthPoseSource: PoseSource {
    /// nil when the ground-truth file holds no states: every frame then has no pose.
    private let truth: GroundTruthPoses?
    private let T_body_camera: RigidTransform
    private var triangulator: KnownPoseTriangulator

    init(dataset: any SensorSource) throws {
        guard dataset.hasGroundTruth else {
            throw SessionError("\(dataset.origin): no ground truth (\(EuRoCDataset.groundTruthName)/data.csv or \(EuRoCDataset.mocapName)/data.csv); the ground-truth source needs it")
        }
        guard let camera = dataset.cameras.first else {
            throw SessionError("\(dataset.origin): no camera")
        }
        truth = GroundTruthPoses(states: try dataset.groundTruth())
        T_body_camera = camera.T_body_camera
        triangulator = KnownPoseTriangulator(camera: try camera.makeCameraModel())
    }

    mutating func process(imu: IMUSample) {}

    var usesRightImage: Bool { false }

    mutating func process(frame: FrameEvent, image: GrayImage, rightImage: GrayImage?) throws -> SourceOutput {
        guard let T_W_B = truth?.T_world_body(at: frame.timestampNs, holdingEndsFor: Session.groundTruthEndHoldNs) else {
            return SourceOutput(trackingState: .notAvailable, T_world_body: nil, featurePoints: [])
        }
        let points = triangulator.process(image: image, timestamp: frame.timestamp,
                                          T_world_camera: T_W_B * T_body_camera)
        return SourceOutput(trackingState: .normal, T_world_body: T_W_B, featurePoints: points)
    }
}
