import Foundation
import ParallaxImaging
import Testing

/// End-to-end checks of the `parallax` command: what a user types, what comes back, exit codes.
@Suite("parallax command line")
struct CLITests {
    @Test("info describes the real EuRoC snippet")
    func infoOnSnippet() throws {
        guard let shared = CommandRunner.sharedFolder else {
            print("skipped: ../shared not found beside the repository"); return
        }
        let dataset = shared.appendingPathComponent("datasets/euroc-v101-micro").path
        let text = try CommandRunner.run(["info", dataset])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("cam0: 752x480"))
        #expect(text.stdout.contains("imu0: 200.0 Hz"))
        let json = try CommandRunner.run(["info", dataset, "--json"])
        #expect(json.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8))
        #expect(object is [String: Any])
    }

    @Test("info on a missing folder fails and names it")
    func infoMissingFolder() throws {
        let result = try CommandRunner.run(["info", "/nonexistent/parallax-dataset"])
        #expect(result.status != 0)
        #expect((result.stderr + result.stdout).contains("/nonexistent/parallax-dataset"))
    }

    @Test("evaluate-frontend reports reprojection errors on the snippet and rejects a bad window")
    func evaluateFrontEnd() throws {
        guard let shared = CommandRunner.sharedFolder else {
            print("skipped: ../shared not found beside the repository"); return
        }
        let dataset = shared.appendingPathComponent("datasets/euroc-v101-micro").path
        let result = try CommandRunner.run(["evaluate-frontend", dataset, "--stereo", "--to", "1"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("mode stereo, window 11 frames"))
        #expect(result.stdout.contains("windows "))
        let bad = try CommandRunner.run(["evaluate-frontend", dataset, "--window", "1"])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("--window"), "\(bad.stderr)")
    }

    @Test("evaluate prints ATE as JSON for the evo fixture pair")
    func evaluateJSON() throws {
        let fixtures = "Tests/ParallaxEvaluationTests/Fixtures/evo/"
        let result = try CommandRunner.run(["evaluate", fixtures + "est_V1_01.txt", fixtures + "gt_V1_01.txt",
                                            "--align", "se3", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object.keys.contains { $0.lowercased().contains("ate") })
    }

    @Test("evaluate rejects a malformed trajectory with file and line")
    func evaluateMalformed() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bad = folder.appendingPathComponent("bad.txt")
        try "# t x y z qx qy qz qw\n0.0 0 0 0 0 0 0 1\n0.1 1 2 3\n".write(to: bad, atomically: true, encoding: .utf8)
        let result = try CommandRunner.run(["evaluate", bad.path, bad.path])
        #expect(result.status != 0)
        #expect(result.stderr.contains("bad.txt:3"), "\(result.stderr)")
    }

    @Test("render writes a PNG of the requested size")
    func renderSmall() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("showcase.png")
        let result = try CommandRunner.run(["render", "Scenes/showcase.json", "-o", out.path, "--size", "160x90"])
        #expect(result.status == 0, "\(result.stderr)")
        let info = try PNG.readInfo(contentsOf: out)
        #expect(info.width == 160 && info.height == 90)
    }

    @Test("render rejects a bad size and a missing scene with non-zero exits")
    func renderBadInput() throws {
        let badSize = try CommandRunner.run(["render", "Scenes/showcase.json", "-o", "/tmp/x.png", "--size", "100000x100000"])
        #expect(badSize.status != 0)
        let missing = try CommandRunner.run(["render", "Scenes/does-not-exist.json", "-o", "/tmp/x.png"])
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("does-not-exist.json"), "\(missing.stderr)")
    }
}
