import Foundation

/// Temporal smoothing of the ambient intensity: a scalar Kalman filter on the *logarithm* of the
/// intensity (exposure and light changes are multiplicative), with a random-walk state model and
/// change detection.
///
/// Why: per-frame brightness measurements fluctuate with sensor noise and with what the moving
/// camera happens to see; shown directly they make virtual objects flicker. A random-walk model
/// (process noise `processNoisePerSecond`² · Δt) with measurement noise `measurementSigma` gives
/// an exponential smoother whose gain adapts to the frame interval. Real changes (a lamp switched
/// on, auto-exposure jumping) would otherwise be followed only slowly, so when the innovation
/// stays beyond `changeThreshold` standard deviations with the same sign for
/// `changeFrames` frames the state variance is inflated and the filter snaps to the new level
/// (a simple CUSUM-like test; Page, "Continuous inspection schemes", Biometrika 1954).
public struct AmbientLightFilter: Sendable {
    /// With a measured frame-to-frame change: its standard deviation (ln units).
    public var relativeChangeSigma: Double
    /// With a measured frame-to-frame change: the standard deviation of the absolute level of
    /// one frame (what the camera happens to look at changes the mean by ±10 % or so).
    public var levelSigma: Double
    /// Random-walk standard deviation of ln(intensity) per √second.
    public var processNoisePerSecond: Double
    /// Standard deviation of one measurement of ln(intensity).
    public var measurementSigma: Double
    /// Innovation size (in standard deviations) that counts as evidence of a real change.
    public var changeThreshold: Double
    /// Consecutive same-sign large innovations that trigger a reset.
    public var changeFrames: Int

    /// Filtered ln(intensity), nil before the first measurement.
    public private(set) var state: Double?
    /// Its variance.
    public private(set) var variance: Double = 0
    /// Time of the last update (s).
    public private(set) var lastTime: Double?
    /// Number of resets by the change detector so far.
    public private(set) var changeCount = 0
    private var streak = 0

    /// Creates a filter. The defaults follow 10 %/√s light drift and 4 % measurement noise (the
    /// spread of frame means while a handheld camera sweeps a room under constant light).
    public init(processNoisePerSecond: Double = 0.10, measurementSigma: Double = 0.04,
                changeThreshold: Double = 3, changeFrames: Int = 2,
                relativeChangeSigma: Double = 0.002, levelSigma: Double = 0.2) {
        self.relativeChangeSigma = relativeChangeSigma
        self.levelSigma = levelSigma
        self.processNoisePerSecond = processNoisePerSecond
        self.measurementSigma = measurementSigma
        self.changeThreshold = changeThreshold
        self.changeFrames = max(1, changeFrames)
    }

    /// Feeds one measurement (`value` > 0, linear units) taken at `time` seconds and returns the
    /// filtered value. Non-positive or non-finite measurements are ignored (the prediction is returned).
    ///
    /// With `relativeChange` (ln of the brightness ratio to the previous frame, measured on the
    /// same scene points, see ``BrightnessChangeTracker``) the state is *predicted* by it — the
    /// filter becomes a complementary filter: frame-to-frame changes from the tracker, the
    /// absolute level slowly from the frame means — and the change detector is not needed.
    public mutating func update(_ value: Double, at time: Double, relativeChange: Double? = nil) -> Double {
        let withChange = relativeChange?.isFinite == true
        let r = withChange ? levelSigma * levelSigma : measurementSigma * measurementSigma
        guard value > 0, value.isFinite else { return state.map(exp) ?? value }
        let z = log(value)
        guard let x0 = state, let t0 = lastTime else {
            state = z; variance = r; lastTime = time
            return value
        }
        let dt = max(0, time - t0)
        lastTime = time
        var p: Double
        var x = x0
        if let d = relativeChange, withChange {
            x += d
            p = variance + relativeChangeSigma * relativeChangeSigma
        } else {
            p = variance + processNoisePerSecond * processNoisePerSecond * max(dt, 1e-3)
        }
        let innovation = z - x
        let s = p + r
        if !withChange, abs(innovation) > changeThreshold * s.squareRoot() {
            streak = innovation > 0 ? max(1, streak + 1) : min(-1, streak - 1)
        } else {
            streak = 0
        }
        if abs(streak) >= changeFrames {
            // A persistent jump: forget the old level.
            p = max(p, innovation * innovation)
            changeCount += 1
            streak = 0
        }
        let k = p / (p + r)
        let updated = x + k * innovation
        state = updated
        variance = (1 - k) * p
        return exp(updated)
    }

    /// Forgets the history.
    public mutating func reset() { state = nil; lastTime = nil; variance = 0; streak = 0 }
}
