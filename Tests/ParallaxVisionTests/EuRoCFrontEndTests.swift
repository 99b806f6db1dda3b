import Foundation
import ParallaxDatasets
import ParallaxMath
import Testing
@testable import ParallaxVision

/// Where the real EuRoC V1_01 snippet lives: `../shared` beside the repository.
let eurocSnippetURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/datasets/euroc-v101-micro")

/// Whether the snippet is present; tests that read it are skipped (and reported as skipped) without it.
let eurocSnippetPresent = FileManager.default.fileExists(atPath: eurocSnippetURL.appendingPathComponent("mav0").path)

extension Trait where Self == ConditionTrait {
    /// Runs a test only when the EuRoC snippet is present; otherwise it is reported as skipped, with the reason.
    static var needsEuRoCSnippet: Self {
        .enabled(if: eurocSnippetPresent, "needs ../shared/datasets/euroc-v101-micro beside the repository")
    }
}

/// The real EuRoC V1_01 snippet (95 stereo frames, drone at rest).
func eurocSnippet() throws -> EuRoCDataset { try EuRoCDataset(url: eurocSnippetURL) }

/// Runs the stereo tracker with gyro-predicted rotations over `count` frames.
func runSnippet(_ ds: EuRoCDataset, count: Int = .max) throws -> [FeatureFrame] {
    try runSnippetTracker(ds, count: count).frames
}

/// Runs the stereo tracker with gyro-predicted rotations over `count` frames; returns the frames and
/// the tracker as it ends.
func runSnippetTracker(_ ds: EuRoCDataset, count: Int = .max) throws -> (frames: [FeatureFrame], tracker: FeatureTracker) {
    let left = Array(try ds.cameraFrames(0).prefix(count))
    let right = Dictionary(try ds.cameraFrames(1).map { ($0.timestampNs, $0) }, uniquingKeysWith: { a, _ in a })
    let imu = try ds.imuSamples()
    let R_B_C = ds.cameras[0].T_body_camera.rotationMatrix
    let bias = GyroIntegration.staticBias(imu: imu, seconds: 1)
    var tracker = try ds.makeFeatureTracker()
    var frames: [FeatureFrame] = []
    var prev: Int64?
    for f in left {
        let r = try #require(right[f.timestampNs])
        let R = prev.flatMap { GyroIntegration.cameraRotation(imu: imu, from: $0, to: f.timestampNs, R_B_C: R_B_C,
                                                             gyroscopeBias: bias) }
        frames.append(try tracker.process(image: f.loadGray8(), timestamp: f.timestamp,
                                          rightImage: r.loadGray8(), predictedRotation: R))
        prev = f.timestampNs
    }
    return (frames, tracker)
}

@Test(.needsEuRoCSnippet)
func calibrationBridgeBuildsEuRoCModel() throws {
    let ds = try eurocSnippet()
    let cam = try #require(try ds.cameras[0].makeCameraModel() as? PinholeRadTanCamera)
    #expect(cam == eurocCam0)
}

@Test(.needsEuRoCSnippet)
func tracksTheRealSnippetWithStableIdsAndStereo() throws {
    let ds = try eurocSnippet()
    let (frames, tracker) = try runSnippetTracker(ds)
    #expect(frames.count == 95)
    let first = frames[0]
    print("EuRoC: first frame \(first.features.count) features")
    // Enough well-spread features in every frame.
    for f in frames { #expect(f.features.count >= 100, "frame \(f.timestamp): \(f.features.count)") }

    // Survival of first-frame ids to the last frame. The drone sits on the ground with its
    // motors spinning up: ground truth shows a 0.1–0.17° attitude wobble (≈ 1–1.5 px at
    // f = 458 px), so tracks legitimately move by up to ~2 px; "at rest" is not "static".
    let firstById = Dictionary(uniqueKeysWithValues: first.features.map { ($0.id, $0.pixel) })
    let last = frames[frames.count - 1]
    var ids: [Int] = [], p0s: [Vector2] = [], chained: [Vector2] = []
    for f in last.features {
        if let p0 = firstById[f.id] {
            ids.append(f.id)
            p0s.append(p0)
            chained.append(f.pixel)
            #expect(f.trackLength == 95)
        }
    }
    let survival = Double(ids.count) / Double(first.features.count)
    let drifts = zip(chained, p0s).map { ($0 - $1).norm }.sorted()
    print("EuRoC: \(ids.count)/\(first.features.count) first-frame features survive 95 frames;"
          + " motion since frame 0: median \(drifts[drifts.count / 2]) px, max \(drifts.last ?? 0) px")
    #expect(survival >= 0.8)
    // The few larger motions (measured up to 5.3 px) are all on the floor at the bottom
    // edge (y > 430 px), metres closer than the rest: the 2–3 mm lift in ground truth
    // moves them downwards, as parallax predicts. Everything else stays within 2.5 px.
    #expect(drifts[drifts.count / 2] < 2.0)
    for (c, p) in zip(chained, p0s) where p.y < 400 { #expect((c - p).norm < 2.5, "at \(p)") }
    // Accumulated tracking drift: the 94 chained frame-to-frame tracks must agree with a
    // direct frame-0 → frame-94 KLT of the same points (no accumulation there).
    let left = try ds.cameraFrames(0)
    let pyr0 = ImagePyramid(base: try FloatPlane(left[0].loadGray8()), levelCount: 3)
    let pyrN = ImagePyramid(base: try FloatPlane(left[94].loadGray8()), levelCount: 3)
    let direct = LucasKanadeTracker().trackChecked(from: pyr0, to: pyrN, points: p0s, guesses: chained)
    var gaps: [Double] = []
    for (c, d) in zip(chained, direct) { if let d { gaps.append((c - d).norm) } }
    gaps.sort()
    let meanGap = gaps.reduce(0, +) / Double(max(gaps.count, 1))
    print("EuRoC: chained vs direct KLT after 94 frames: mean \(meanGap) px, p90 \(gaps[gaps.count * 9 / 10]) px")
    #expect(gaps.count >= ids.count * 9 / 10)
    #expect(meanGap < 0.25)
    #expect(gaps[gaps.count * 9 / 10] < 0.5)

    // Ids are unique per frame and increasing.
    for f in frames { #expect(f.features.map(\.id) == f.features.map(\.id).sorted() && Set(f.features.map(\.id)).count == f.features.count) }

    // Stereo: most features matched, on their epipolar lines and in front. The lines are those the
    // matcher refines from its own matches (StereoEpipolarRefinement); EuRoC's calibration is good,
    // so they stay within a fraction of a pixel of the written ones.
    let stereo = try #require(tracker.stereo)
    #expect(stereo.refinement?.updates == 95)
    var written = stereo
    written.refinement = nil
    var epi: [Double] = [], moved: [Double] = []
    var matched = 0, total = 0
    for f in frames {
        for feat in f.features {
            total += 1
            guard let rn = feat.rightNormalized else { continue }
            matched += 1
            let refined = stereo.epipolarError(leftNormalized: feat.normalized, rightNormalized: rn)
            epi.append(refined)
            moved.append(abs(refined - written.epipolarError(leftNormalized: feat.normalized, rightNormalized: rn)))
        }
    }
    let epiSorted = epi.sorted()
    let meanMove = moved.reduce(0, +) / Double(max(moved.count, 1))
    print("EuRoC: stereo matched \(matched)/\(total); epipolar median \(epiSorted[epiSorted.count / 2]) px, "
          + "max \(epiSorted.last ?? 0) px; refined lines \(meanMove) px (mean) from the written ones")
    // Measured 64 % (70 % before the matcher's multi-start agreement check): the rest are border
    // features outside cam1's view, occlusions, matches rejected by the forward–backward test and
    // first matches whose starts from other depths converge elsewhere.
    #expect(Double(matched) >= 0.6 * Double(total))
    // Each match passed 1 px against the lines of its own frame; the final lines moved a little
    // since (measured: 24 matches of 9137 over 1 px, at most 1.05 px; lines 0.11 px from the
    // written on average).
    #expect(epi.filter { $0 > 1.0 }.count * 200 <= epi.count)
    #expect((epiSorted.last ?? .infinity) < 1.5)
    #expect(meanMove < 0.3)
}

@Test(.needsEuRoCSnippet)
func ransacRejectsInjectedOutliersOnRealTracks() throws {
    let ds = try eurocSnippet()
    let frames = try runSnippet(ds, count: 2)
    let a = Dictionary(uniqueKeysWithValues: frames[0].features.map { ($0.id, $0) })
    var x1: [Vector2] = [], x2: [Vector2] = [], bad: [Bool] = []
    var rng = SplitMix64(seed: 11)
    let cam = try ds.cameras[0].makeCameraModel()
    for f in frames[1].features {
        guard let p = a[f.id] else { continue }
        let corrupt = x1.count % 8 == 3
        var uv = f.pixel
        if corrupt {
            let ang = Double.random(in: 0..<(2 * .pi), using: &rng)
            uv += Vector2(cos(ang), sin(ang)) * Double.random(in: 5...25, using: &rng)
        }
        x1.append(p.normalized)
        x2.append(cam.undistort(uv))
        bad.append(corrupt)
    }
    #expect(x1.count >= 100)
    let imu = try ds.imuSamples()
    let R = GyroIntegration.cameraRotation(imu: imu, from: Int64((frames[0].timestamp * 1e9).rounded()),
                                           to: Int64((frames[1].timestamp * 1e9).rounded()),
                                           R_B_C: ds.cameras[0].T_body_camera.rotationMatrix,
                                           gyroscopeBias: GyroIntegration.staticBias(imu: imu, seconds: 1))
    for rotation in [R, nil] {
        let keep = EpipolarRansac(focalLength: 458).inliers(previous: x1, current: x2, rotation: rotation)
        var keptGood = 0, good = 0
        for i in 0..<keep.count {
            if bad[i] { #expect(!keep[i]) } else { good += 1; if keep[i] { keptGood += 1 } }
        }
        #expect(Double(keptGood) >= 0.95 * Double(good))
    }
}

@Test(.needsEuRoCSnippet)
func frontEndIsDeterministic() throws {
    let ds = try eurocSnippet()
    let a = try runSnippet(ds, count: 12), b = try runSnippet(ds, count: 12)
    #expect(a.map(\.features) == b.map(\.features))
}
