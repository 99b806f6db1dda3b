import Foundation
import ParallaxDatasets
import ParallaxEvaluation
import ParallaxSimulation
import ParallaxTracking
import Testing

/// Mono tracking of a hand-held device: simulated 30 s along TUM-VI hand-held trajectories (they
/// start with tremor — small rotations, almost no translation — then turn at up to ~200 °/s)
/// through `Scenes/room.json`, EuRoC's cam0 and IMU noise, seed 1. Before the turning-in-place
/// hold these collapsed: the velocity drifted while no track could triangulate, then resets
/// (room3: 0.67 m ATE, 81 % normal).
///
/// Floors: ATE posyaw ≤ 5 cm, first pose within 1 s, ≥ 95 % `normal` after the first second.
@Suite("Hand-held mono accuracy", .serialized)
struct HandheldAccuracyTests {
    static let trajectories = ["tumvi_room2", "tumvi_room3"]

    @Test("ATE, first pose and normal share within the floors", .needsSharedTrajectories, arguments: trajectories)
    func handheld(trajectory: String) throws {
        try Self.check(trajectory: trajectory, profile: .ideal, floor: 0.05)
    }

    /// The phone profile (20 ms rolling shutter, 5 ms exposure, 10 ms time offset, calibration error,
    /// auto-exposure; offset and line delay stated in `sensor.yaml`), 20 s of room3: ≤ 10 cm.
    ///
    /// This walk reset twice in its fast turns and ended at 12.9 cm (76 % normal) until frames waited
    /// for the IMU, the readout's translation entered the model and fast turns weighed less
    /// (``TrackerConfiguration/turnRateNoise``): 2.6 cm, 96.5 % normal. With up to 64 renders per
    /// frame (the simulator's rows no longer show doubled corners in fast turns): 1.6 cm, 100 % normal.
    /// Simulated with the reprojection shutter (2026-11-27, the simulator's default): 1.44 cm.
    @Test("Phone profile within 10 cm", .needsSharedTrajectories)
    func phone() throws {
        try Self.check(trajectory: "tumvi_room3", profile: .phone, floor: 0.10, duration: 20)
    }

    /// The same phone recording with `timeshift_cam_imu` and `line_delay` left out of `sensor.yaml`,
    /// as many phone datasets come: the tracker must find the 10 ms offset and the 20 ms readout
    /// itself. Before the readout was estimated (``ReadoutEstimator``) this walk ended at 1.05 m;
    /// then 5.4 cm (readout 16.1 ms); with the front-end's epipolar test widened for a rolling
    /// shutter, 3.1 cm, readout 17.4 ms; with an earlier first estimate, 2.3 cm, readout 18.1 ms,
    /// offset 9.79 ms; with the readout a filter state, 1.6 cm, readout 20.0 ms, offset 9.81 ms;
    /// simulated again with the reprojection shutter, 1.13 cm; with the readout solved at the start
    /// (stop 54), 0.73 cm, offset 9.99 ms. The readout bound (1.5 ms) is one the estimator alone
    /// did not meet.
    @Test("Phone profile with the timing left out of sensor.yaml within 10 cm", .needsSharedTrajectories)
    func phoneWithoutTiming() throws {
        let (folder, name) = try Self.phoneFixtureWithoutTiming()
        defer { try? FileManager.default.removeItem(at: folder) }
        let summary = try DatasetRunner(dataset: try EuRoCDataset(url: folder), configuration: TrackerConfiguration(mode: .mono)).run()
        let ate = try #require(try summary.evaluation()).report.ate.rmse
        let readout = try #require(summary.finalReadout)
        let offset = try #require(summary.finalTimeOffset)
        print(String(format: "%@ without timing: ATE posyaw %.4f m, readout %.1f ms (truth 20), offset %.2f ms (truth 10)",
                     name, ate, readout * 1e3, offset * 1e3))
        #expect(ate <= 0.10)
        #expect(abs(readout - 0.02) <= 0.0015)
        #expect(abs(offset - 0.01) <= 0.001)
    }

    /// The same recording started at 8 s, in the walk's quick turns, as a phone's session may start
    /// anywhere. The filter used to start with the rows uncorrected, since the readout was estimated
    /// only once the filter ran: 5.4 cm here (from 10 s, 2.4 m), and on eighteen hidden-timing phone
    /// sets started at 10 and 15 s, 13 of 36 starts ended beyond 5 cm (up to 2.2 m). Now the start
    /// window solves the readout with the offset and the gyro bias
    /// (``GyroBiasFromImages/solveTimeShift(frames:samples:noise:bias:maximumShift:priorSigma:lineDelayPriorSigma:)``):
    /// 0.87 cm here, 5 of those 36 starts beyond 5 cm (docs/tracking-design.md, "The readout at a
    /// start in motion"). From 10 s the start's solve then found the 10 ms offset at 8–15 σ, short
    /// of the 15 σ that applies it, and the start went ahead with the gyro bias and alignment of
    /// frames 10 ms off: 1.24 m. Now such a shift holds the start until it is settled
    /// (``TrackerConfiguration/TimeOffsetEstimation/startWaitSignificance``): 0.79 cm from 10 s,
    /// 1.87 cm from 8 s. From 12 s the timing the start solves is off (readout 9 ms for 20), every
    /// alignment misses its rays by more than 1.4 px, and the start used to go ahead blind at 1 s
    /// and diverge: 1.43 m. Now a moving start waits up to 2 s for an alignment
    /// (``TrackerConfiguration/movingStartTimeout``), which comes at 1.7 s: 1.45 cm. Asserts the
    /// phone profile's issue figure (3 cm).
    @Test("A phone start mid-walk with the timing left out of sensor.yaml", .needsSharedTrajectories,
          arguments: [8.0, 10.0, 12.0])
    func phoneMidWalkStartWithoutTiming(from: Double) throws {
        let (folder, name) = try Self.phoneFixtureWithoutTiming()
        defer { try? FileManager.default.removeItem(at: folder) }
        let summary = try DatasetRunner(dataset: try EuRoCDataset(url: folder), configuration: TrackerConfiguration(mode: .mono))
            .run(from: from)
        let ate = try #require(try summary.evaluation()).report.ate.rmse
        let readout = try #require(summary.finalReadout)
        print(String(format: "%@ without timing, from %.0f s: ATE posyaw %.4f m, readout %.1f ms (truth 20)", name, from, ate, readout * 1e3))
        #expect(ate <= 0.03)
        #expect(abs(readout - 0.02) <= 0.0015)
    }

    /// The phone fixture's camera stamps written 55 ms late, so that its true offset
    /// (`timeshift_cam_imu`, 10 ms) becomes −45 ms, beyond the start's first ±30 ms search
    /// (``TrackerConfiguration/TimeOffsetEstimation/startMaximumShift``). Started in the walk's
    /// quick turns, the start's search answered −27 ms, pinned near its edge, and the filter
    /// diverged: 3.5 m from 8 s, 1.4 m from 10 s. Now an answer near the edge (or a weak one) is
    /// searched again over ±60 ms (``TrackerConfiguration/TimeOffsetEstimation/startWideMaximumShift``):
    /// 0.59 cm from 8 s, 1.08 cm from 10 s, the offset −44.99 ms at the end.
    @Test("A phone start mid-walk with a −45 ms offset not stated", .needsSharedTrajectories)
    func phoneMidWalkStartWithLargeOffset() throws {
        let (folder, name) = try Self.phoneFixtureWithoutTiming(stampsLateBy: 0.055)
        defer { try? FileManager.default.removeItem(at: folder) }
        let summary = try DatasetRunner(dataset: try EuRoCDataset(url: folder), configuration: TrackerConfiguration(mode: .mono))
            .run(from: 8)
        let ate = try #require(try summary.evaluation()).report.ate.rmse
        let offset = try #require(summary.finalTimeOffset)
        print(String(format: "%@, stamps 55 ms late, from 8 s: ATE posyaw %.4f m, offset %.2f ms (truth −45)", name, ate, offset * 1e3))
        #expect(ate <= 0.03)
        #expect(abs(offset + 0.045) <= 0.001)
    }

    /// The phone fixture (room3, 20 s) in a temporary folder with `timeshift_cam_imu` and
    /// `line_delay` left out of `sensor.yaml` (the images, IMU and truth linked); the caller removes it.
    /// With `stampsLateBy` (s) the camera stamps in `data.csv` are moved that much later (the
    /// images keep their files), which takes as much off the true offset.
    static func phoneFixtureWithoutTiming(stampsLateBy late: Double = 0) throws -> (URL, String) {
        let (loaded, name) = try TrackingFixtures.simulated(trajectory: "tumvi_room3", stereo: false, duration: 20, profile: .phone)
        _ = try #require(loaded, "\(name)")
        let stated = TrackingFixtures.cache.appendingPathComponent(name)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-hidden-timing-\(UUID().uuidString)")
        let fm = FileManager.default
        try fm.createDirectory(at: folder.appendingPathComponent("mav0/cam0"), withIntermediateDirectories: true)
        for link in ["mav0/imu0", "mav0/state_groundtruth_estimate0", "mav0/cam0/data"] {
            try fm.createSymbolicLink(at: folder.appendingPathComponent(link), withDestinationURL: stated.appendingPathComponent(link))
        }
        let csv = try String(contentsOf: stated.appendingPathComponent("mav0/cam0/data.csv"), encoding: .utf8)
        let lateNs = Int64((late * 1e9).rounded())
        let moved = try csv.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            guard lateNs != 0, !line.hasPrefix("#"), let comma = line.firstIndex(of: ",") else { return String(line) }
            let stamp = try #require(Int64(line[..<comma]), "\(line)")
            return "\(stamp + lateNs)\(line[comma...])"
        }
        try moved.joined(separator: "\n").write(to: folder.appendingPathComponent("mav0/cam0/data.csv"), atomically: true, encoding: .utf8)
        let yaml = try String(contentsOf: stated.appendingPathComponent("mav0/cam0/sensor.yaml"), encoding: .utf8)
        try withoutTiming(yaml).write(to: folder.appendingPathComponent("mav0/cam0/sensor.yaml"), atomically: true, encoding: .utf8)
        return (folder, name)
    }

    /// Started late, inside the still first second: these starts reset before the low-parallax
    /// weighting (``TrackerConfiguration/lowParallaxReference``). Tracks seen over millimetres of
    /// tremor made the velocity overconfident, and the first quick motion reset the filter: room2
    /// from 0.15 s ended at 8.9 cm, room3 from 0.30 s at 16.2 cm. Now 1.5 and 0.9 cm.
    @Test("Late starts in the still first second do not reset", .needsSharedTrajectories,
          arguments: [("tumvi_room2", 0.15), ("tumvi_room3", 0.30)])
    func lateStart(trajectory: String, from: Double) throws {
        try Self.check(trajectory: trajectory, profile: .ideal, floor: 0.05, from: from)
    }

    /// Not a hand: EuRoC MH_03's drone is shaken and carried off at up to 0.9 m/s past points that
    /// are metres away, so for its first seconds the image moves as a pure rotation would. The
    /// turning-in-place hold took that for a hand and held the velocity at zero; the accelerometer
    /// went into the bias (0.8 m/s²) and the filter reset, again and again: 3.3 m, 60 % normal over
    /// these 8 s. Now a hold leaves biases that nothing has observed yet alone
    /// (``TrackerConfiguration/handheldHoldObservedBiasSigma``, a consider update): 1.9 cm.
    @Test("A drone carried off past far points is not held still", .needsSharedTrajectories)
    func shakenDroneStart() throws {
        try Self.check(trajectory: "euroc_MH_03_medium", profile: .ideal, floor: 0.05, duration: 8)
    }

    /// Mono started mid-flight: the visual–inertial alignment measures the drone's velocity, and a
    /// turning-in-place hold (points metres away move under a pixel a frame) must not zero it
    /// (``TrackerConfiguration/holdPauseAfterAlignment``). Along MH_01 from 150 s such a hold took
    /// the next 25 s to 36 cm (1.8 cm without it). This 30 s set from 4 s: 1.72 cm with the hold
    /// (checked with the pause set to 0), 0.54 cm without.
    @Test("A drone's aligned start velocity is not held at zero", .needsSharedTrajectories)
    func alignedStartNotHeld() throws {
        try Self.check(trajectory: "euroc_MH_01_easy", profile: .ideal, floor: 0.012, from: 4)
    }

    /// The phone profile with an EuRoC-size gyroscope turn-on bias: 0.13 rad/s (7°/s), where the other
    /// fixtures start at 0.003. The images are the phone fixture's; only the IMU is simulated again
    /// (the bias has a random stream of its own). Before the start window's images gave the bias
    /// (``GyroBiasFromImages``), the start in motion took it as zero: this walk ended at 31.8 cm with
    /// 85 % normal, and TUM-VI room2 at 1.19 m. Now 1.5 cm (room2: 1.1 cm).
    @Test("Phone profile with a large gyroscope bias within 10 cm", .needsSharedTrajectories)
    func phoneWithLargeGyroBias() throws {
        let (folder, name) = try Self.phoneFixtureWithLargeGyroBias()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.check(dataset: try EuRoCDataset(url: folder), name: "\(name) with a large gyro bias", floor: 0.10)
    }

    /// The phone fixture (room3, 20 s) in a temporary folder with its IMU simulated again from
    /// EuRoC-size turn-on biases (0.13 rad/s for the gyroscope) and, with `hidingTiming`, the
    /// timing left out of `sensor.yaml`; the caller removes the folder.
    static func phoneFixtureWithLargeGyroBias(hidingTiming: Bool = false) throws -> (URL, String) {
        let (loaded, name) = try TrackingFixtures.simulated(trajectory: "tumvi_room3", stereo: false, duration: 20, profile: .phone)
        _ = try #require(loaded, "\(name)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-gyro-bias-\(UUID().uuidString)")
        let bias = InitialBiasSpread(gyroscope: 0.05, accelerometer: 0.2)
        try TrackingFixtures.withRedrawnBias(of: name, trajectory: "tumvi_room3", duration: 20, profile: .phone,
                                             spread: bias, into: folder)
        #expect(bias.draw(seed: 1).gyroscope.norm > 0.1)
        if hidingTiming {
            let yamlURL = folder.appendingPathComponent("mav0/cam0/sensor.yaml")
            let yaml = try String(contentsOf: yamlURL, encoding: .utf8)
            try withoutTiming(yaml).write(to: yamlURL, atomically: true, encoding: .utf8)
        }
        return (folder, name)
    }

    /// A `sensor.yaml` text without its `timeshift_cam_imu` and `line_delay` lines.
    static func withoutTiming(_ yaml: String) -> String {
        let hidden = yaml.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("timeshift_cam_imu") && !$0.hasPrefix("line_delay") }.joined(separator: "\n")
        #expect(hidden != yaml, "sensor.yaml states no timing to hide")
        return hidden
    }

    /// The phone fixture with a 0.13 rad/s gyro bias (as "Phone profile with a large gyroscope
    /// bias") and its timing left out of `sensor.yaml`, started at 12 s in a quick turn. No frame
    /// pairs 0.3 s apart shared enough points in the first 0.65 s, so the images gave no bias and
    /// the start took it as zero; the filter diverged 0.8 s later (74.6 cm). Now the start waits for
    /// the images' bias (``TrackerConfiguration/startGyroBiasWaitSignificance``): 1.1 cm. Since the
    /// start also waits for its alignment's two answers to agree
    /// (``TrackerConfiguration/alignmentModelDisagreement``) it begins on another window: 2.5 cm.
    @Test("A phone start in a quick turn waits for the images' gyro bias", .needsSharedTrajectories)
    func phoneStartWaitsForGyroBias() throws {
        let (folder, name) = try Self.phoneFixtureWithLargeGyroBias(hidingTiming: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let summary = try DatasetRunner(dataset: try EuRoCDataset(url: folder), configuration: TrackerConfiguration(mode: .mono))
            .run(from: 12)
        let ate = try #require(try summary.evaluation()).report.ate.rmse
        print(String(format: "%@ with a large gyro bias, timing hidden, from 12 s: ATE posyaw %.4f m, first pose %.2f s",
                     name, ate, summary.initializationTime ?? -1))
        #expect(ate <= 0.03)
    }

    /// A phone start on EuRoC MH_01's vertical bounce (the drone shaken up and down at up to 0.7 m/s
    /// before take-off), seed 76 with EuRoC-size IMU turn-on biases. With the rolling shutter's 3 px
    /// epipolar test before the start, the visual–inertial alignment took in tracks that made it answer
    /// a forward 0.74 m/s for the vertical bounce and the filter reset at 5.95 s (the CLI's 8 s set of
    /// this seed: 21.5 cm); with 2 px before the start (``TrackerConfiguration/rollingShutterStartRansacThreshold``)
    /// 0.97 cm and no reset. Asserts the ATE floor of the phone profile's issue figure (3 cm) and that
    /// tracking never falls back to relocalizing.
    @Test("A phone start on a drone's vertical bounce does not reset", .needsSharedTrajectories)
    func phoneStartOnAVerticalBounce() throws {
        try Self.checkPhoneStartWithoutReset(trajectory: "euroc_MH_01_easy", duration: 8, seed: 76,
                                             biasSpread: InitialBiasSpread(gyroscope: 0.05, accelerometer: 0.2))
    }

    /// A phone carried through the Gore hall (seed 916, EuRoC-size IMU turn-on biases drawn: the
    /// accelerometer's 0.35 m/s²): the walker sets off at once, past points metres away, and the
    /// image motion looked steady, so at 1.4 s the start took a hand turning in place (at rest)
    /// while the alignment's two answers, refused for disagreeing on gravity, both said
    /// 0.5–1.1 m/s: 37.6 cm and a reset. Now such answers keep the start waiting for an alignment
    /// (``TrackerConfiguration/handheldStartMaximumAlignedSpeed``): 1.3 cm, first pose at 2 s, where
    /// the two answers agreed. Since a clearly better-fitting steady answer ends the wait
    /// (``TrackerConfiguration/steadyAnswerAttempts``), first pose at 1.1 s and 2.7 cm.
    /// Asserts the phone profile's issue figure (3 cm) and no relocalizing.
    @Test("A phone start in a walk past far points is not taken for a hand at rest", .needsSharedTrajectories)
    func phoneStartWalkingPastFarPoints() throws {
        try Self.checkPhoneStartWithoutReset(trajectory: "udel_gore", duration: 10, seed: 916,
                                             biasSpread: InitialBiasSpread(gyroscope: 0.02, accelerometer: 0.15))
    }

    /// Mono tracking of a phone-profile set from seed `seed` with IMU turn-on biases drawn with
    /// `biasSpread`: ATE posyaw within the phone profile's issue figure (3 cm), never relocalizing.
    static func checkPhoneStartWithoutReset(trajectory: String, duration: Double, seed: UInt64,
                                            biasSpread: InitialBiasSpread) throws {
        let (loaded, name) = try TrackingFixtures.simulated(trajectory: trajectory, duration: duration, profile: .phone,
                                                            seed: seed, biasSpread: biasSpread)
        let dataset = try #require(loaded, "\(name)")
        var resets = 0
        let summary = try DatasetRunner(dataset: dataset, configuration: TrackerConfiguration(mode: .mono)).run { r, _ in
            if case .limited(.relocalizing) = r.trackingState { resets += 1 }
        }
        let ate = try #require(try summary.evaluation()).report.ate.rmse
        print(String(format: "%@: ATE posyaw %.4f m, first pose %.2f s, %d relocalizing frames",
                     name, ate, summary.initializationTime ?? -1, resets))
        #expect(ate <= 0.03)
        #expect(resets == 0)
    }

    static func check(trajectory: String, profile: SensorProfile, floor: Double,
                      duration: Double = TrackingFixtures.simulatedDuration, from: Double? = nil) throws {
        let (loaded, name) = try TrackingFixtures.simulated(trajectory: trajectory, stereo: false, duration: duration,
                                                            profile: profile)
        let dataset = try #require(loaded, "\(name)")
        try check(dataset: dataset, name: name, floor: floor, from: from)
    }

    static func check(dataset: EuRoCDataset, name: String, floor: Double, from: Double? = nil) throws {
        var states: [(time: Double, normal: Bool)] = []
        let summary = try DatasetRunner(dataset: dataset, configuration: TrackerConfiguration(mode: .mono)).run(from: from) { r, _ in
            states.append((r.timestamp, r.trackingState == .normal))
        }
        let evaluation = try #require(try summary.evaluation())
        let ate = evaluation.report.ate.rmse
        let start = try #require(states.first?.time)
        let afterFirstSecond = states.filter { $0.time - start >= 1.0 }
        let normal = Double(afterFirstSecond.filter(\.normal).count) / Double(max(1, afterFirstSecond.count))
        print("\(name): ATE posyaw \(String(format: "%.4f", ate)) m, normal after 1 s \(String(format: "%.1f", 100 * normal)) %, "
              + "first pose \(summary.initializationTime.map { String(format: "%.2f", $0) } ?? "never") s")
        #expect(ate <= floor)
        #expect(summary.initializationTime.map { $0 <= 1.0 } == true)
        #expect(normal >= 0.95)
    }
}
