import ParallaxImaging
import ParallaxMath
import ParallaxVision

/// The IMU samples the estimator still needs: about 2 s before the filter time (enough for the
/// static window and one propagation), in strictly increasing time.
struct IMUBuffer {
    private(set) var samples: [IMUMeasurement] = []
    /// Time of the first sample since the last reset.
    private(set) var firstTime: Double?

    /// Appends a sample; non-finite, duplicated and out-of-order samples are ignored.
    mutating func add(_ m: IMUMeasurement, filterTime: Double?) {
        guard m.timestamp.isFinite, m.gyro.isFinite, m.accel.isFinite else { return }
        if let last = samples.last, m.timestamp <= last.timestamp { return }
        if firstTime == nil { firstTime = m.timestamp }
        samples.append(m)
        let keepFrom = (filterTime ?? m.timestamp) - 2.0
        if samples.count > 1000, let cut = samples.firstIndex(where: { $0.timestamp >= keepFrom }), cut > 0 {
            samples.removeFirst(cut)
        }
    }

    /// Samples from the one in force at `t` onwards.
    func slice(from t: Double) -> ArraySlice<IMUMeasurement> {
        samples[max(0, firstIndex { $0.timestamp > t } - 1)...]
    }

    /// Samples up to and including the last one at or before `t`; nil when none is that old.
    func prefix(through t: Double) -> ArraySlice<IMUMeasurement>? {
        let end = firstIndex { $0.timestamp > t }
        return end > 0 ? samples[..<end] : nil
    }

    /// The newest sample.
    var last: IMUMeasurement? { samples.last }

    /// The gyro reading in force at `t` (the last sample at or before it, else the first).
    func gyro(at t: Double) -> Vector3? { slice(from: t).first?.gyro }

    /// The turn rate at `t` and its rate of change, from a straight line fitted (least squares) to
    /// the gyro samples within `halfWidth` seconds of `t`: what a rolling shutter's rows need, each
    /// read up to half a readout before or after the frame time.
    ///
    /// Why not the reading in force: that sample is up to one IMU period old (5 ms at 200 Hz), and a
    /// rate held constant over the readout leaves each row turned by ½ ω̇ δ² too little. Both errors
    /// follow the hand's accelerations rather than averaging out: on a simulated hall walk with a
    /// 20 ms readout (mono, tracks replaced by exact rolling-shutter projections) the filter's
    /// extrinsic rotation drifted 0.45° and cy 1.5 px from the truth with the held reading, 0.03° and
    /// 0.1 px with the fit (docs/tracking-design.md, "The rows' turn"). With fewer than two samples
    /// in the window the two samples around `t` are interpolated (no acceleration); before the first
    /// or after the last sample the reading in force is used. Nil without samples.
    func gyroFit(at t: Double, halfWidth: Double) -> (rate: Vector3, acceleration: Vector3)? {
        guard !samples.isEmpty else { return nil }
        let lo = firstIndex { $0.timestamp >= t - halfWidth }
        let hi = firstIndex { $0.timestamp > t + halfWidth }
        if hi - lo >= 2 {
            // τ = time − t; rate(τ) = a + b τ.
            var st = 0.0, stt = 0.0, n = 0.0
            var sg = Vector3.zero, stg = Vector3.zero
            for m in samples[lo..<hi] {
                let tau = m.timestamp - t
                n += 1
                st += tau
                stt += tau * tau
                sg += m.gyro
                stg += m.gyro * tau
            }
            let det = n * stt - st * st
            if det > 1e-12 {
                let b = (stg * n - sg * st) / det
                let a = (sg - b * st) / n
                return (a, b)
            }
        }
        let after = firstIndex { $0.timestamp > t }
        guard after > 0, after < samples.count else { return (gyro(at: t) ?? samples[0].gyro, .zero) }
        let s0 = samples[after - 1], s1 = samples[after]
        let u = (t - s0.timestamp) / (s1.timestamp - s0.timestamp)
        return (s0.gyro + (s1.gyro - s0.gyro) * u, .zero)
    }

    /// Index of the first sample for which `isAfter` holds (`samples.count` when none), by binary
    /// search; `isAfter` must be false then true along the samples (strictly increasing in time).
    private func firstIndex(where isAfter: (IMUMeasurement) -> Bool) -> Int {
        var lo = 0, hi = samples.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if isAfter(samples[mid]) { hi = mid } else { lo = mid + 1 }
        }
        return lo
    }
}

/// Tracking health: the χ² outcome of recent updates (visual consistency) and the frame counts the
/// tracking-state decision needs.
struct EstimatorHealth {
    /// Accepted and χ²-rejected track counts of the latest updates.
    private(set) var recentUpdates: [(used: Int, rejected: Int)] = []
    /// Frames since the filter (re)started.
    var framesSinceInit = 0
    /// Frame time (s) of the filter's first frame since it (re)started.
    var startTime: Double?
    /// Frames to report `limited(relocalizing)` after a reset (0 when there was none).
    var relocalizingFrames = 0
    /// Frames since a feature track last passed into an update (nothing else constrains translation).
    var framesSinceTrackUpdate = 0

    /// Adds one frame's update outcome, keeping the last `window`.
    mutating func record(used: Int, rejected: Int, window: Int) {
        recentUpdates.append((used, rejected))
        if recentUpdates.count > window { recentUpdates.removeFirst() }
    }

    /// The χ² gate rejected at least `minimumRejections` tracks and more than twice as many as it
    /// accepted: the estimate no longer explains the images.
    func isInconsistent(minimumRejections: Int) -> Bool {
        let used = recentUpdates.reduce(0) { $0 + $1.used }, rejected = recentUpdates.reduce(0) { $0 + $1.rejected }
        return rejected >= minimumRejections && rejected > 2 * used
    }

    /// Forgets the update history (a fresh filter).
    mutating func clearUpdates() { recentUpdates.removeAll() }
}

/// What the estimator gathers before it has a state: stillness, stereo velocities and the frames
/// the visual–inertial alignment uses, plus the pose to keep across a reset.
struct StartupWindow {
    /// Start of the current visually still stretch.
    var stillSince: Double?
    /// For the latest frames: whether the image showed no translation (still, or turning in place).
    var recentSteadiness: [Bool] = []

    /// Most of the latest `window` frames showed no image translation: a hand holding the device
    /// (single frames of a tremor can exceed the threshold, so one is not enough to break it).
    func isSteady(window: Int) -> Bool {
        recentSteadiness.count >= window && recentSteadiness.filter { $0 }.count * 5 >= window * 4
    }
    /// Stereo body velocities of recent frames (gravity from motion).
    var stereoVelocities: [(time: Double, velocity: Vector3)] = []
    /// Features of recent frames (visual–inertial alignment from motion).
    var alignmentFrames: [VisualInertialAlignment.Frame] = []
    /// The two answers of the latest alignment attempts (at most
    /// ``TrackerConfiguration/steadyAnswerAttempts``), while each attempt refused its answer for
    /// disagreement; emptied by any other outcome, a start and a reset.
    var disagreeingAnswers: [(withBias: VisualInertialAlignment.Solution, withoutBias: VisualInertialAlignment.Solution)] = []
    /// CPU milliseconds this frame's start spent on another thread (the alignment's second model,
    /// ``VisualInertialAlignment/attemptCounted(frames:samples:noise:)``), added to the frame's
    /// back-end time so that the reported tracking time stays the CPU it cost.
    var elsewhereMilliseconds = 0.0
    /// The gyroscope bias the latest frames' images give (``GyroBiasFromImages``), when they pin it.
    var gyroBias: GyroBiasFromImages.Solution?
    /// Time of the last divergence reset: a re-initialisation waits as long after it as the first
    /// one waits after the start (the alignment needs the same span of frames).
    var resetTime: Double?
    /// Pose of the old filter that the start after a divergence reset continues from
    /// (``ResetBridge``: position and heading continuity).
    var anchor: ResetBridge.Anchor?
    /// Time-offset estimate to keep after a divergence reset.
    var timeOffset: Double?
    /// Time of a start whose velocity came from the visual–inertial alignment (nil otherwise).
    var alignedStartTime: Double?
    /// The start window's images hint at a rolling shutter whose readout is not known, or at a
    /// time shift, without settling it yet (``EstimatorCore/imageTiming``): the start waits for
    /// more frames.
    var timingUndecided = false
    /// The start window's images give no gyro bias yet, or show one well beyond its spread with the
    /// spread still too wide to use (``TrackerConfiguration/startGyroBiasWaitSignificance``): a
    /// start in motion waits for more frames rather than starting from a zero bias.
    var gyroBiasUndecided = false
    /// The body's attitude before the first start (gyro turns, tilt from gravity): the camera's
    /// orientation under `limited(initializing)` until the filter has a pose; nil before the IMU
    /// has given a tilt, and after a divergence reset (``anchor`` carries the world then).
    var attitude: StartAttitude?
    /// Filter time at which a stated time offset held since the start is released
    /// (``TrackerConfiguration/TimeOffsetEstimation/statedHoldAfterMonoStart``); nil when none is held.
    var timeOffsetRelease: Double?
}

/// The filter's body pose at each of the latest frames, as it was estimated then (later updates do
/// not touch it): where a divergence reset takes its anchor from, a moment before the divergence
/// showed (``TrackerConfiguration/resetAnchorLookback``). Holds ``span`` seconds.
struct PoseHistory {
    private(set) var entries: [ResetBridge.Anchor] = []
    /// Time of the first pose since the filter started (kept when older poses leave).
    private(set) var firstTime: Double?
    /// Seconds of poses kept.
    let span: Double

    init(span: Double) { self.span = span }

    mutating func add(_ entry: ResetBridge.Anchor) {
        if let last = entries.last, entry.time <= last.time { entries.removeAll { $0.time >= entry.time } }
        if firstTime == nil { firstTime = entry.time }
        entries.append(entry)
        if let cut = entries.firstIndex(where: { entry.time - $0.time <= span }), cut > 0 { entries.removeFirst(cut) }
    }

    /// The latest pose at or before `t` (nil when none is that old).
    func pose(atOrBefore t: Double) -> ResetBridge.Anchor? { entries.last { $0.time <= t } }

    mutating func removeAll() {
        entries.removeAll()
        firstTime = nil
    }
}

/// The previous frame, as the next one needs it.
struct FrameMemory {
    /// Number of frames given a clone so far (the clone key).
    var frameCounter = 0
    /// Time of the last processed frame (camera clock).
    var lastFrameTime = -Double.infinity
    /// The same frame's time on the IMU clock (camera time + time offset).
    var lastIMUTime = -Double.infinity
    /// The last result (answer to a repeated frame).
    var lastResult: TrackingResult?
    /// Pixel and normalised positions of the previous frame's features (image-motion tests).
    var previousPixels: [Int: (pixel: Vector2, normalized: Vector2)] = [:]
    /// The previous frame's features (stereo velocity at initialisation from motion).
    var previousFeatures: [TrackedFeature] = []
    /// The last cam0 image given (a repeat of it is dropped).
    var previousImage: GrayImage?
    /// Capture times for stamps that jitter.
    var clock = FrameClock()
}
