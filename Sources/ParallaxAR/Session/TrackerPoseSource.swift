import Foundation
import ParallaxDatasets
import ParallaxImaging
import ParallaxMath
import ParallaxTracking

/// The real source: ParallaxTracking's ``VisualInertialOdometry`` on the dataset's IMU and images
/// (stereo when the dataset has two cameras). Its feature points (filter landmarks) feed plane
/// detection directly.
struct TrackerPoseSource: PoseSource {
    private let odometry: VisualInertialOdometry

    init(dataset: any SensorSource) throws {
        guard !dataset.cameras.isEmpty else { throw SessionError("\(dataset.origin): no camera") }
        odometry = try VisualInertialOdometry(source: dataset, mode: .stereo)
    }

    mutating func process(imu: IMUSample) { odometry.process(imu: imu) }

    mutating func process(frame: FrameEvent, image: GrayImage, rightImage: GrayImage?) throws -> SourceOutput {
        let result = try odometry.process(timestamp: frame.timestamp, timestampNs: frame.timestampNs,
                                          image0: image, image1: rightImage)
        return SourceOutput(trackingState: result.trackingState, T_world_body: result.T_world_body,
                            featurePoints: result.featurePoints.map {
                                MapPoint(id: UInt64($0.id), position: $0.position_world, covariance: MapPoint.defaultCovariance)
                            })
    }
}
