import ParallaxMath

/// One feature observed in the current frame.
public struct TrackedFeature: Sendable, Equatable {
    /// Stable identifier: the same physical feature keeps its id while it is tracked; ids
    /// are never reused (they increase from 0 in detection order).
    public var id: Int
    /// Left (cam0) pixel position.
    public var pixel: Vector2
    /// Undistorted normalised coordinates `(x/z, y/z)` of the left observation.
    public var normalized: Vector2
    /// Right (cam1) pixel position when a stereo match passed all checks.
    public var rightPixel: Vector2?
    /// Undistorted normalised coordinates of the right observation.
    public var rightNormalized: Vector2?
    /// Number of consecutive frames this feature has been observed in (1 when new).
    public var trackLength: Int
}

/// Milliseconds spent in each front-end stage for one frame.
public struct FrontEndTimings: Sendable, Equatable {
    /// Building the left (and right) pyramids.
    public var pyramid: Double = 0
    /// Temporal KLT (forward and backward).
    public var temporalTracking: Double = 0
    /// Undistortion and RANSAC.
    public var outlierRejection: Double = 0
    /// Corner detection.
    public var detection: Double = 0
    /// Stereo matching.
    public var stereo: Double = 0
    /// The whole `process` call.
    public var total: Double = 0

    /// Creates zero timings.
    public init() {}
}

/// The front-end's output for one image (or stereo pair).
public struct FeatureFrame: Sendable {
    /// Image timestamp, seconds.
    public var timestamp: Double
    /// Features, ordered by id.
    public var features: [TrackedFeature]
    /// Features tracked from the previous frame before outlier rejection.
    public var trackedBeforeRansac: Int
    /// Features removed by RANSAC in this frame.
    public var rejectedByRansac: Int
    /// Newly detected features in this frame.
    public var newFeatures: Int
    /// Per-stage timings.
    public var timings: FrontEndTimings
}
