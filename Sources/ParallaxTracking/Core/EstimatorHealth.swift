import ParallaxDatasets
import ParallaxMath
import ParallaxVision

extension EstimatorCore {
    /// Divergence test: non-finite numbers, a non-positive covariance diagonal, or physically
    /// implausible speed or biases (the filter has lost its linearisation point).
    func isDiverged(_ s: FilterState) -> Bool {
        !s.isHealthy || s.velocity.norm > configuration.divergenceSpeed
            || s.biasGyro.norm > configuration.maximumGyroBias || s.biasAccel.norm > configuration.maximumAccelBias
    }

    /// The χ² gate has been rejecting most feature tracks (see
    /// ``TrackerConfiguration/inconsistencyWindow``): the estimate no longer explains the images.
    var isVisuallyInconsistent: Bool {
        health.isInconsistent(minimumRejections: configuration.inconsistencyMinimumRejections)
    }

    /// Adds one frame's update outcome to the consistency window.
    mutating func recordUpdate(used: Int, rejected: Int) {
        health.record(used: used, rejected: rejected, window: configuration.inconsistencyWindow)
    }

    /// Each camera's `T_body_camera` in `rig` (cam0, then cam1).
    static func extrinsicTransforms(_ rig: CameraRig) -> [RigidTransform] {
        (0..<rig.cameraCount).map {
            let (r, p) = rig.extrinsics($0)
            return RigidTransform(rotationMatrix: r, translation: p)
        }
    }

    /// Packs the public result and decides the tracking state (ARKit semantics).
    func makeResult(timestamp: Double, timestampNs: Int64, frame: FeatureFrame?, featureCount: Int,
                    points: [TrackedFeaturePoint], timings: TrackingTimings) -> TrackingResult {
        guard let s = state else {
            let attitude = health.relocalizingFrames > 0 ? nil : startup.attitude
            let st: TrackingState = health.relocalizingFrames > 0 ? .limited(.relocalizing)
                : attitude != nil ? .limited(.initializing) : .notAvailable
            var result = TrackingResult(timestamp: timestamp, timestampNs: timestampNs, trackingState: st,
                                        T_world_body: nil, T_world_camera: nil, velocity: .zero, biasGyro: .zero,
                                        biasAccel: .zero, featurePoints: [], trackedFeatureCount: featureCount, timings: timings)
            if let attitude {
                result.attitudeBeforeStart = RigidTransform(rotationMatrix: attitude.rotation, translation: .zero)
                result.cameraExtrinsics = Self.extrinsicTransforms(rig)
            }
            return result
        }
        let T_wb = RigidTransform(rotationMatrix: s.rotation, translation: s.position)
        let trackingState: TrackingState
        let rate = (imu.last.map { $0.gyro - s.biasGyro } ?? .zero).norm
        if health.relocalizingFrames > 0 && health.framesSinceInit < health.relocalizingFrames {
            trackingState = .limited(.relocalizing)
        } else if health.framesSinceInit < 3 || s.velocitySigma > configuration.convergedVelocitySigma {
            // Uncertain velocity: still converging after initialisation, or recovering later on
            // (after an IMU gap or a long blind stretch).
            trackingState = health.framesSinceInit < 40 ? .limited(.initializing) : .limited(.relocalizing)
        } else if frame == nil || featureCount < configuration.minimumFeatures {
            trackingState = .limited(.insufficientFeatures)
        } else if rate > configuration.excessiveAngularRate {
            trackingState = .limited(.excessiveMotion)
        } else {
            trackingState = .normal
        }
        let extrinsics = Self.extrinsicTransforms(s.rig)
        var result = TrackingResult(timestamp: timestamp, timestampNs: timestampNs, trackingState: trackingState,
                                    T_world_body: T_wb, T_world_camera: T_wb * extrinsics[0], velocity: s.velocity,
                                    biasGyro: s.biasGyro, biasAccel: s.biasAccel, featurePoints: points,
                                    trackedFeatureCount: featureCount, timings: timings)
        result.timeOffset = s.timeOffset
        result.positionSigma = s.positionSigma
        result.tiltCovariance = s.tiltCovariance
        result.estimatedReadout = readoutEstimatedByFilter ? max(0, s.readout) : readoutEstimator?.estimate
        result.cameraExtrinsics = extrinsics
        result.extrinsicsEstimated = s.calibratedCameras > 0
        result.cameraIntrinsics = (0..<s.intrinsicCameras).map { lenses[$0].values(offset: s.intrinsicOffsets[$0]) }
        if s.estimatesIMUIntrinsics { result.imuIntrinsics = s.imuIntrinsics }
        return result
    }
}
