import ParallaxDatasets

extension VisualInertialOdometry {
    /// Creates an estimator for a source's sensors; stereo needs two cameras (else mono is used).
    /// - Throws: ``DatasetError`` when the source has no camera, ``TrackingError/unsupportedCamera(_:)``
    ///   when a calibration cannot be modelled.
    public convenience init(source: any SensorSource, mode: TrackerConfiguration.Mode) throws {
        guard let camera0 = source.cameras.first else {
            throw DatasetError(.layout, file: source.origin, "has no camera; tracking needs one")
        }
        var c = TrackerConfiguration()
        c.mode = source.isStereo ? mode : .mono
        try self.init(configuration: c, camera0: camera0,
                      camera1: source.cameras.count > 1 ? source.cameras[1] : nil, imu: source.imu)
    }
}
