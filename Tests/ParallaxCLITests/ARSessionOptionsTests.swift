import ArgumentParser
import ParallaxARView
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
}
