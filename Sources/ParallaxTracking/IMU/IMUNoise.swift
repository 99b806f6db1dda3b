import ParallaxDatasets

/// Continuous-time IMU noise densities as the tracker uses them: the shared
/// ``ParallaxDatasets/IMUNoiseDensities`` (one type for calibration files, simulator and tracker),
/// under the name the tracking API has always used.
public typealias IMUNoise = IMUNoiseDensities
