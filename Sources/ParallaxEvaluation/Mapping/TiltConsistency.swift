import Foundation
import ParallaxMapping
import ParallaxMath

/// The tracker's tilt against the truth, normalised by the filter's own tilt covariance: the
/// normalised estimation error squared (NEES) of roll and pitch. Were the filter consistent, it
/// would follow a χ² distribution with 2 degrees of freedom (median 1.39, 95 % below 5.99). A tilt
/// that is far off while its σ is small is one the filter will not let the IMU pull back, and a
/// gravity-aligned loop or relocalization PnP turns it into a shift of tilt × depth.
public struct TiltConsistency: Sendable {
    /// One frame's tilt check.
    public struct Sample: Sendable {
        /// Seconds after the first frame.
        public var time: Double
        /// `δθᵀ P⁻¹ δθ` over the world x and y rotation errors.
        public var nees: Double
        /// Tilt error (rad).
        public var error: Double
        /// The filter's larger tilt σ (rad).
        public var sigma: Double
    }

    /// The χ²₂ median and 95th percentile, what a consistent filter's NEES would show.
    public static let chiSquaredMedian = 1.386, chiSquared95 = 5.991

    /// Frames with a pose, a tilt covariance and the truth.
    public var samples: [Sample] = []

    /// Checks every sample of a replay that has a pose, its covariance and the truth.
    public init(samples replay: [MappedReplay.Sample]) {
        for s in replay {
            guard let T = s.T_odom_body, let truth = s.truth_T_world_body, let P = s.tiltCovariance else { continue }
            let (dx, dy) = Self.tiltError(estimate: T.rotationMatrix, truth: truth.rotationMatrix)
            let det = P.x * P.z - P.y * P.y
            guard det > 0, P.x > 0, P.z > 0 else { continue }
            let nees = (P.z * dx * dx - 2 * P.y * dx * dy + P.x * dy * dy) / det
            samples.append(Sample(time: s.time, nees: nees, error: (dx * dx + dy * dy).squareRoot(),
                                  sigma: max(P.x, P.z).squareRoot()))
        }
    }

    /// The tilt error of `estimate` against `truth` (world-from-frame rotations in worlds that
    /// share gravity, so no alignment is needed), as the world x and y components of the left
    /// error R = Exp(δθ) R̂: R̂ R_trueᵀ e_z − e_z = e_z × δθ to first order. The vector is scaled
    /// so that its length is the angle between world up seen from the estimate and from the truth.
    public static func tiltError(estimate: Matrix3, truth: Matrix3) -> (x: Double, y: Double) {
        let w = estimate * (truth.transpose * Vector3(0, 0, 1))
        let sine = (w.x * w.x + w.y * w.y).squareRoot()
        guard sine > 0 else { return (0, w.z < 0 ? .pi : 0) }
        let scale = atan2(sine, w.z) / sine
        return (w.y * scale, -w.x * scale)
    }

    /// Median NEES (nil without samples).
    public var medianNEES: Double? {
        samples.isEmpty ? nil : SampleStatistics.quantile(samples.map(\.nees), 0.5)
    }

    /// Fraction of frames whose NEES is over χ²₂'s 95th percentile (nil without samples).
    public var fractionOver95: Double? {
        samples.isEmpty ? nil : Double(samples.filter { $0.nees > Self.chiSquared95 }.count) / Double(samples.count)
    }
}
