import ParallaxDatasets
import ParallaxImaging
import ParallaxMath
import ParallaxVision

/// The estimator's state machine (placeholder body until the filter lands).
struct EstimatorCore {
    let configuration: TrackerConfiguration
    var isStereo: Bool

    init(configuration: TrackerConfiguration, camera0: CameraCalibration, camera1: CameraCalibration?,
         imu: IMUCalibration) throws {
        self.configuration = configuration
        isStereo = camera1 != nil
    }

    mutating func addIMU(_ m: IMUMeasurement) {}

    mutating func processFrame(timestamp: Double, timestampNs: Int64, left: GrayImage?, right: GrayImage?)
        -> TrackingResult {
        TrackingResult(timestamp: timestamp, timestampNs: timestampNs, trackingState: .notAvailable, T_world_body: nil,
                       T_world_camera: nil, velocity: .zero, biasGyro: .zero, biasAccel: .zero, featurePoints: [],
                       trackedFeatureCount: 0, timings: TrackingTimings())
    }

    mutating func reset() {}
}
