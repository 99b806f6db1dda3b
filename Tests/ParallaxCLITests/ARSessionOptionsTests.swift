import ArgumentParser
import ParallaxARView
import ParallaxTracking
import Testing
@testable import ParallaxCLI

/// The AR session's command-line options added for long runs: `bench ar-session`, `--debug`,
/// `--anchor-snapshot-every` and the camera choice of `evaluate planes` and `hittest`.
@Suite("AR session options")
struct ARSessionOptionsTests {
    @Test("bench ar-session: defaults and checks")
    func benchARSession() throws {
        let c = try Parsing.command(["bench", "ar-session"], as: BenchARSessionCommand.self)
        #expect(c.duration == 600 && c.window == 60 && c.dataset == nil && !c.stereo)
        let d = try Parsing.command(["bench", "ar-session", "--duration", "180", "--window", "30"], as: BenchARSessionCommand.self)
        #expect(d.duration == 180 && d.window == 30)
        #expect(Parsing.failure(["bench", "ar-session", "--duration", "0"]) != nil)
        #expect(Parsing.failure(["bench", "ar-session", "--window", "nan"]) != nil)
    }

    @Test("replay: --debug overlays need --render; --anchor-snapshot-every is positive")
    func debugAndSnapshots() throws {
        let c = try Parsing.command(["replay", "ds", "--render", "out", "--debug", "planes,features,origin,anchors",
                                     "--anchor-snapshot-every", "100"], as: ReplayCommand.self)
        #expect(c.ar.debug?.options == [.showPlanes, .showFeaturePoints, .showWorldOrigin, .showAnchorOrigins])
        #expect(c.ar.anchorSnapshotEvery == 100)
        let noRender = try #require(Parsing.failure(["replay", "ds", "--debug", "planes"]))
        #expect(noRender.message.contains("--render"), "\(noRender.message)")
        #expect(Parsing.failure(["replay", "ds", "--render", "out", "--debug", "planes,grid"]) != nil)
        #expect(Parsing.failure(["replay", "ds", "--planes", "--anchor-snapshot-every", "0"]) != nil)
    }

    @Test("evaluate planes and hittest take --mono/--stereo")
    func cameraChoice() throws {
        let planes = try Parsing.command(["evaluate", "planes", "ds", "--mono"], as: EvaluatePlanesCommand.self)
        #expect(planes.cameras.cameras == .mono)
        let hit = try Parsing.command(["hittest", "ds", "--time", "1", "--point", "0.5,0.5", "--stereo"], as: HitTestCommand.self)
        #expect(hit.cameras.cameras == .stereo)
    }

    /// `default,imu` adds the IMU's intrinsics to the three parts on by default; `replay` and
    /// `evaluate planes` read the same option.
    @Test("--online-calibration default,imu turns the IMU intrinsics on and keeps the defaults")
    func onlineIMUCalibration() throws {
        for arguments in [["replay", "ds", "--online-calibration", "default,imu"],
                          ["evaluate", "planes", "ds", "--online-calibration", "default,imu"]] {
            let options: OnlineCalibrationOptions
            if arguments[0] == "replay" {
                options = try Parsing.command(arguments, as: ReplayCommand.self).calibration
            } else {
                options = try Parsing.command(arguments, as: EvaluatePlanesCommand.self).calibration
            }
            var configuration = TrackerConfiguration(mode: .mono)
            #expect(!configuration.imuIntrinsics.isEstimated(in: .mono))
            try options.apply(to: &configuration)
            #expect(configuration.imuIntrinsics.isEstimated(in: .mono) && configuration.intrinsics.isEstimated(in: .mono))
            #expect(configuration.extrinsics.isEstimated(in: .stereo) && configuration.timeOffset.estimate)
        }
        var imuOnly = TrackerConfiguration(mode: .stereo)
        try Parsing.command(["replay", "ds", "--online-calibration", "imu"], as: ReplayCommand.self).calibration.apply(to: &imuOnly)
        #expect(imuOnly.imuIntrinsics.isEstimated(in: .stereo) && !imuOnly.intrinsics.isEstimated(in: .stereo))
        let wrong = try Parsing.command(["evaluate", "planes", "ds", "--online-calibration", "imu,gyro"], as: EvaluatePlanesCommand.self)
        var unchanged = TrackerConfiguration(mode: .mono)
        #expect(throws: ValidationError.self) { try wrong.calibration.apply(to: &unchanged) }
    }
}
