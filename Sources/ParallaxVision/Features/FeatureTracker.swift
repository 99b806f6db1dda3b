import ParallaxMath

/// Configuration of ``FeatureTracker``.
public struct FeatureTrackerConfiguration: Sendable, Equatable {
    /// Target number of features per frame.
    public var maxFeatures: Int = 150
    /// Pyramid depth built per image (KLT uses ``klt``'s `levels` of them).
    public var pyramidLevels: Int = 3
    /// Corner detector (grid, minimum distance, thresholds).
    public var detector = GridCornerDetector()
    /// Temporal and stereo KLT settings.
    public var klt = LucasKanadeTracker()
    /// Relative change of the image's mean brightness between two frames beyond which temporal KLT
    /// also compensates a brightness scale (``LucasKanadeTracker/compensatesGain``): an exposure or
    /// gain change. Below it the offset-only model keeps more of each patch's information (on
    /// simulated sets with constant exposure, compensating the scale always cost stereo 1–1.5 mm).
    public var gainChangeThreshold: Double = 0.02
    /// Smallest predicted departure of a feature's patch from a pure shift between two frames (the
    /// largest entry of `A − I`, ``PatchWarp``) for which temporal KLT warps its template
    /// (``LucasKanadeTracker``, "Known patch warp") in a stereo tracker; nil: never. The warp comes
    /// from the gyro's rotation and, for a feature with a triangulated point, the predicted
    /// translation at its depth (``TranslationPrediction``). Below 0.5 % a 15 × 15 window's edge
    /// moves by under 0.04 px. Measured 2026-11-27 on ten stereo sets (ATE posyaw sum 144.5 →
    /// 122.7 mm; docs/tracking-design.md).
    public var minimumPatchWarp: Double? = 0.005
    /// The same for a mono tracker (see ``monoWarpsOnlyFeaturesWithDepth``). Measured 2026-11-27 on
    /// 19 mono sets (docs/tracking-design.md): ATE sum 236.6 → 202.4 mm, 14 better, 1 worse.
    public var monoMinimumPatchWarp: Double? = 0.005
    /// A mono tracker warps only the templates of features with a triangulated point (rotation and
    /// translation); the others keep the plain window. Warping those by the rotation alone, as
    /// stereo does, gave 217.8 mm on the same 19 sets, with the shaken start through the hall
    /// (MH_03, 8 s) at 29.6 mm (12.4 plain, 21.6 this way) and a 3 s coast on the V1_01 flight
    /// ending 6.5 cm off (4.8 plain, 4.7 this way). In stereo nearly every feature has a point, and
    /// warping the rest by the rotation was better (ten sets 122.7 against 130.6 mm).
    public var monoWarpsOnlyFeaturesWithDepth = true
    /// Detection runs only when at least this many features (at most half of ``maxFeatures``) are
    /// missing, as OpenVINS's KLT front-end does (at least min(20, 50 %)); 0: whenever one is.
    ///
    /// Why: scoring the empty grid cells costs about 1 ms a frame at 752×480, and a frame that lost
    /// a handful of tracks gains little from it. Measured 2026-11-28 (docs/tracking-design.md): 13
    /// phone-profile walks 18.2 → 17.9 cm summed ATE, five other mono and stereo sets 5.20 → 5.15 cm.
    public var minimumMissingForDetection: Int = 20
    /// Temporal forward–backward threshold (pixels).
    public var maxForwardBackwardError: Double = 0.5
    /// RANSAC Sampson threshold (pixels).
    public var ransacThreshold: Double = 1.0
    /// RANSAC seed (results are deterministic for a given seed).
    public var ransacSeed: UInt64 = 0x5EED
    /// Nominal depth (metres) for stereo guesses of features with no right history.
    public var stereoNominalDepth: Double = 3
    /// Stereo epipolar threshold (pixels).
    public var stereoMaxEpipolarError: Double = 1.0

    /// Default configuration for 752×480 EuRoC-like images.
    public init() {}
}

/// The visual front-end: KLT feature tracks with stable ids, grid-spread Shi–Tomasi
/// detection, epipolar RANSAC (gyro-aided when a rotation is given) and optional stereo.
///
/// Per frame: build pyramids → track previous features with pyramidal KLT from the
/// rotation-predicted positions (forward–backward checked) → drop epipolar outliers →
/// top up with new corners in empty grid cells → match all features left→right.
/// Deterministic: the same images and inputs give identical ids and positions.
public struct FeatureTracker: Sendable {
    /// Left camera model (cam0).
    public let camera: any CameraModel
    /// Stereo matcher, when configured with a right camera.
    public private(set) var stereo: StereoMatcher?
    /// Settings.
    public let configuration: FeatureTrackerConfiguration

    /// Epipolar RANSAC threshold (pixels) in use: ``FeatureTrackerConfiguration/ransacThreshold``
    /// unless the owner widens it (a rolling-shutter camera: see `TrackerConfiguration`).
    public var epipolarThreshold: Double

    private var previousPyramid: ImagePyramid?
    /// Mean brightness of the previous frame (its coarsest pyramid level).
    private var previousBrightness: Double?
    private var features: [TrackedFeature] = []
    private var nextId = 0

    /// A monocular tracker.
    public init(camera: any CameraModel, configuration: FeatureTrackerConfiguration = .init()) {
        self.camera = camera
        self.stereo = nil
        self.configuration = configuration
        epipolarThreshold = configuration.ransacThreshold
    }

    /// A stereo tracker; `T_right_left` maps left-camera points into the right camera
    /// (EuRoC: `T_cam1_cam0 = T_B_cam1⁻¹ · T_B_cam0`).
    public init(camera: any CameraModel, rightCamera: any CameraModel, T_right_left: RigidTransform,
                configuration: FeatureTrackerConfiguration = .init()) {
        self.camera = camera
        self.configuration = configuration
        epipolarThreshold = configuration.ransacThreshold
        var klt = configuration.klt
        klt.levels = max(klt.levels, 3)
        self.stereo = StereoMatcher(left: camera, right: rightCamera, T_right_left: T_right_left,
                                    nominalDepth: configuration.stereoNominalDepth,
                                    maxEpipolarError: configuration.stereoMaxEpipolarError,
                                    maxForwardBackwardError: configuration.maxForwardBackwardError,
                                    tracker: klt)
    }

    /// The features of the last processed frame.
    public var currentFeatures: [TrackedFeature] { features }

    /// Forgets all tracks (e.g. after a tracking failure); the next frame detects afresh.
    /// Ids keep increasing, so an id is never reused for a different feature.
    public mutating func reset() {
        features = []
        previousPyramid = nil
        previousBrightness = nil
    }

    /// Processes one image (and its right partner for stereo).
    ///
    /// - Parameters:
    ///   - image: left image, 0…255 floats, size of ``camera``.
    ///   - timestamp: seconds.
    ///   - rightImage: right image for stereo trackers (ignored without a right camera).
    ///   - R_cur_prev: rotation from the previous to the current camera frame
    ///     (`p_cur = R_cur_prev · p_prev` for a pure rotation), e.g. integrated gyro. Used to
    ///     predict KLT start positions and by the 2-point RANSAC.
    ///   - translation: the camera's predicted translation and the depths it moves features by
    ///     (see ``TranslationPrediction``); with it, KLT starts where the feature should be after
    ///     the rotation and the translation, not the rotation alone.
    public mutating func process(image: FloatPlane, timestamp: Double, rightImage: FloatPlane? = nil,
                                 predictedRotation R_cur_prev: Matrix3? = nil,
                                 translation: TranslationPrediction? = nil) -> FeatureFrame {
        let clock = ContinuousClock()
        let start = clock.now
        var timings = FrontEndTimings()
        func ms(_ a: ContinuousClock.Instant, _ b: ContinuousClock.Instant) -> Double {
            let d = (b - a).components
            return Double(d.seconds) * 1e3 + Double(d.attoseconds) * 1e-15
        }

        var t0 = clock.now
        let pyramid = ImagePyramid(base: image, levelCount: configuration.pyramidLevels)
        let rightPyramid = (stereo != nil ? rightImage : nil).map {
            ImagePyramid(base: $0, levelCount: configuration.pyramidLevels)
        }
        var t1 = clock.now
        timings.pyramid = ms(t0, t1)

        // 1. Temporal tracking.
        var tracked: [TrackedFeature] = []
        var previousNormalized: [Vector2] = []
        var previousRight: [Vector2?] = []
        var previousLeft: [Vector2] = []
        let brightness = Self.meanBrightness(pyramid)
        if let prev = previousPyramid, !features.isEmpty {
            let points = features.map(\.pixel)
            var klt = configuration.klt
            if let before = previousBrightness, before > 0,
               abs(brightness / before - 1) > configuration.gainChangeThreshold {
                klt.compensatesGain = true
            }
            let shifts = translation?.shiftsStarts ?? false
            let guesses: [Vector2]? = R_cur_prev.map { R in
                features.map { f in
                    let bearing = Vector3(f.normalized.x, f.normalized.y, 1)
                    if shifts, let moved = translation?.predict(bearing, id: f.id, rotation: R), let uv = camera.project(moved) { return uv }
                    return camera.project(R * bearing) ?? f.pixel
                }
            }
            var warps: [PatchWarp?]?
            let minimumWarp = stereo != nil ? configuration.minimumPatchWarp : configuration.monoMinimumPatchWarp
            let depthOnly = stereo == nil && configuration.monoWarpsOnlyFeaturesWithDepth
            if let minimum = minimumWarp, minimum > 0, let R = R_cur_prev {
                let w = features.map { f -> PatchWarp? in
                    if depthOnly, translation?.depths[f.id] == nil { return nil }
                    guard let warp = patchWarp(f, rotation: R, translation: translation), warp.departure >= minimum,
                          warp.departure < 0.5 else { return nil }
                    return warp
                }
                if w.contains(where: { $0 != nil }) { warps = w }
            }
            let result = klt.trackChecked(
                from: prev, to: pyramid, points: points, guesses: guesses, warps: warps,
                maxForwardBackwardError: configuration.maxForwardBackwardError)
            for (f, r) in zip(features, result) {
                guard let r else { continue }
                var g = f
                g.pixel = r
                g.trackLength += 1
                tracked.append(g)
                previousNormalized.append(f.normalized)
                previousRight.append(f.rightPixel)
                previousLeft.append(f.pixel)
            }
        }
        t0 = clock.now
        timings.temporalTracking = ms(t1, t0)

        // 2. Undistortion and RANSAC.
        let trackedBeforeRansac = tracked.count
        for k in 0..<tracked.count { tracked[k].normalized = camera.undistort(tracked[k].pixel) }
        if !tracked.isEmpty {
            let ransac = EpipolarRansac(focalLength: 0.5 * (camera.fx + camera.fy),
                                        threshold: epipolarThreshold,
                                        seed: configuration.ransacSeed)
            let keep = ransac.inliers(previous: previousNormalized, current: tracked.map(\.normalized),
                                      rotation: R_cur_prev)
            var kept: [TrackedFeature] = [], keptRight: [Vector2?] = [], keptLeft: [Vector2] = []
            for k in 0..<tracked.count where keep[k] {
                kept.append(tracked[k])
                keptRight.append(previousRight[k])
                keptLeft.append(previousLeft[k])
            }
            tracked = kept
            previousRight = keptRight
            previousLeft = keptLeft
        }
        let rejected = trackedBeforeRansac - tracked.count
        t1 = clock.now
        timings.outlierRejection = ms(t0, t1)

        // 3. Detection in empty cells.
        var newCount = 0
        let maxFeatures = configuration.maxFeatures
        let missing = maxFeatures - tracked.count
        if missing > 0, missing >= min(configuration.minimumMissingForDetection, (maxFeatures + 1) / 2) {
            let corners = configuration.detector.detect(in: image, existing: tracked.map(\.pixel),
                                                        maxCount: missing)
            for c in corners {
                tracked.append(TrackedFeature(id: nextId, pixel: c.position,
                                              normalized: camera.undistort(c.position),
                                              rightPixel: nil, rightNormalized: nil, trackLength: 1))
                previousRight.append(nil)
                previousLeft.append(c.position)
                nextId += 1
                newCount += 1
            }
        }
        t0 = clock.now
        timings.detection = ms(t1, t0)

        // 4. Stereo.
        for k in 0..<tracked.count {
            tracked[k].rightPixel = nil
            tracked[k].rightNormalized = nil
        }
        if var matcher = stereo, let rightPyramid {
            // Previous right match moved by this feature's left motion, else nominal depth.
            let guesses: [Vector2?] = (0..<tracked.count).map { k in
                previousRight[k].map { $0 + (tracked[k].pixel - previousLeft[k]) }
            }
            let matches = matcher.match(left: pyramid, right: rightPyramid, points: tracked.map(\.pixel),
                                       leftNormalized: tracked.map(\.normalized), guesses: guesses)
            for k in 0..<tracked.count {
                if let m = matches[k] {
                    tracked[k].rightPixel = m.pixel
                    tracked[k].rightNormalized = m.normalized
                }
            }
            stereo = matcher
        }
        t1 = clock.now
        timings.stereo = ms(t0, t1)

        features = tracked
        previousPyramid = pyramid
        previousBrightness = brightness
        timings.total = ms(start, clock.now)
        return FeatureFrame(timestamp: timestamp, features: tracked, trackedBeforeRansac: trackedBeforeRansac,
                            rejectedByRansac: rejected, newFeatures: newCount, timings: timings)
    }

    /// The predicted local warp of feature `f`'s patch into the current image (``PatchWarp``): pixels
    /// one step right of and below it, carried through the rotation and, when its depth is known,
    /// the translation at that depth (the patch taken parallel to the image plane), then projected.
    /// Without a depth the rotation alone (a point at infinity). Nil where a neighbour does not project.
    func patchWarp(_ f: TrackedFeature, rotation R: Matrix3, translation: TranslationPrediction?) -> PatchWarp? {
        let depth = translation?.depths[f.id]
        func carried(_ normalized: Vector2) -> Vector2? {
            let bearing = Vector3(normalized.x, normalized.y, 1)
            if let depth, let t = translation?.t_cur_prev { return camera.project(R * (bearing * depth) + t) }
            return camera.project(R * bearing)
        }
        guard let q0 = carried(f.normalized),
              let qx = carried(camera.undistort(f.pixel + Vector2(1, 0))),
              let qy = carried(camera.undistort(f.pixel + Vector2(0, 1))) else { return nil }
        return PatchWarp(a11: qx.x - q0.x, a12: qy.x - q0.x, a21: qx.y - q0.y, a22: qy.y - q0.y)
    }

    /// Mean intensity of the coarsest pyramid level: a cheap measure of the frame's exposure.
    static func meanBrightness(_ pyramid: ImagePyramid) -> Double {
        guard let top = pyramid.levels.last, !top.pixels.isEmpty else { return 0 }
        return Double(top.pixels.reduce(0, +)) / Double(top.pixels.count)
    }
}

/// The camera's predicted translation between two frames, for KLT start positions.
///
/// Why: the gyro predicts how features move under the rotation, but a camera moving quickly close
/// to a surface also shifts them by `f·|t|/depth` — 40–50 px a frame for 1.5 m/s at 1.5 m and
/// 10 Hz. On a repetitive texture (bricks, tiles) KLT started that far off locks onto the
/// neighbouring period; every track is then wrong, the filter rejects them all and resets a good
/// estimate. Moving each start by the predicted translation at the feature's depth keeps KLT in
/// its basin (the pyramid absorbs what the prediction misses).
public struct TranslationPrediction: Sendable {
    /// `p_cur = R_cur_prev · p_prev + t_cur_prev` (previous → current camera, metres).
    public var t_cur_prev: Vector3
    /// Depth (metres, previous camera) of the features whose 3-D position is known, by id.
    public var depths: [Int: Double]
    /// The median of ``depths`` (nil when there are none): the size of the typical shift, for
    /// deciding whether the prediction is worth using. Features with no depth of their own are not
    /// moved by it: guessing one (this median was tried) put far features' starts many pixels off
    /// in scenes of mixed depth — MH_01 stereo at 10 Hz 1.84 → 2.77 cm — where the rotation alone
    /// starts them right.
    public let typicalDepth: Double?
    /// Whether KLT starts from the translated positions; when false the prediction only shapes each
    /// feature's patch warp (``FeatureTrackerConfiguration/minimumPatchWarp``) and the starts come
    /// from the rotation alone.
    public var shiftsStarts: Bool

    /// A prediction; `depths` must be positive and finite (others are dropped).
    public init(t_cur_prev: Vector3, depths: [Int: Double], shiftsStarts: Bool = true) {
        self.t_cur_prev = t_cur_prev
        self.shiftsStarts = shiftsStarts
        self.depths = depths.filter { $0.value.isFinite && $0.value > 0 }
        let sorted = self.depths.values.sorted()
        typicalDepth = sorted.isEmpty ? nil : sorted[sorted.count / 2]
    }

    /// The feature with (normalised, z = 1) bearing `bearing` in the previous camera, moved into the
    /// current one; nil when its depth is unknown or it would land behind the camera.
    public func predict(_ bearing: Vector3, id: Int, rotation R_cur_prev: Matrix3) -> Vector3? {
        guard let depth = depths[id] else { return nil }
        let p = R_cur_prev * (bearing * depth) + t_cur_prev
        return p.z > 0.05 ? p : nil
    }
}
