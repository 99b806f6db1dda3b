import Foundation
import ParallaxDatasets
import ParallaxImaging
import ParallaxMath
import ParallaxTracking

/// The real source: ParallaxTracking's ``VisualInertialOdometry`` on the dataset's IMU and images
/// (mono or stereo as ``ReplayOptions/trackerMode`` says; stereo needs two cameras). Its feature
/// points (the well-triangulated tracks of the frame) feed plane detection directly, and its full
/// ``TrackingResult`` is passed on so the caller needs no second tracking pass.
struct TrackerPoseSource: PoseSource {
    private let odometry: VisualInertialOdometry
    /// What the stream checks found that costs frames but does not stop tracking.
    let warnings: [String]

    init(dataset: any SensorSource, mode: TrackerConfiguration.Mode?, configuration: TrackerConfiguration? = nil) throws {
        guard !dataset.cameras.isEmpty else { throw SessionError("\(dataset.origin): no camera") }
        var c = configuration ?? TrackerConfiguration()
        c.mode = mode ?? (configuration?.mode ?? (dataset.isStereo ? .stereo : .mono))
        odometry = try VisualInertialOdometry(source: dataset, configuration: c)
        // The stream checks of tracking alone (stereo pairing, baseline, common time range): a
        // folder whose streams cannot be tracked together fails here, naming the file.
        warnings = try (dataset as? EuRoCDataset)?.checkTimelines(stereo: odometry.configuration.mode == .stereo) ?? []
    }

    /// Whether cam1's image is used (so worth decoding).
    var usesRightImage: Bool { odometry.configuration.mode == .stereo }

    mutating func process(imu: IMUSample) { odometry.process(imu: imu) }

    mutating func process(frame: FrameEvent, image: GrayImage, rightImage: GrayImage?) throws -> SourceOutput {
        let result = try odometry.process(timestamp: frame.timestamp, timestampNs: frame.timestampNs,
                                          image0: image, image1: rightImage)
        return SourceOutput(trackingState: result.trackingState, T_world_body: result.T_world_body,
                            featurePoints: result.featurePoints.map {
                                MapPoint(id: UInt64($0.id), position: $0.position_world, covariance: $0.covariance ?? MapPoint.defaultCovariance,
                                         motionDepthSigma: $0.motionDepthSigma)
                            }, tracking: result)
    }
}
