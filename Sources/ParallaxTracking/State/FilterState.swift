import ParallaxMath

/// One stochastic clone: the body pose at a camera frame, with its first estimate (FEJ).
struct Clone {
    /// Frame number (strictly increasing), the key observations refer to.
    var frame: Int
    /// Frame time (s).
    var timestamp: Double
    /// Current estimate of `R_world_body`.
    var rotation: Matrix3
    /// Current estimate of the body position in the world.
    var position: Vector3
    /// First estimate (value when cloned, before any update), used in measurement Jacobians.
    var rotationFE: Matrix3
    /// First estimate of the position.
    var positionFE: Vector3
    /// Body velocity in the world at the clone's time (the estimate when cloned, held constant):
    /// a rolling-shutter row read δ seconds later saw the camera moved by `velocity · δ`.
    var velocity: Vector3 = .zero
    /// Measurement σ of this clone's observations relative to the still-image σ (≥ 1): larger in
    /// fast turns (``TrackerConfiguration/turnRateNoise``).
    var noiseScale: Double = 1
    /// ``FilterState/heldTime`` when the clone was taken.
    var heldTime: Double = 0
}

/// The MSCKF state: IMU navigation state plus a window of clones, with a dense covariance.
///
/// Error state (world-frame, "left" rotation error so that FEJ keeps yaw and position unobservable,
/// Li & Mourikis IJRR 2013 §III): R = Exp(δθ) R̂, p = p̂ + δp, v = v̂ + δv, b = b̂ + δb.
/// Order: IMU [δθ 0–2, δp 3–5, δv 6–8, δb_g 9–11, δb_a 12–14, then — when they are estimated —
/// the IMU's intrinsics (``IMUIntrinsics``): gyroscope scale δs_g 15–17 and misalignment δm_g
/// 18–20, accelerometer scale δs_a 21–23 and misalignment δm_a 24–26], the camera–IMU time offset
/// δt_d at ``timeOffsetColumn`` (15 or 27), the readout after it, then — when the extrinsics are
/// estimated — camera i's extrinsic error [δθ_e, δp_e] at ``calibrationColumn(_:)``
/// (R_body_cam = Exp(δθ_e) R̂_body_cam, p_body_cam = p̂ + δp_e), then — when the intrinsics are
/// estimated — camera i's intrinsic offset [δfx, δfy, δcx, δcy, δk1, δk2] at ``intrinsicColumn(_:)``
/// (``LensIntrinsics``), then clone k at ``cloneColumn(_:)`` [δθ, δp]. Calibration sits before the clones so that one feature update acts on one contiguous
/// range of columns (calibration and clones together).
///
/// The mean lives here; every edit of the covariance (propagation, cloning, marginalisation,
/// updates) goes through ``StateHelper``, as OpenVINS's `StateHelper` owns its covariance.
struct FilterState {
    /// Size of the IMU block of the error state without the IMU intrinsics (θ, p, v, b_g, b_a).
    static let baseIMUDimension = 15
    /// Offsets of the IMU error-state blocks.
    enum Block {
        static let rotation = 0, position = 3, velocity = 6, gyroBias = 9, accelBias = 12
        /// The IMU intrinsics' blocks (only when ``imuIntrinsicStates`` is 12).
        static let gyroScale = 15, gyroMisalignment = 18, accelScale = 21, accelMisalignment = 24
    }

    var timestamp: Double
    var rotation: Matrix3
    var position: Vector3
    var velocity: Vector3
    var biasGyro: Vector3
    var biasAccel: Vector3
    /// The IMU's scale and misalignment corrections (constant in propagation; corrected through
    /// their correlation with the pose, as the biases are).
    var imuIntrinsics = IMUIntrinsics()
    /// First estimates of position and velocity at `timestamp` (propagated values before the update),
    /// used by the next propagation's FEJ transition matrix.
    var positionFE: Vector3
    var velocityFE: Vector3
    /// Camera–IMU time offset estimate t_d (s): a frame stamped t_cam was exposed at t_cam + t_d on
    /// the IMU clock. Constant in propagation; corrected through its correlation with the clones
    /// (Li & Mourikis, IJRR 2014).
    var timeOffset: Double
    /// Rolling-shutter readout time t_r (s): row v of a frame is read ρ_v t_r after the frame time
    /// (``Observation/leftRowFraction``). Corrected through the feature updates' readout column
    /// (Li, Kim & Mourikis, ICRA 2013, estimate it in the filter the same way).
    var readout: Double
    /// The camera extrinsics: estimates for the first ``calibratedCameras`` cameras, fixed otherwise.
    var rig: CameraRig
    /// Cameras whose extrinsics are filter states (0: all fixed).
    let calibratedCameras: Int
    /// Cameras whose intrinsics are filter states (0: all fixed).
    let intrinsicCameras: Int
    /// Estimated intrinsic offsets θ − θ₀ per camera (lanes 0–5: fx, fy, cx, cy, k1, k2), for the
    /// first ``intrinsicCameras`` cameras.
    var intrinsicOffsets: [SIMD8<Double>]
    var clones: [Clone] = []
    /// Seconds, since the filter started, over which its velocity was held at zero by assumption
    /// (a still image's zero-velocity update, or the hand-held hold while turning in place) rather
    /// than measured, or had been so within the last ``TrackerConfiguration/heldSettleTime``. Each
    /// such update is a fresh measurement to the filter, but a hand's slow drift is the same error
    /// frame after frame, so across a held stretch, and until the tracks have measured the velocity
    /// again, the filter knows the motion less well than its covariance says (see
    /// ``EstimatorCore/motionDepthSigma(_:views:window:cloneIndex:state:heldDrift:)``).
    var heldTime: Double = 0
    /// Time of the last accepted velocity hold (nil before any).
    var lastHoldTime: Double?
    /// Row-major covariance, `dimension × dimension`. Written only by ``StateHelper``.
    var covariance: [Double]

    /// IMU intrinsic states: 12 when they are estimated (``IMUIntrinsics``), 0 otherwise, so a
    /// filter that takes the IMU as perfect carries no columns for it.
    let imuIntrinsicStates: Int
    /// Size of the IMU block: θ, p, v, b_g, b_a, and the IMU intrinsics when estimated.
    var imuDimension: Int { Self.baseIMUDimension + imuIntrinsicStates }
    /// 3×3 blocks in the IMU block.
    var imuBlocks: Int { imuDimension / 3 }
    /// Column of the camera–IMU time offset (Kalibr's `timeshift_cam_imu`: t_imu = t_cam + t_d).
    var timeOffsetColumn: Int { imuDimension }
    /// Column of the rolling-shutter readout time t_r (top row to bottom, s; zero variance when it
    /// is fixed: a global shutter, a stated `line_delay`, or none estimated yet).
    var readoutColumn: Int { imuDimension + 1 }
    /// Column of camera 0's extrinsic block (when estimated).
    var calibrationStart: Int { imuDimension + 2 }
    /// First column of a feature update's range: the readout, the calibration blocks, the clones.
    var updateStart: Int { readoutColumn }

    /// Six-column calibration blocks before the clones: extrinsics, then intrinsics.
    var calibrationBlocks: Int { calibratedCameras + intrinsicCameras }
    /// Error-state entries before the first clone.
    var clonesStart: Int { calibrationStart + 6 * calibrationBlocks }
    var dimension: Int { clonesStart + 6 * clones.count }

    /// A state at `s` with a diagonal covariance of the 15 IMU error-state standard deviations, the
    /// time offset `timeOffset` with σ `timeOffsetSigma` (0 keeps it fixed), the readout `readout`
    /// with σ `readoutSigma` (0 keeps it fixed), and `rig`'s extrinsics,
    /// estimated with σ `extrinsicSigmas` (rotation rad, translation m) per camera when given, and
    /// the intrinsic offsets `intrinsicOffsets` (one per camera, or empty) with σ `intrinsicSigmas`
    /// (six values: fx, fy, cx, cy, k1, k2) when given. The IMU's corrections `imuIntrinsics` are
    /// states when `imuIntrinsicSigmas` holds their twelve σ (``TrackerConfiguration/IMUIntrinsicsEstimation``'s
    /// order) with any of them positive, and fixed otherwise.
    init(navigation s: NavigationState, uncertainty: TrackerConfiguration.InitialUncertainty, timeOffset: Double = 0,
         timeOffsetSigma: Double = 0, readout: Double = 0, readoutSigma: Double = 0, rig: CameraRig = .identity,
         extrinsicSigmas: (rotation: Double, translation: Double)? = nil,
         intrinsicOffsets: [SIMD8<Double>] = [], intrinsicSigmas: [Double]? = nil,
         imuIntrinsics: IMUIntrinsics = .init(), imuIntrinsicSigmas: [Double] = []) {
        timestamp = s.timestamp
        rotation = s.T_world_body.rotationMatrix
        position = s.T_world_body.translation
        velocity = s.velocity
        biasGyro = s.biasGyro
        biasAccel = s.biasAccel
        self.imuIntrinsics = imuIntrinsics
        positionFE = position
        velocityFE = velocity
        self.timeOffset = timeOffset
        self.readout = readout
        self.rig = rig
        calibratedCameras = extrinsicSigmas == nil ? 0 : rig.cameraCount
        intrinsicCameras = intrinsicSigmas?.count == LensIntrinsics.dimension ? rig.cameraCount : 0
        self.intrinsicOffsets = (0..<intrinsicCameras).map { $0 < intrinsicOffsets.count ? intrinsicOffsets[$0] : .zero }
        let imuSigmas = imuIntrinsicSigmas.count == 12 && imuIntrinsicSigmas.contains(where: { $0 > 0 }) ? imuIntrinsicSigmas : []
        imuIntrinsicStates = imuSigmas.count
        var sigmas = uncertainty.standardDeviations + imuSigmas + [timeOffsetSigma, readoutSigma]
        if let e = extrinsicSigmas {
            for _ in 0..<calibratedCameras {
                sigmas += [e.rotation, e.rotation, e.rotation, e.translation, e.translation, e.translation]
            }
        }
        if let e = intrinsicSigmas, intrinsicCameras > 0 {
            for _ in 0..<intrinsicCameras { sigmas += e }
        }
        let n = sigmas.count
        covariance = [Double](repeating: 0, count: n * n)
        for i in 0..<n { covariance[i * n + i] = sigmas[i] * sigmas[i] }
    }

    var navigation: NavigationState {
        NavigationState(timestamp: timestamp, T_world_body: RigidTransform(rotationMatrix: rotation, translation: position),
                        velocity: velocity, biasGyro: biasGyro, biasAccel: biasAccel)
    }

    /// Covariance element.
    func cov(_ i: Int, _ j: Int) -> Double { covariance[i * dimension + j] }

    /// Column of clone `k`'s first error-state entry.
    func cloneColumn(_ k: Int) -> Int { clonesStart + 6 * k }

    /// Covariance (m²) of clone `b`'s position minus clone `a`'s: how well the filter knows the
    /// translation between two views of its window, `Σ_bb + Σ_aa − Σ_ab − Σ_ba` of the position blocks.
    func relativePositionCovariance(_ a: Int, _ b: Int) -> Matrix3 {
        let pa = cloneColumn(a) + 3, pb = cloneColumn(b) + 3
        var m = [Double](repeating: 0, count: 9)
        for i in 0..<3 {
            for j in 0..<3 {
                m[3 * i + j] = cov(pb + i, pb + j) + cov(pa + i, pa + j) - cov(pa + i, pb + j) - cov(pb + i, pa + j)
            }
        }
        return Matrix3(rowMajor: m)
    }

    /// Column of camera `i`'s extrinsic block (only for `i < calibratedCameras`).
    func calibrationColumn(_ i: Int) -> Int { calibrationStart + 6 * i }

    /// Column of camera `i`'s intrinsic block (only for `i < intrinsicCameras`).
    func intrinsicColumn(_ i: Int) -> Int { calibrationStart + 6 * (calibratedCameras + i) }

    /// Applies an error-state correction `dx` (length `dimension`) to the mean.
    mutating func inject(_ dx: [Double]) {
        func v3(_ o: Int) -> Vector3 { Vector3(dx[o], dx[o + 1], dx[o + 2]) }
        rotation = SO3.orthonormalize(SO3.exp(v3(Block.rotation)) * rotation)
        position += v3(Block.position)
        velocity += v3(Block.velocity)
        biasGyro += v3(Block.gyroBias)
        biasAccel += v3(Block.accelBias)
        if imuIntrinsicStates > 0 {
            imuIntrinsics.gyroScale += v3(Block.gyroScale)
            imuIntrinsics.gyroMisalignment += v3(Block.gyroMisalignment)
            imuIntrinsics.accelScale += v3(Block.accelScale)
            imuIntrinsics.accelMisalignment += v3(Block.accelMisalignment)
        }
        timeOffset += dx[timeOffsetColumn]
        readout += dx[readoutColumn]
        for i in 0..<calibratedCameras {
            let o = calibrationColumn(i), (r, p) = rig.extrinsics(i)
            rig.setExtrinsics(i, rotation: SO3.orthonormalize(SO3.exp(v3(o)) * r), position: p + v3(o + 3))
        }
        for i in 0..<intrinsicCameras {
            let o = intrinsicColumn(i)
            for a in 0..<LensIntrinsics.dimension { intrinsicOffsets[i][a] += dx[o + a] }
        }
        for k in 0..<clones.count {
            let o = cloneColumn(k)
            clones[k].rotation = SO3.orthonormalize(SO3.exp(v3(o)) * clones[k].rotation)
            clones[k].position += v3(o + 3)
        }
    }

    /// True when every number in the state is finite and the covariance diagonal is positive.
    var isHealthy: Bool {
        guard position.isFinite, velocity.isFinite, biasGyro.isFinite, biasAccel.isFinite else { return false }
        let n = dimension
        for i in 0..<n where !covariance[i * n + i].isFinite || !(covariance[i * n + i] > 0) {
            // A fixed time offset or readout, or an IMU intrinsic given no prior, has zero
            // variance; anything else must be positive.
            let mayBeFixed = i == timeOffsetColumn || i == readoutColumn || (Block.gyroScale..<imuDimension).contains(i)
            if mayBeFixed && covariance[i * n + i] == 0 { continue }
            return false
        }
        return true
    }

    /// T_g of ``IMUIntrinsics``: the body rate is ω = T_g (ω̃ − b_g).
    var gyroCorrection: Matrix3 { imuIntrinsics.gyroCorrection }

    /// The body rate for gyroscope reading `gyro`: T_g (ω̃ − b_g).
    func bodyRate(gyro: Vector3) -> Vector3 { gyroCorrection * (gyro - biasGyro) }

    /// True when the IMU intrinsics are filter states.
    var estimatesIMUIntrinsics: Bool { imuIntrinsicStates > 0 }

    /// Largest position standard deviation (m).
    var positionSigma: Double { largestSigma(from: Block.position) }

    /// Largest velocity standard deviation (m/s).
    var velocitySigma: Double { largestSigma(from: Block.velocity) }

    /// Covariance (xx, xy, yy) of the world x and y rotation errors: the tilt.
    var tiltCovariance: SIMD3<Double> {
        let n = dimension, x = Block.rotation
        return SIMD3(covariance[x * n + x], covariance[x * n + x + 1], covariance[(x + 1) * n + x + 1])
    }

    /// Largest accelerometer-bias standard deviation (m/s²).
    var accelBiasSigma: Double { largestSigma(from: Block.accelBias) }

    /// Largest standard deviation of the three error-state entries from column `start`.
    private func largestSigma(from start: Int) -> Double {
        let n = dimension
        return (start..<(start + 3)).map { covariance[$0 * n + $0] }.max().map { $0.squareRoot() } ?? .infinity
    }
}
