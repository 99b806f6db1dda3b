import Foundation
extension TrackerConfiguration {
    /// Standard deviations of the filter's first covariance (per axis).
    public struct InitialUncertainty: Sendable, Equatable {
        /// Roll and pitch (rad).
        public var tilt: Double
        /// Yaw (rad): unobservable, so its prior only says how much the world frame may turn.
        public var yaw: Double
        /// Position (m): unobservable; the world origin is the starting position.
        public var position: Double
        /// Velocity (m/s).
        public var velocity: Double
        /// Gyroscope bias (rad/s).
        public var gyroBias: Double
        /// Accelerometer bias (m/s²).
        public var accelBias: Double

        /// Creates an uncertainty from its per-axis standard deviations.
        public init(tilt: Double, yaw: Double, position: Double, velocity: Double, gyroBias: Double, accelBias: Double) {
            self.tilt = tilt
            self.yaw = yaw
            self.position = position
            self.velocity = velocity
            self.gyroBias = gyroBias
            self.accelBias = accelBias
        }

        /// The 15 error-state standard deviations in the filter's order (θ, p, v, b_g, b_a).
        var standardDeviations: [Double] {
            [tilt, tilt, yaw] + [Double](repeating: position, count: 3) + [Double](repeating: velocity, count: 3)
                + [Double](repeating: gyroBias, count: 3) + [Double](repeating: accelBias, count: 3)
        }
    }

    /// How gaps in the IMU stream are recognised and what motion is assumed during one.
    public struct IMUGapModel: Sendable, Equatable {
        /// Sample intervals longer than this (s) are gaps.
        public var maxInterval: Double = 0.05
        /// Acceleration uncertainty (m/s², σ) during a gap: the motion is unknown.
        public var accelSigma: Double = 2.0
        /// Rotation-rate uncertainty (rad/s, σ) during a gap.
        public var gyroSigma: Double = 0.3

        /// The default model (50 ms, 2 m/s², 0.3 rad/s).
        public init() {}
    }

    /// Online estimation of the camera–IMU time offset (Li & Mourikis, IJRR 2014), starting from
    /// the calibration's `timeshift_cam_imu` (or 0).
    public struct TimeOffsetEstimation: Sendable, Equatable {
        /// Whether the offset is a filter state (false keeps the calibration's value).
        public var estimate = true
        /// Prior standard deviation (s) of the offset.
        public var priorSigma = 0.005
        /// Before the filter starts, the offset is solved from the start window's images with the
        /// gyro bias (``GyroBiasFromImages``), and the start moves to it when it differs from the
        /// calibration's by at least ``startMinimumShift`` and ``startSignificance`` σ (only while
        /// ``estimate`` is on). A stated offset 3 ms off otherwise left the fast hall walk's mono
        /// start with a scale error (docs/tracking-design.md, "Second sweep").
        public var solvesAtStart = true
        /// Smallest change of the offset the start makes (s).
        public var startMinimumShift = 0.002
        /// How many of the solve's σ the change must reach. That σ counts every ray as independent;
        /// across 38 simulated sets whose offset was stated right, the solve's answers spread about
        /// five times wider (false shifts of 1–2.7 ms at σ 0.1–0.36 ms on room walks, 10.6 ms at
        /// σ 0.97 on a drone flight), so 15 is three real σ.
        public var startSignificance = 15.0
        /// A shift of at least ``startMinimumShift`` at this many σ but short of
        /// ``startSignificance`` holds the start for more frames, up to
        /// ``TrackerConfiguration/alignmentWindow``, as an undecided readout does; then it starts
        /// at the calibration's offset. Why: the gyro bias and the alignment solved on frames a
        /// shift off are off too. A phone start in 100–150 °/s turns with a 10 ms offset not
        /// stated (solved as 7.9 ms at 7.9 σ) took a gyro bias 0.06 rad/s off and half the scale,
        /// and ended 97 cm off; waiting, the shift reached its significance three frames later.
        public var startWaitSignificance = 4.0
        /// Largest change of the offset the start looks for (s).
        public var startMaximumShift = 0.03
        /// Where the search within ``startMaximumShift`` gives no answer, one in the outer quarter
        /// of its reach, or one under ``startWaitSignificance``, the start looks again this far
        /// (s), under a prior of half this reach, and takes that answer only where it lies beyond
        /// the first reach; 0 turns the second search off. An offset beyond the first reach pins
        /// the first answer near the edge (−27 ms on a walk 45 ms off) or, under the offset's
        /// 5 ms prior, shrinks it to nothing certain (−10.7 ms at 2.5 σ for −40 ms). Why two
        /// searches, not one wide one: a wider search keeps fewer pairs (each pair's shifted span
        /// must stay inside the IMU samples), and with ±60 ms from the first the mid-walk starts
        /// of the hidden-timing sets got worse (three of 42 beyond 5 cm, none before), while a
        /// phone walk with a −45 ms offset not stated ended 1.27 m off with the ±30 ms search
        /// alone (docs/tracking-design.md, "Offsets beyond the first search").
        public var startWideMaximumShift = 0.06
        /// Seconds after a mono start whose velocity and gravity came from the visual–inertial
        /// alignment during which an offset the calibration states is held (zero variance), then
        /// released with ``priorSigma``; 0 estimates it from the first update. An offset the start
        /// moved (solved from its own images, ``solvesAtStart``) is not held: it is known to a
        /// millisecond at best, and holding one such on a room3 walk cost 0.65 → 3.26 cm. Why: the
        /// alignment's velocity can be 15–20 % off on a drone cruising past far points, and a ray's
        /// shift from the offset is the velocity times the offset, so the first updates moved the
        /// offset (and with it the extrinsic rotation) instead of the velocity; simulated EuRoC
        /// V2_02 (phone profile, drawn IMU biases) started at 16 s diverged at 19 s and ended 30 cm
        /// off; held, 3.7 cm (docs/tracking-design.md, "A stated time offset held while a mono
        /// start settles").
        public var statedHoldAfterMonoStart = 2.0

        /// The default: estimated, σ 5 ms.
        public init() {}
    }

    /// Online estimation of each camera's extrinsics `T_body_cam` (Li & Mourikis, IJRR 2013 §IV;
    /// OpenVINS's `calib_cam_extrinsics`), starting from the calibration's `T_BS`. Each camera is a
    /// state of its own, so a stereo pair's relative pose is refined too.
    ///
    /// Measured on 30 s simulations (ATE posyaw, before → after): stereo with EuRoC-like
    /// calibration error (`simulate --sensor euroc`, V1_01, seeds 1 and 2) 4.8 / 7.6 cm → 1.1 / 1.0 cm;
    /// stereo with a perfect calibration 3.5 / 2.7 mm → 3.8 / 4.7 mm (the price of six free
    /// states per camera).
    ///
    /// In mono the rotation is estimated and the translation held (``monoTranslationSigma``), since
    /// 2026-11-28 (stop 44). One camera sees a lever-arm error of a few millimetres only through
    /// the depths of its points, and left free it wandered: a phone walk along TUM-VI room3 went
    /// 0.80 → 5.8 cm with the translation at 1 mm σ. The rotation error is different: the online
    /// intrinsics absorb its pan and tilt into the principal point but not its roll, and on the hall
    /// walk, whose points lie metres away, that roll was what kept phone-profile mono at 3–13 cm.
    /// Rotation only, over 24 mono sets (12 phone-profile walks, 12 ideal and `--sensor euroc` ones):
    /// 47.96 → 33.62 cm summed, 16 better and 8 worse by at most 3.8 mm (ideal Gore 2.20 → 2.58 cm);
    /// phone Gore seeds 1 / 9 3.35 / 6.69 → 2.85 / 3.81 cm, with three times the calibration error
    /// 13.2 → 3.6 cm (docs/tracking-design.md). Earlier trackers were no better with extrinsics in
    /// mono (phone profile 7.2 → 7.9 cm, one table walk 9.1 → 11.9 mm).
    public struct ExtrinsicsEstimation: Sendable, Equatable {
        /// The tracking modes in which the extrinsics are filter states (empty keeps the
        /// calibration's values everywhere).
        public var modes: Set<Mode> = [.stereo, .mono]
        /// Prior standard deviation (rad) of each rotation axis (0.29°).
        public var rotationSigma = 0.005
        /// Prior standard deviation (m) of each translation axis: translation is weakly observable
        /// over a short run, and a loose prior lets it wander (σ 1 cm left 5 mm errors where 1 mm
        /// leaves 3–4 mm against a 2.5 mm calibration error).
        public var translationSigma = 0.001
        /// Prior standard deviation (m) of each translation axis in mono: 10 µm, which holds the
        /// calibration's lever arm while the rotation is estimated (see the type's documentation).
        public var monoTranslationSigma = 0.00001

        /// The default: estimated in stereo (σ 0.29° and 1 mm per axis) and in mono (σ 0.29°, the
        /// translation held).
        public init() {}

        /// Whether the extrinsics are estimated in `mode`.
        public func isEstimated(in mode: Mode) -> Bool { modes.contains(mode) }

        /// The translation prior σ (m) in `mode`.
        public func translationSigma(in mode: Mode) -> Double { mode == .mono ? monoTranslationSigma : translationSigma }
    }

    /// Online calibration of each camera's intrinsics (OpenVINS's `calib_cam_intrinsics`): the pinhole
    /// focal lengths and principal point and the first two distortion coefficients (``LensIntrinsics``).
    ///
    /// In stereo a focal-length or principal-point error changes the disparity, hence the depth of
    /// far points and the scale. Measured on 30 s simulations (ATE posyaw, fixed → estimated):
    /// Gore hall stereo `--sensor euroc` 23.4 → 1.8 cm; V1_01 stereo `--sensor euroc` seeds 1 and 2
    /// 1.10 / 1.05 → 0.59 / 0.96 cm; with a perfect calibration V1_01 4.2 / 5.0 → 5.8 / 6.5 mm and
    /// Gore 2.5 → 2.5 cm (the price of eight more free states).
    ///
    /// In mono a principal-point error tilts every bearing the same way and a focal error scales
    /// their spread, which the filter otherwise absorbs into attitude and scale. On by default in
    /// mono since 2026-11-28: 26 mono sets (phone-profile walks, ideal and `--sensor euroc` flights,
    /// the Gore walk) summed 42.0 → 30.7 cm ATE, 19 better, 2 worse by more than 0.5 mm (MH_03 hall
    /// `--sensor euroc` 1.74 → 1.98 cm, a doubled calibration error 2.44 → 2.58 cm); phone Gore
    /// 5.6 → 3.9 cm (docs/tracking-design.md). An older tracker gained nothing consistent from it
    /// (three phone walks 2.98 / 2.28 / 2.37 → 3.63 / 2.42 / 1.40 cm).
    /// The distortion coefficients keep a tight prior: free (σ 0.002) they wandered and cost V1_01
    /// 4 → 8 mm; the focal length and principal point move.
    public struct IntrinsicsEstimation: Sendable, Equatable {
        /// The tracking modes in which the intrinsics are filter states (empty keeps the
        /// calibration's values everywhere).
        public var modes: Set<Mode> = [.stereo, .mono]
        /// Prior standard deviation (pixels) of fx and fy.
        public var focalSigma = 1.0
        /// Prior standard deviation (pixels) of cx and cy.
        public var principalPointSigma = 1.0
        /// Prior standard deviation of k1 and k2.
        public var distortionSigma = 1e-5

        /// The default: estimated in stereo and mono, σ 1 px for the focal lengths and principal point.
        public init() {}

        /// Whether the intrinsics are estimated in `mode`.
        public func isEstimated(in mode: Mode) -> Bool { modes.contains(mode) }

        /// The six prior σ in state order: fx, fy, cx, cy, k1, k2.
        var standardDeviations: [Double] {
            [focalSigma, focalSigma, principalPointSigma, principalPointSigma, distortionSigma, distortionSigma]
        }
    }

    /// Online calibration of the IMU's scale factors and axis misalignments (``IMUIntrinsics``;
    /// OpenVINS's IMU intrinsics, Yang et al., T-RO 2023): twelve states, three scale errors and
    /// three misalignments each for the gyroscope and the accelerometer. A consumer IMU's
    /// sensitivity and cross-axis sensitivity are specified to about ±1 % before calibration; 1 %
    /// of a hand's 200 °/s turn is 2 °/s, and 1 % of gravity 0.1 m/s², which the filter would
    /// otherwise read as noise and bias.
    ///
    /// Off by default: with a perfect IMU the twelve free states cost accuracy (15 simulated sets,
    /// mono and stereo, summed 21.9 → 25.1 cm ATE even with σ 0.2 %, most on the hall walks), while
    /// an IMU with 1 % scale errors and 0.3° misalignments is tracked 1.1–11× better per set (nine
    /// sets 40.5 → 12.8 cm). Turn it on for an IMU without a factory calibration; measurements in
    /// docs/tracking-design.md ("IMU scale and misalignment").
    public struct IMUIntrinsicsEstimation: Sendable, Equatable {
        /// The tracking modes in which the IMU intrinsics are estimated (empty, the default: the
        /// IMU is taken as perfect).
        public var modes: Set<Mode> = []
        /// Prior σ of each gyroscope scale error (fraction).
        public var gyroScaleSigma = 0.005
        /// Prior σ of each gyroscope misalignment (rad).
        public var gyroMisalignmentSigma = 0.005
        /// Prior σ of each accelerometer scale error (fraction).
        public var accelScaleSigma = 0.005
        /// Prior σ of each accelerometer misalignment (rad).
        public var accelMisalignmentSigma = 0.005

        /// The default: not estimated; when turned on, σ 0.5 % and 0.005 rad.
        public init() {}

        /// Whether the IMU intrinsics are estimated in `mode`.
        public func isEstimated(in mode: Mode) -> Bool { modes.contains(mode) }

        /// The twelve prior σ in state order (gyroscope scale, misalignment, accelerometer scale,
        /// misalignment), all zero (fixed) when not estimated in `mode`.
        func standardDeviations(in mode: Mode) -> [Double] {
            guard isEstimated(in: mode) else { return [Double](repeating: 0, count: 12) }
            return [gyroScaleSigma, gyroMisalignmentSigma, accelScaleSigma, accelMisalignmentSigma].flatMap { [$0, $0, $0] }
        }
    }

    /// Priors of the filter's first state, per way of starting.
    public struct InitializationPriors: Sendable, Equatable {
        /// After a static start: gravity and gyro bias from a still IMU window, zero velocity.
        public var fromRest = InitialUncertainty(tilt: 0.01, yaw: 1e-3, position: 1e-3, velocity: 0.02,
                                                 gyroBias: 3e-3, accelBias: 0.05)
        /// After a start in motion with only the mean specific force (tilt) and no velocity estimate.
        public var fromMotion = InitialUncertainty(tilt: 0.05, yaw: 1e-3, position: 1e-3, velocity: 1.0,
                                                   gyroBias: 0.02, accelBias: 0.2)
        /// Tilt σ (rad) when gravity comes from the visual–inertial alignment or stereo velocities.
        public var alignedTilt = 0.02
        /// Velocity σ (m/s) when the velocity comes from the visual–inertial alignment.
        public var alignedVelocity = 0.1
        /// The tracking modes whose starts from the visual–inertial alignment take the answer's joint
        /// covariance of tilt, velocity and accelerometer bias
        /// (``StateHelper/setAlignedStartCovariance(_:answer:gravityInBody:floor:)``) instead of
        /// ``alignedTilt``, ``alignedVelocity`` and the bias prior, independent. Mono only: on 192
        /// simulated mono starts (24 sets, starts at 0–20 s) the summed ATE went 387.0 → 248.7 cm
        /// (99 better, 49 worse; a phone V1_02 start with a 0.45 m/s² bias 22.9 → 5.3 cm, EuRoC V1_01
        /// from 8 s 95.6 → 12.7), on 48 starts of 8 newer sets 67.9 → 60.4, while 80 stereo starts went
        /// 65.2 → 68.6 cm (34 better, 29 worse; 66.1 with a 0.015 rad ray σ): a stereo window fixes
        /// the scale, and its answer is not ambiguous in the same way.
        public var alignedJointCovarianceModes: Set<Mode> = [.mono]
        /// σ (rad) of a ray's angle in that covariance (never below the answer's RMS misfit). Why
        /// 0.005 (about two pixels at EuRoC's focal length): on the 192 sweep starts 0.015 (the
        /// alignment's own weight unit) and 0.005 did alike (244.8 and 248.7 cm summed from 387.0),
        /// but on 48 starts of 8 newer sets 0.015 let a good phone V1_02 start drift along
        /// its ambiguity for 3 s (3.6 → 8.3 cm) and summed 67.9 → 65.8 cm, 0.005 67.9 → 60.4, 0.0075
        /// 61.3.
        public var alignedRayAngleSigma = 0.005
        /// Added on the diagonal of an aligned start's joint covariance of tilt, velocity and
        /// accelerometer bias (only those three σ are read): the answer's covariance pins some
        /// combinations almost exactly, which the filter must still be able to move.
        public var alignedJointFloor = InitialUncertainty(tilt: 0.005, yaw: 0, position: 0, velocity: 0.02,
                                                          gyroBias: 0, accelBias: 0.02)
        /// Velocity σ (m/s) when the velocity comes from two stereo frames.
        public var stereoVelocity = 0.15
        /// The images' gyro bias is used only when its spread is at most this (rad/s).
        public var imageGyroBiasMaximumSigma = 0.005
        /// Gyro-bias σ (rad/s) of a start whose bias came from the images (``GyroBiasFromImages``).
        /// Their answer was 0.7–3.9 mrad/s off on most starts but 16–17 on two room3 walks (small
        /// turns: a rotation across the view and a translation along the image look alike). With
        /// σ 5 mrad/s that error stayed (ideal room3 with an EuRoC-size bias: 1.71 cm; 0.85 with
        /// 10, 0.59 with 20), while drone starts did better tight (V1_01 mono from 8 s: 0.88 / 1.86 /
        /// 2.42 cm; MH_03 1.25 / 1.07 / 2.28 cm). 24 sets summed: 343 / 334 / 346 mm.
        public var imageGyroBias = 0.01

        /// The default priors.
        public init() {}
    }
}
