import ParallaxMath
import ParallaxVision

/// Settings of ``VisualInertialOdometry``.
public struct TrackerConfiguration: Sendable, Equatable {
    /// Which cameras the estimator uses.
    public enum Mode: String, Sendable, CaseIterable {
        /// cam0 only.
        case mono
        /// cam0 and cam1 (falls back to mono frames when a partner image is missing).
        case stereo
    }

    /// Mono or stereo.
    public var mode: Mode = .stereo
    /// Maximum number of stochastic clones in the window (oldest marginalised first).
    public var windowSize: Int = 11
    /// Front-end settings (feature count, KLT, RANSAC). The tracker keeps 200 features (the front-end's
    /// own default is 150): on the simulated UDel Gore walk through `Scenes/hall.json`, where most
    /// points are metres away, 150 → 200 features took stereo ATE from 67 to 38 mm for ~1 ms more a frame.
    public var frontEnd: FeatureTrackerConfiguration = {
        var c = FeatureTrackerConfiguration()
        c.maxFeatures = 200
        return c
    }()
    /// At most this many tracks spanning the whole window are used per frame (bounds the cost per frame).
    public var maxWindowTracksPerUpdate: Int = 40
    /// Standard deviation of a feature measurement, pixels (converted to normalised units by the focal length).
    /// 0.7 px fits the simulated data (renderer noise, sub-pixel KLT) and real EuRoC images alike.
    public var pixelNoiseSigma: Double = 0.7
    /// Extra measurement noise (pixels per rad/s of the camera's turn rate at the frame), added in
    /// quadrature to ``pixelNoiseSigma``: in a fast turn, motion blur and the residue of the
    /// rolling-shutter and time-offset corrections move corners by more than the still-image
    /// noise, and a filter that trusts them as much rejects them all and resets.
    ///
    /// Measured (30 s simulations, ATE posyaw, 0 → 0.3): hand-held mono ideal sensor within the
    /// seed spread (room2 2.1/2.4 → 1.9/2.5 cm, table_01 9.1 → 9.4 mm); stereo `--sensor euroc`
    /// V1_01 1.08/0.97 → 0.96/0.94 cm; phone profile room3 5.2 → 4.2 cm.
    public var turnRateNoise: Double = 0.3
    /// Further turn-rate noise for a rolling-shutter camera, in pixels per rad/s per second of
    /// readout (35: 0.7 px per rad/s for a 20 ms readout): the rolling-shutter correction assumes
    /// a constant turn rate and velocity over the readout, and its error grows with both.
    /// Phone profile (20 ms readout, ATE posyaw) with 0.3 + 0.7: room3 2.98, room2 2.28,
    /// rpng_table_01 2.37 cm, against 4.2, 1.75 and 2.17 cm with 0.3 alone.
    public var readoutTurnRateNoise: Double = 35
    /// Chi-squared gate probability for each feature's Mahalanobis test (OpenVINS uses 0.95).
    public var chiSquaredProbability: Double = 0.95
    /// Observations of a track whose reprojection error exceeds this many measurement σ are
    /// dropped before its update (a KLT slip or wrong stereo match in one frame).
    public var outlierSigmas: Double = 5
    /// Largest reprojection error (normalised image units, ≈ 18 px at EuRoC's focal length) a
    /// triangulated track may keep after outlier removal and still be used.
    public var maxTriangulationError: Double = 0.05
    /// Parallax (rad) below which a left-only track counts for less in an update during the first
    /// ``lowParallaxWindow`` seconds after the filter (re)starts: its measurement σ is multiplied by
    /// (reference / parallax)², where parallax is the largest angle between its first ray and
    /// another (tracks under 0.01 rad are not triangulated at all). nil picks
    /// ``effectiveLowParallaxReference`` by mode; 0 turns the weighting off.
    public var lowParallaxReference: Double?
    /// Seconds after each (re)start during which ``lowParallaxReference`` applies.
    public var lowParallaxWindow: Double = 5
    /// The reference in force: ``lowParallaxReference``, else 0.025 rad (≈ 1.4°, OpenVINS's
    /// largest depth of 40 baselines) in mono and off in stereo.
    ///
    /// Why: on hand-held starts, tracks seen over a few millimetres of tremor triangulate with their
    /// depth known to 20–40 %, and linearised at that depth they tell the filter how the camera
    /// translated as if the depth were exact. One update with fifteen of them took a start's
    /// velocity σ from 2.7 to 0.6 cm/s while the estimate was 6 cm/s off; the first quick motion
    /// failed the χ² gate and reset the filter. Dropping such tracks (a hard 1° floor) ended the
    /// resets but lost 0.7–1.5 cm on TUM-VI room5, whose slow start needs them; weighting keeps
    /// them. Weighting for the whole run gave the same ATE as the first 5 s alone but drifted
    /// 0.8 cm more (mean of six starts) in the 3 s after a 3 s blackout, so it stops after 5 s.
    /// Measured over 10 start offsets (0–0.45 s) of hand-held mono sets (TUM-VI room2, room3, room5,
    /// rpng_table_01; ideal, 20 ms rolling shutter, phone; two seeds) in docs/tracking-design.md.
    /// Off in stereo, where most depths come from the baseline: Gore hall `--sensor euroc` went
    /// 1.90 → 2.20 cm with it on.
    public var effectiveLowParallaxReference: Double { lowParallaxReference ?? (mode == .mono ? 0.025 : 0) }
    /// Smallest ray angle (rad, ≈ 1.7°) for a tracked point to be reported to the AR layer.
    public var featurePointMinParallax: Double = 0.03
    /// Static (from rest) initialiser settings.
    public var staticInitializer = StaticInitializer.Configuration()
    /// Seconds of IMU after which the body's attitude is reported before the first pose
    /// (``TrackingResult/attitudeBeforeStart``, `limited(initializing)`): a few samples to read the
    /// up direction from the accelerometer (the mean then grows to ``StartAttitude/tiltWindow``).
    public var startAttitudeMinimumIMU: Double = 0.02
    /// Seconds of motion after which the estimator initialises from motion if it never saw a still window.
    public var motionInitializationDelay: Double = 0.6
    /// Longest span of frames (s) the visual–inertial alignment uses when initialising from motion.
    public var alignmentWindow: Double = 1.0
    /// How long (s of IMU) a steady-looking mono start (a hand turning in place) whose images show
    /// parallax waits for the alignment to succeed before starting at rest, as a hand does.
    public var alignmentTimeout: Double = 1.0
    /// How long (s of IMU) a mono start that is neither still nor steady (a hand walking or turning
    /// fast) waits for the alignment to succeed before falling back to a tilt-only start with
    /// unknown velocity. Longer than ``alignmentTimeout`` because that blind start rarely holds: on
    /// simulated phone and drone sets started 5–20 s in (hidden timing, drawn biases), 7 of the 13
    /// starts that took it at 1 s diverged and were reset 0.9–9 s later, and the world then sat
    /// where the diverged filter had left it (room3 from 12 s 1.43 m, room5 from 20 s 2.06 m).
    /// Waiting, all 13 aligned within 1.05–1.7 s: beyond 5 cm 6 → 3, summed ATE 713 → 85 cm; worse,
    /// MH_01 s78 from 7 s 7.6 → 60 cm, whose later alignment answered 2.6 m/s for 0.46
    /// (docs/tracking-design.md, "A moving start waits for its alignment").
    public var movingStartTimeout: Double = 2.0
    /// A mono start whose aligned answer has a speed σ (from the answer's covariance) above this
    /// fraction of its speed, and above ``weakAnswerSpeedSigmaFloor``, waits for a longer window,
    /// until ``weakAnswerWaitLimit`` seconds of IMU. Why: a phone carried through the Gore hall
    /// (seed 916, from 16 s) was aligned 0.61 s in at 2.06 ± 0.40 m/s for a true 1.17, the walker's
    /// steady pace past far points leaving the scale loose, and ended at 9.5 cm; its answer 0.3 s
    /// later gave 2.1 cm. On 192 mono sweep runs 248.2 → 240.1 cm (7 better, 4 worse, all Gore
    /// walks); 0.1 gave 236.3 (7 / 8), 0.2 caught nothing of note (docs/tracking-design.md,
    /// "A weak answer waits").
    public var weakAnswerRelativeSpeedSigma = 0.15
    /// Speed σ (m/s) under which no answer waits: near rest the relative figure means nothing
    /// (a start at 0.09 ± 0.09 m/s for a true 0.03 waited and then ended at 5.3 cm instead of 1.1).
    public var weakAnswerSpeedSigmaFloor = 0.1
    /// Seconds of IMU since the start window began after which a weak answer is taken anyway.
    public var weakAnswerWaitLimit = 1.0
    /// Largest misfit of the alignment's answer the start accepts: the RMS angle between its rays
    /// and the points triangulated from it (``VisualInertialAlignment/Solution/angularError``) in
    /// cam0 pixels (times the mean focal length). A worse fit counts as no answer, so the start
    /// waits for a later window, up to ``alignmentTimeout`` (steady) or ``movingStartTimeout``
    /// (moving). Why: rays that miss by more carry what
    /// the alignment does not model (a readout or time offset not known yet), and it fits velocity
    /// and gravity to them. On phone starts with the timing hidden, 20 s into TUM-VI room walks
    /// (150 °/s turns at 6 cm/s), it answered 0.7 m/s at 2.1 px and the walk ended 5.2 m off. The
    /// alignments of 39 global-shutter starts fit within 0.8 px, those of 75 hidden-timing phone
    /// starts within 2.2 px; the six beyond 1.4 px include five of the ten that ended beyond 5 cm
    /// (docs/tracking-design.md, "A start that waits for its timing").
    public var alignmentMaximumError: Double = 1.4
    /// ``alignmentMaximumError`` for a stereo start (cam0 pixels). Its rays include the second
    /// camera's, which carry the pair's relative calibration error: `--sensor euroc` (0.15° per
    /// camera) moves them by up to 2 px, and on simulated MH_03 (seed 917) good answers (velocity
    /// within 0.02 m/s, gravity within 0.3°) fit at 3.0–3.7 mrad (1.4–1.7 px). Refused, a stereo
    /// start does not wait but starts from two stereo frames, which diverged 0.5 s later from 20 s
    /// (6.86 cm); with 2.8 px, 1.79 cm (docs/tracking-design.md, "A stereo alignment fits its
    /// second camera's calibration error too").
    public var alignmentMaximumErrorStereo: Double = 2.8
    /// How far (m/s: the larger of this and ``restartVelocityRelativeTolerance`` × the predicted
    /// speed) an alignment
    /// answer may lie from the old filter's velocity carried on with the IMU after a divergence
    /// reset, for that velocity to pick it among two answers refused for disagreeing on gravity.
    /// Why: a restart on a phone V1_02 flight (accelerometer bias 0.45 m/s², seed 956, from 16 s)
    /// waited 0.7 s with the bias-solved answer right (0.05 m/s from the truth's 1.17 m/s) beside
    /// one without bias 2.9 m/s off, then took a later answer without bias 1.8 m/s off and reset
    /// again. The carried velocity was 0.47 m/s from the right answer: the old filter was about
    /// to diverge. So it only tells apart answers much farther apart than its own error
    /// (``restartVelocitySeparation``).
    public var restartVelocityTolerance: Double = 0.3
    /// See ``restartVelocityTolerance``.
    public var restartVelocityRelativeTolerance: Double = 0.5
    /// How many times farther from the carried velocity the other answer must lie.
    public var restartVelocitySeparation: Double = 3

    /// Prior σ (normalised image units; 0 holds it at zero) of the offset of cam1's horizontal
    /// coordinate that a stereo start's alignment solves with velocity and gravity. The pair's
    /// relative calibration error shifts every disparity alike: `--sensor euroc`'s 0.15° and
    /// 0.75 px per camera give offsets of 0.0006–0.0043 (0.3–2 px) on simulated sets, which put
    /// the depth of a point 10 m away 4–40 % off, and the alignment then bent gravity and velocity
    /// to fit them (Gore hall, seed 954: 1.76° and 17 %). Epipolar lines run along the offset, so
    /// the matches cannot show it; the start's motion, known from the IMU, can. 0.004 is the
    /// offsets' size (docs/tracking-design.md, "A stereo start solves its disparity offset").
    public var alignmentDisparityOffsetSigma: Double = 0.004
    /// Largest angle (degrees) between the gravity of the alignment's two answers, with the
    /// accelerometer bias solved and with it taken as zero, that a mono start accepts. Beyond it the
    /// window cannot yet tell a bias from a tilt and a velocity, and the start waits for more
    /// frames, up to ``movingStartTimeout`` or until one model's answers hold steady
    /// (``steadyAnswerAttempts``); the last try there takes the better-fitting answer as
    /// before. Why: the answer kept is the one whose rays fit better, and where both fit to half a
    /// pixel that choice is a coin toss. A phone flight with a 0.2 m/s² bias along gravity
    /// (V1_02, drawn biases, from 7 s) started on the answer without the bias, 5.9° off the other
    /// and 4° off the truth with 2.5 times the speed, and reset 1.2 s later (25.3 cm); waiting
    /// 0.55 s, the two agreed and the walk ended at 2.4 cm. A large bias that the window cannot
    /// yet separate from the tilt keeps them apart (3.7° for 0.64 m/s² on exact synthetic data): such
    /// a start waits the whole timeout. Over 17 starts where it fires (drawn biases, hidden
    /// timing, from 6–20 s) 68.8 → 39.8 cm summed, 11 better, 4 worse (the room3 fixture with a
    /// 0.13 rad/s gyro bias and hidden timing from 10 s 0.77 → 3.71 cm);
    /// it fires on 4 of a 73-run sweep (phone, ideal and `--sensor euroc` sets, mono and stereo)
    /// and on 1 of 14 held-out runs (docs/tracking-design.md,
    /// "A start that waits for its alignment's two answers to agree"). Stereo starts do not wait:
    /// a refused alignment there falls back to a start from two stereo frames. Infinity turns the
    /// test off.
    public var alignmentModelDisagreement: Double = 2.0
    /// A steady-looking mono start is not taken as a hand turning in place (a start at rest, see
    /// ``steadyStartMaximumParallax``) while the alignment's two answers, refused for
    /// disagreeing on gravity (``alignmentModelDisagreement``), both move faster than this (m/s):
    /// it waits on for an alignment, up to ``movingStartTimeout``. Why: a phone carried through
    /// the Gore hall (simulated, drawn IMU biases, seed 916) past far points looked steady, and at
    /// 1.25 s started at rest while both answers said 0.5–1.1 m/s (truth 0.8): 27.8 cm, a reset.
    public var handheldStartMaximumAlignedSpeed: Double = 0.3
    /// Consecutive mono alignment attempts refused for disagreement (``alignmentModelDisagreement``)
    /// after which the start takes the answer of the model that fitted its rays clearly better in
    /// each of them (``steadyAnswerFitRatio``), when that model's answers agree with each other
    /// (``steadyAnswerBiasTolerance``, ``steadyAnswerSpeedTolerance``); 0 waits for the two models
    /// to agree. On 192 mono sweep starts the first pose came after 1 s on 5 instead of 10
    /// (248.2 against 248.7 cm summed; docs/tracking-design.md, "A steady answer ends the wait").
    public var steadyAnswerAttempts: Int = 3
    /// The better model's RMS ray angle must stay below this fraction of the other's in each of
    /// those attempts. Why: without a margin (any better fit), the Gore walk's start took the
    /// bias-solved answer at 0.7 s, 20 % too fast while both fitted alike (1.39 against 1.53 mrad),
    /// and ended at 4.9 cm instead of 1.3; at 0.8 it waited until 1.1 s, when that answer fitted
    /// a third better than the other and its speed was right (2.7 cm).
    public var steadyAnswerFitRatio = 0.8
    /// How far those answers' accelerometer biases may lie apart (m/s²).
    public var steadyAnswerBiasTolerance = 0.1
    /// How far their speeds may lie apart (m/s), or ``steadyAnswerRelativeSpeedTolerance`` of the
    /// newest speed when that is larger.
    public var steadyAnswerSpeedTolerance = 0.05
    public var steadyAnswerRelativeSpeedTolerance = 0.15
    /// Velocity standard deviation (m/s) below which an initialising filter is reported `normal`.
    public var convergedVelocitySigma: Double = 0.05
    /// Median feature motion (pixels per frame) below which the camera is considered still.
    public var stationaryPixelThreshold: Double = 0.2
    /// Gyro-predicted turn between frames (pixels: angle × mean focal length) beyond which an image
    /// that does not move is not taken as still (its tracks are stuck, the camera is turning).
    /// 4 px at 20 Hz is 10 °/s with EuRoC's 458 px focal length: above a hand's tremor and an
    /// uncalibrated gyro's bias (0.1 rad/s turns 2.3 px a frame there, 4.6 px at 10 Hz; 1 px
    /// through TUM-VI's 191 px fisheye at 20 Hz), far below the turns that stick tracks in a
    /// washout (150 °/s: 25 px through the fisheye).
    public var stillMaximumTurnPixels: Double = 4.0
    /// Standard deviation (m/s) of the zero-velocity measurement applied while still.
    public var zeroVelocitySigma: Double = 0.01
    /// Median feature motion (pixels per frame) left after removing the gyro-predicted rotation,
    /// below which a moving image is taken as the device turning in place (a hand's tremor).
    /// 1 px at 20 Hz is ≈ 9 cm/s at 2 m with EuRoC's 458 px focal length; on simulated TUM-VI
    /// handheld starts the tremor leaves 0.2–0.9 px and walking away 2–7 px.
    public var turningInPlacePixelThreshold: Double = 1.0
    /// Standard deviation (m/s) of the velocity hold applied while turning in place with no track
    /// constraining translation: a hand drifts by a few cm/s.
    public var handheldHoldVelocitySigma: Double = 0.05
    /// Seconds after a velocity hold during which the reported feature points still count the
    /// motion as assumed rather than measured (``TrackedFeaturePoint/covariance``): on a simulated
    /// phone start the estimated translation was 17 % short over the 0.5 s after the last hold.
    /// It does not change the filter.
    public var heldSettleTime: Double = 1.0
    /// Frames without a feature track in an update after which that hold may apply (or sooner,
    /// while the velocity is unconverged).
    public var handheldHoldAfterFrames: Int = 3
    /// Accelerometer-bias standard deviation (m/s²) above which the bias counts as not yet observed
    /// by the visual updates (a start at rest has a prior of 0.05, one in motion 0.2): until then a
    /// hold leaves both biases alone (a consider update). The hold assumes a hand; a drone drifting
    /// or carried off past far points moves the image the same way, and holds that updated the
    /// biases wrote its acceleration into them: 0.8 m/s² and resets on simulated EuRoC MH_03's
    /// shaken start, and 0.35 m/s² within 0.5 s when mono starts mid-flight at 45 s of MH_01 (a hover
    /// at 0.1–0.2 m/s: 12–51 cm ATE over the next 25 s, 3.9–4.4 cm with biases kept). Holds that
    /// updated the biases only when their innovation looked doubtful (χ²₃ beyond 0.5, 2026-11-26)
    /// fixed the first and not the second: each frame's innovation there is small, its sign the
    /// same frame after frame.
    public var handheldHoldObservedBiasSigma: Double = 0.05
    /// Seconds after a start whose velocity came from the visual–inertial alignment during which
    /// no turning-in-place hold applies: the alignment has just measured that velocity from
    /// parallax, and a hold would replace it by zero on the strength of one frame's image motion.
    /// A drone passing far points at 0.3–0.5 m/s moves them by under a pixel a frame, as a hand
    /// turning in place does; on simulated EuRoC MH_01 mono starts at 45, 150 and 154 s a hold
    /// within 0.5 s of the start zeroed a correct aligned velocity of 0.34 m/s (ATE 4.4 / 36 /
    /// 13 cm; 1 s pause 4.6 / 2.7 / 3.4 cm; 2 s 2.0 / 1.8 / 1.0 cm). The 32 simulated hand-held
    /// walks, which start at rest or steady, kept their figures (one moved by 0.1 mm).
    public var holdPauseAfterAlignment: Double = 2.0
    /// Frames over which a start is judged steady (no image translation in at least 80 % of them)
    /// before a mono start without parallax may begin at zero velocity.
    public var steadinessWindow: Int = 10
    /// Parallax (pixels: the median of each feature's motion over the steadiness window once the
    /// gyro's rotation, and the small rotation that best explains the rest, are removed; see
    /// `StartParallax`) above which a steady-looking mono start waits for the visual–inertial
    /// alignment, up to ``alignmentTimeout``, before it starts at zero velocity as a hand would.
    /// Frame by frame a drone drifting at 0.1–0.2 m/s past points 2–4 m away moves them as little
    /// as a hand's tremor does; over the window its motion adds up. On simulated EuRoC V1_02 played
    /// backwards (a phone-profile start in slow flight, 2.1 px at 0.6 s) the zero-velocity start put
    /// the first track update 0.15 m/s wrong, the scale came out twice the truth and the filter reset
    /// at 4.8 s (ATE 28 cm); the alignment one frame later measured the velocity (1.8 cm). Hand-held
    /// starts on TUM-VI room2 measured 0.7–1.35 px; room5's hands drift (1.5–2.4 px), and some of
    /// those now start at the timeout, 0.2 s later.
    public var steadyStartMaximumParallax: Double = 1.5
    /// Minimum number of features the front-end must track for `normal` tracking.
    public var minimumFeatures: Int = 15
    /// Angular rate (rad/s) above which tracking is reported `limited(excessiveMotion)`.
    public var excessiveAngularRate: Double = 4.0
    /// Position jump or speed (m/s) beyond which the filter is declared diverged and reset.
    public var divergenceSpeed: Double = 8.0
    /// Gyroscope bias (rad/s) beyond which the filter is declared diverged: about 30°/s, far above
    /// any MEMS gyro's turn-on bias, so only a filter that lost its linearisation point gets there.
    public var maximumGyroBias: Double = 0.5
    /// Accelerometer bias (m/s²) beyond which the filter is declared diverged (about 0.2 g).
    public var maximumAccelBias: Double = 2.0
    /// Visual consistency test: over the last `inconsistencyWindow` frames with updates, a filter
    /// whose χ² gate rejected at least `inconsistencyMinimumRejections` feature tracks and more than
    /// twice as many as it accepted has lost its linearisation point (healthy runs reject 0–2 %).
    /// It is reset like a diverged one.
    public var inconsistencyWindow: Int = 10
    /// Estimate a rolling-shutter readout from the gyro and the tracks when the calibration
    /// states no `line_delay` (``ReadoutEstimator``); off: such a camera is taken as global shutter.
    public var estimatesReadout = true
    /// The front-end's epipolar RANSAC threshold (pixels) for a rolling-shutter camera (stated or
    /// estimated readout): its test runs on uncorrected rows, where a 20 ms readout in a changing
    /// turn moves the top and bottom rows by 2–5 px, so 1 px dropped exactly the features that
    /// show the rolling shutter — and biased the readout estimate low (16 ms for 20).
    public var rollingShutterRansacThreshold = 3.0
    /// The same threshold before the filter starts, while the visual–inertial alignment collects its
    /// frames. Why tighter: the alignment is a least-squares fit over half a second of tracks and
    /// takes no outlier test of its own, and the 3 px test let through tracks that a start on EuRoC
    /// MH_01's vertical bounce (phone profile, seed 76 with drawn IMU biases) could not afford: the
    /// alignment answered a forward velocity of 0.74 m/s for a vertical 0.5 m/s, and the filter reset
    /// at 5.95 s (8.0 cm over 30 s; 0.71 cm without the rolling shutter). With 2 px before the start:
    /// 1.12 cm; 36 other rolling-shutter sets 33.35 → 33.52 cm summed (phone Gore s67 2.26 → 2.69 cm,
    /// the rest within 2 mm). After the start the filter's own gate judges the tracks, and 3 px stays.
    public var rollingShutterStartRansacThreshold = 2.0
    /// KLT starts also from the predicted translation (at each feature's depth) once the typical
    /// feature would move at least this far (pixels) from it: on repetitive texture a start that far
    /// off locks onto the wrong period (see `TranslationPrediction`); smaller shifts KLT finds alone.
    public var translationPredictionMinimumShift = 25.0
    /// The readout estimate uses frame pairs only once the filter runs and its time-offset σ is
    /// below this (s): the pairs compare rows at the times the offset places, and a wrong offset
    /// looks like a readout (a hidden 20 ms offset made the first pairs say "global shutter").
    public var readoutTimeOffsetSigma = 0.003
    /// Before the filter starts, a readout the calibration does not state is solved with the start
    /// window's time offset and gyro bias (``GyroBiasFromImages/solveTimeShift``) under a prior at
    /// zero with this σ (s, top row to bottom) …
    public var startReadoutPriorSigma = 0.02
    /// … and used from then on when it is at least ``startMinimumReadout`` (s) and this many of the
    /// solve's σ (which counts every ray as independent, as the offset's does).
    public var startReadoutSignificance = 15.0
    /// A readout within the plausible range (``startMinimumReadout`` to the estimator's 40 ms) at
    /// this many σ but short of ``startReadoutSignificance`` holds the start for more frames, up to
    /// ``alignmentWindow``; one still at this many σ when the window is over is used as a significant
    /// one is (the filter refines it from there). Leaving those rows uncorrected lost a phone start
    /// in 150 °/s turns (20 ms readout, solved at 8 σ; tracks thinned to none within a second,
    /// TUM-VI room2 from 15 s: 4.2 m), and on 76 global-shutter starts no readout reached 4 σ at
    /// the window's end.
    public var startReadoutWaitSignificance = 4.0
    /// A start in motion waits for the start window's gyro bias from the images, up to the
    /// alignment's window (``alignmentWindow``), while they give none (no frame pairs 0.3 s apart
    /// share enough points, as in a quick turn) or give one wider than
    /// ``TrackerConfiguration/InitializationPriors/imageGyroBiasMaximumSigma`` that exceeds zero by
    /// this multiple of its standard deviation. Otherwise it starts from a zero bias: phone room3
    /// s502 from 12 s (drawn biases, timing hidden) started 0.65 s in while the images showed
    /// 0.14 rad/s at σ 0.011 (the truth 0.07 rad/s), the phone room3 fixture with a 0.13 rad/s bias
    /// from 12 s with no pairs at all, and both diverged within 1.2 s (25.7 cm, 74.6 cm). 0 never
    /// waits (docs/tracking-design.md, "A start that waits for the images' gyro bias").
    public var startGyroBiasWaitSignificance = 4.0
    /// The shortest readout (s) the start acts on; below it the camera is taken as a global shutter
    /// until ``ReadoutEstimator`` says otherwise once the filter runs.
    public var startMinimumReadout = 0.005
    /// Once ``ReadoutEstimator`` gives its first readout, the filter takes it as the prior of its
    /// readout state with this σ (s) and refines it with every feature update (the estimator alone
    /// came out 5–10 % low on hand-held walks, and 18.3 ms stated for a true 20 ms doubled the ATE
    /// on a TUM-VI room). 0 keeps the estimator's value, fixed.
    public var readoutPriorSigma = 0.005
    /// See ``inconsistencyWindow``.
    public var inconsistencyMinimumRejections: Int = 20
    /// A rejected zero-velocity update counts as this many rejected tracks in the consistency test:
    /// the images say "not moving" and a filter sure of the opposite is inconsistent.
    public var zeroVelocityRejectionWeight: Int = 3
    /// Number of frames to report `limited(relocalizing)` after a reset before `normal` may return.
    public var relocalizingFrames: Int = 10
    /// A divergence reset's next start continues from the old filter's pose this many seconds
    /// before the reset, bridged to its own time with the IMU (``ResetBridge``): the tests that
    /// drop a filter fire only after it has been wrong for a while (the consistency test over
    /// ``inconsistencyWindow`` frames), so its last pose may be well off.
    public var resetAnchorLookback: Double = 0.5
    /// The longest span (s) from that pose to the next start that the IMU bridges; a later start
    /// keeps the pose's position and heading as they were.
    public var resetBridgeMaximumSpan: Double = 3.0
    /// The bridge is used only where the old filter had run at least this long (s) before its
    /// anchor: one that diverged soon after its start (a start in a fast turn with the wrong timing,
    /// phone V2_02 from 12 s) had no settled velocity or biases to bridge with, and no world worth
    /// keeping. There the last pose is kept as it is.
    public var resetBridgeMinimumRun: Double = 3.0
    /// Uncertainty of the IMU stream's gaps (propagation across missing samples).
    public var imuGaps = IMUGapModel()
    /// Camera–IMU time-offset estimation.
    public var timeOffset = TimeOffsetEstimation()
    /// Online estimation of each camera's extrinsics (camera–IMU rotation and translation).
    public var extrinsics = ExtrinsicsEstimation()
    /// Online estimation of each camera's intrinsics (focal lengths, principal point, k1, k2).
    public var intrinsics = IntrinsicsEstimation()
    /// Online calibration of the IMU's scale factors and axis misalignments.
    public var imuIntrinsics = IMUIntrinsicsEstimation()
    /// Priors of the first filter state after each kind of start.
    public var initializationPriors = InitializationPriors()

    /// The default configuration (EuRoC-like 752×480 images at 20 Hz, stereo).
    public init() {}

    /// The default configuration in the given mode.
    public init(mode: Mode) { self.mode = mode }
}
