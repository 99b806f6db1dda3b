import Foundation

extension EuRoCDataset {
    /// The same folder read with other calibrations (Kalibr's, say) instead of its `sensor.yaml` files.
    ///
    /// - Parameters:
    ///   - cameras: one calibration per camera folder, in folder order; nil keeps the folder's.
    ///   - imu: nil keeps the folder's.
    /// - Throws: ``DatasetError`` when the camera count differs from the folder's.
    public func recalibrated(cameras newCameras: [CameraCalibration]?, imu newIMU: IMUCalibration?) throws -> EuRoCDataset {
        if let newCameras, newCameras.count != cameras.count {
            throw DatasetError(.calibration, file: mav0.path,
                               "has \(cameras.count) camera folder(s) but the calibration describes \(newCameras.count) camera(s)")
        }
        // Names stay the folder names: frames are looked up in mav0/<name>.
        let renamed = newCameras.map { list in zip(list, cameras).map { c, old in var c = c; c.name = old.name; return c } }
        return EuRoCDataset(copying: self, cameras: renamed ?? cameras, imu: newIMU ?? imu)
    }

    private init(copying d: EuRoCDataset, cameras: [CameraCalibration], imu: IMUCalibration) {
        mav0 = d.mav0
        policy = d.policy
        self.cameras = cameras
        self.imu = imu
        hasGroundTruth = d.hasGroundTruth
        groundTruthSensor = d.groundTruthSensor
        positionSensor = d.positionSensor
    }
}
