import Foundation
import ParallaxImaging
import Testing

/// End-to-end checks of the `parallax` command: what a user types, what comes back, exit codes.
@Suite("parallax command line")
struct CLITests {
    /// The real EuRoC snippet (4.7 s) in ../shared, when that folder is beside the repository.
    static let snippet = CommandRunner.sharedFolder?.appendingPathComponent("datasets/euroc-v101-micro").path
    static let noSnippet: Comment = "needs ../shared (the EuRoC snippet) beside the repository"

    @Test("info describes the real EuRoC snippet", .enabled(if: snippet != nil, noSnippet))
    func infoOnSnippet() throws {
        let dataset = try #require(Self.snippet)
        let text = try CommandRunner.run(["info", dataset])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("cam0: 752x480"))
        #expect(text.stdout.contains("imu0: 200.0 Hz"))
        let json = try CommandRunner.run(["info", dataset, "--json"])
        #expect(json.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8))
        #expect(object is [String: Any])
    }

    @Test("info on a missing folder fails with exit code 1 and names it")
    func infoMissingFolder() throws {
        let result = try CommandRunner.run(["info", "/nonexistent/parallax-dataset"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("Error: "), "\(result.stderr)")
        #expect(result.stderr.contains("/nonexistent/parallax-dataset"))
    }

    @Test("evaluate frontend reports reprojection errors on the snippet and rejects a bad window",
          .enabled(if: snippet != nil, noSnippet))
    func evaluateFrontEnd() throws {
        let dataset = try #require(Self.snippet)
        let result = try CommandRunner.run(["evaluate", "frontend", dataset, "--stereo", "--to", "1"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("mode stereo, window 11 frames"))
        #expect(result.stdout.contains("windows "))
        let bad = try CommandRunner.run(["evaluate-frontend", dataset, "--window", "1"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("--window must be between 2 and 1000, got 1"), "\(bad.stderr)")
    }

    @Test("a start or an instant past the end of the dataset is an error, not an empty run",
          .enabled(if: snippet != nil, noSnippet))
    func pastTheEnd() throws {
        let dataset = try #require(Self.snippet)
        let replay = try CommandRunner.run(["replay", dataset, "--from", "100"])
        #expect(replay.status == 1)
        #expect(replay.stderr.contains("Error: --from 100 s is past the end of \(dataset) (4."), "\(replay.stderr)")
        let hittest = try CommandRunner.run(["hittest", dataset, "--time", "60", "--point", "0.5,0.5",
                                             "--pose-source", "groundtruth"])
        #expect(hittest.status == 1)
        #expect(hittest.stderr.contains("Error: --time 60 s is past the end of \(dataset)"), "\(hittest.stderr)")
    }

    @Test("NaN, infinite and negative numbers stop with a message, not a crash")
    func nonFiniteNumbers() throws {
        let cases: [([String], String)] = [
            (["replay", "/nonexistent", "--from", "nan"], "--from must be a finite number, got nan"),
            (["hittest", "/nonexistent", "--time", "inf", "--point", "0.5,0.5"], "--time must be a finite number, got inf"),
            (["simulate", "-o", "/tmp/never", "--duration", "-5"], "--duration must be positive, got -5"),
        ]
        for (arguments, message) in cases {
            let result = try CommandRunner.run(arguments)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("Error: " + message), "\(result.stderr)")
        }
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
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("Error: "), "\(result.stderr)")
        #expect(result.stderr.contains("bad.txt:3"), "\(result.stderr)")
        #expect(!result.stderr.contains("Usage:"), "a runtime failure does not print the usage")
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
        #expect(badSize.status == 64)
        #expect(badSize.stderr.contains("--size"), "\(badSize.stderr)")
        let missing = try CommandRunner.run(["render", "Scenes/does-not-exist.json", "-o", "/tmp/x.png"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("does-not-exist.json"), "\(missing.stderr)")
    }

    /// The report ends with the IMU biases. On the real snippet (at rest, then take-off) the gyroscope
    /// bias matches the one in EuRoC's ground truth, (−0.0023, 0.0216, 0.0768) rad/s: measured
    /// 0.3 / 1.1 / 1.2 mrad/s off in stereo.
    @Test("replay reports the IMU biases; the gyro's matches EuRoC's ground truth", .enabled(if: snippet != nil, noSnippet))
    func biasReport() throws {
        let dataset = try #require(Self.snippet)
        let result = try CommandRunner.run(["replay", dataset])
        #expect(result.status == 0, "\(result.stderr)")
        let line = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("IMU biases at the last pose: gyroscope [") })
        let numbers = line.split(separator: "[").dropFirst().first?.split(separator: "]").first?
            .split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) } ?? []
        try #require(numbers.count == 3, "\(line)")
        let truth = [-0.00233, 0.0216, 0.0768]
        for (estimate, expected) in zip(numbers, truth) { #expect(abs(estimate - expected) < 0.004, "\(line)") }
    }

    /// A map saved on the snippet and loaded by a second replay from 2 s: both write their
    /// trajectory in the map's world, so where they overlap (the drone is at rest) the poses agree.
    @Test("replay --save-map / --load-map write trajectories in the map's world", .enabled(if: snippet != nil, noSnippet))
    func mapTrajectories() throws {
        let dataset = try #require(Self.snippet)
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let map = folder.appendingPathComponent("snippet.map").path
        let one = folder.appendingPathComponent("one.txt").path, two = folder.appendingPathComponent("two.txt").path
        let first = try CommandRunner.run(["replay", dataset, "--save-map", map, "--anchor-at", "1", "--trajectory", one])
        #expect(first.status == 0, "\(first.stderr)")
        let second = try CommandRunner.run(["replay", dataset, "--from", "2", "--load-map", map, "--trajectory", two])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("localized in the loaded map after"), "\(second.stdout)")
        func rows(_ path: String) throws -> [String: [Double]] {
            let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
            return Dictionary(lines.map { line in
                let f = line.split(separator: " ")
                return (String(f[0]), f.dropFirst().compactMap { Double($0) })
            }, uniquingKeysWith: { a, _ in a })
        }
        let a = try rows(one), b = try rows(two)
        #expect(a.count >= 60 && b.count >= 20, "\(a.count) and \(b.count) poses")
        let shared = b.keys.filter { a[$0] != nil }
        #expect(shared.count >= 20)
        for t in shared {
            guard let p = a[t], let q = b[t], p.count == 7, q.count == 7 else { Issue.record("malformed row at \(t)"); continue }
            let d = ((p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]) + (p[2] - q[2]) * (p[2] - q[2])).squareRoot()
            #expect(d < 0.05, "at \(t) the two sessions are \(d) m apart")
        }
    }
}
