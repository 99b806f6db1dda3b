import ParallaxDatasets
import ParallaxMath
import ParallaxVision

extension EstimatorCore {
    /// Divergence test: non-finite numbers, a non-positive covariance diagonal, or physically
    /// implausible speed or biases (the filter has lost its linearisation point).
    func isDiverged(_ s: FilterState) -> Bool {
        !s.isHealthy || s.velocity.norm > configuration.divergenceSpeed || s.biasGyro.norm > 0.5
            || s.biasAccel.norm > 2.0
    }

    /// The χ² gate has been rejecting most feature tracks (see
    /// ``TrackerConfiguration/inconsistencyWindow``): the estimate no longer explains the images.
    var isVisuallyInconsistent: Bool {
        let used = recentUpdates.reduce(0) { $0 + $1.used }, rejected = recentUpdates.reduce(0) { $0 + $1.rejected }
        return rejected >= configuration.inconsistencyMinimumRejections && rejected > 2 * used
    }

    /// Adds one frame's update outcome to the consistency window.
    mutating func recordUpdate(used: Int, rejected: Int) {
        recentUpdates.append((used, rejected))
        if recentUpdates.count > configuration.inconsistencyWindow { recentUpdates.removeFirst() }
    }

    /// Largest velocity standard deviation (m/s).
    func velocitySigma(_ s: FilterState) -> Double {
        let n = s.dimension
        return (6..<9).map { s.covariance[$0 * n + $0] }.max().map { $0.squareRoot() } ?? .infinity
    }
}

/// Builds `ParallaxVision` camera models from dataset calibrations.
enum CameraModels {
    /// The model for a calibration (pinhole with radial-tangential or equidistant distortion).
    static func make(_ c: CameraCalibration) throws -> any CameraModel {
        let k = c.intrinsics
        switch c.distortion {
        case let .radialTangential(k1, k2, p1, p2):
            return PinholeRadTanCamera(width: c.width, height: c.height, fx: k.fu, fy: k.fv, cx: k.cu, cy: k.cv,
                                       k1: k1, k2: k2, p1: p1, p2: p2)
        case let .equidistant(k1, k2, k3, k4):
            return EquidistantCamera(width: c.width, height: c.height, fx: k.fu, fy: k.fv, cx: k.cu, cy: k.cv,
                                     k1: k1, k2: k2, k3: k3, k4: k4)
        }
    }
}
