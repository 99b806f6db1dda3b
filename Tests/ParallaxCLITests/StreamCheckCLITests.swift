import Foundation
import Testing
import ParallaxImaging

/// Recordings that used to pass `info --validate`, track 0 % with exit 0 or print `nan %`
/// (issue 13), run through the real command line on copies of the bundled sample.
@Suite struct StreamCheckCLITests {
    /// A copy of `Datasets/sample` in a fresh temporary folder.
    private func sampleCopy() throws -> URL {
        let root = try CommandRunner.temporaryFolder().appendingPathComponent("sample")
        try FileManager.default.copyItem(at: CommandRunner.repositoryRoot.appendingPathComponent("Datasets/sample"), to: root)
        return root
    }

    /// The first image of cam0 in `root`.
    private func firstImage(_ root: URL) -> URL {
        root.appendingPathComponent("mav0/cam0/data/1700000000000000000.png")
    }

    /// A copy of the sample with a cam1 whose every stamp is 3 ms after cam0's (no pair matches).
    private func unpairedStereoCopy() throws -> URL {
        let root = try sampleCopy()
        let mav0 = root.appendingPathComponent("mav0")
        let cam1 = mav0.appendingPathComponent("cam1")
        try FileManager.default.createDirectory(at: cam1, withIntermediateDirectories: true)
        // cam1: cam0's calibration moved 11 cm, its images, every stamp 3 ms late.
        let yaml = try String(contentsOf: mav0.appendingPathComponent("cam0/sensor.yaml"), encoding: .utf8)
            .replacingOccurrences(of: "-0.0216401454975,", with: "0.0883598545025,")
        try yaml.write(to: cam1.appendingPathComponent("sensor.yaml"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: cam1.appendingPathComponent("data").path, withDestinationPath: "../cam0/data")
        let rows = try String(contentsOf: mav0.appendingPathComponent("cam0/data.csv"), encoding: .utf8)
            .split(separator: "\n").map { line -> String in
                guard let comma = line.firstIndex(of: ","), let t = Int64(line[..<comma]) else { return String(line) }
                return "\(t + 3_000_000)\(line[comma...])"
            }
        try (rows.joined(separator: "\n") + "\n").write(to: cam1.appendingPathComponent("data.csv"), atomically: true, encoding: .utf8)
        return root
    }

    /// Tracking alone and the AR session (which drives the tracker itself) both run the stream checks.
    @Test(arguments: [[String](), ["--planes"]])
    func replayRefusesStereoStampsThatNeverPair(extra: [String]) throws {
        let root = try unpairedStereoCopy()
        defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }
        let replay = try CommandRunner.run(["replay", root.path] + extra)
        #expect(replay.status == 1)
        #expect(replay.stderr.contains("mav0/cam1/data.csv: no cam1 timestamp equals a cam0 timestamp (median offset +3.000 ms)"),
                "\(replay.stderr)")
    }

    @Test func validateDecodesImages() throws {
        let root = try sampleCopy()
        defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }
        let image = firstImage(root)
        let bytes = try Data(contentsOf: image)
        try bytes.prefix(bytes.count / 2).write(to: image)
        // The header alone is intact: plain info still reads the dataset.
        #expect(try CommandRunner.run(["info", root.path]).status == 0)
        let validate = try CommandRunner.run(["info", root.path, "--validate"])
        #expect(validate.status == 1)
        #expect(validate.stderr.contains("mav0/cam0/data/1700000000000000000.png: cannot decode image"), "\(validate.stderr)")
    }

    @Test func validateCountsImagesThatAreNotEightBitGrey() throws {
        let root = try sampleCopy()
        defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }
        try Data(PNG.encode(.gray16(Gray16Image(width: 752, height: 480, fill: 3000)))).write(to: firstImage(root))
        let validate = try CommandRunner.run(["info", root.path, "--validate"])
        #expect(validate.status == 0)
        #expect(validate.stdout.contains("cam0: 1 of 21 images are not 8-bit grey (1 16-bit grey)"), "\(validate.stdout)")
    }

    @Test func evaluateLightRefusesNegativeTruth() throws {
        let root = try sampleCopy()
        defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }
        let truth = root.appendingPathComponent("truth/lighting.json")
        let text = try String(contentsOf: truth, encoding: .utf8)
            .replacingOccurrences(of: "\"ambientIntensity\": 911.076073", with: "\"ambientIntensity\": -911.076073")
        try text.write(to: truth, atomically: true, encoding: .utf8)
        let result = try CommandRunner.run(["evaluate", "light", root.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("frames[0].ambientIntensity must be positive, found -911.076073"), "\(result.stderr)")
        #expect(!result.stdout.contains("nan"))
    }
}
