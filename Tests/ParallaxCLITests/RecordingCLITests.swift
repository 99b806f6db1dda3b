import Foundation
import Testing

/// Bags and MCAP files through the real command line: what a user sees when a recording is
/// good, damaged, or read with the wrong options (exit status and the message on stderr).
@Suite struct RecordingCLITests {
    /// The bundled sample (mono, 10 s) converted by `parallax convert` into `name` in a fresh folder.
    private func converted(_ name: String, _ extra: [String] = []) throws -> URL {
        let folder = try CommandRunner.temporaryFolder()
        let out = folder.appendingPathComponent(name)
        let run = try CommandRunner.run(["convert", "Datasets/sample", out.path] + extra)
        #expect(run.status == 0, "\(run.stderr)")
        return out
    }

    private var calibration: [String] { ["--calibration", "Datasets/sample"] }

    @Test func bagReplaysAndInfoListsItsTopics() throws {
        let bag = try converted("s.bag")
        defer { try? FileManager.default.removeItem(at: bag.deletingLastPathComponent()) }
        let info = try CommandRunner.run(["info", bag.path])
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stdout.contains("/imu0") && info.stdout.contains("/cam0/image_raw"), "\(info.stdout)")
        #expect(info.stdout.contains("sensor_msgs/Imu") && info.stdout.contains("sensor_msgs/Image"), "\(info.stdout)")
        let replay = try CommandRunner.run(["replay", bag.path] + calibration)
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout.contains("mode mono"), "\(replay.stdout)")
        #expect(!replay.stderr.contains("warning"), "\(replay.stderr)")
    }

    @Test func recordingWithoutCalibrationIsRefused() throws {
        let mcap = try converted("s.mcap")
        defer { try? FileManager.default.removeItem(at: mcap.deletingLastPathComponent()) }
        let run = try CommandRunner.run(["replay", mcap.path])
        #expect(run.status == 1)
        #expect(run.stderr.contains("\(mcap.path): a recording carries no calibration; pass --calibration"), "\(run.stderr)")
    }

    /// A bag cut in the middle of a record fails naming the file, the offset and the last good
    /// message; `--partial` replays what came before and says where it stopped.
    @Test func truncatedBagFailsUnlessPartialIsAsked() throws {
        let bag = try converted("s.bag", ["--compression", "none"])
        defer { try? FileManager.default.removeItem(at: bag.deletingLastPathComponent()) }
        let bytes = try Data(contentsOf: bag)
        let cut = bag.deletingLastPathComponent().appendingPathComponent("cut.bag")
        try bytes.prefix(bytes.count * 2 / 3).write(to: cut)

        let strict = try CommandRunner.run(["replay", cut.path] + calibration)
        #expect(strict.status == 1)
        #expect(strict.stderr.contains(cut.path) && strict.stderr.contains("file ends inside a record"), "\(strict.stderr)")
        #expect(strict.stderr.contains("the last good message is message"), "\(strict.stderr)")

        let partial = try CommandRunner.run(["replay", cut.path, "--partial"] + calibration)
        #expect(partial.status == 0, "\(partial.stderr)")
        #expect(partial.stderr.contains("warning: stopped at damage:") && partial.stderr.contains(cut.path), "\(partial.stderr)")
        // Fewer frames than the whole recording, but some.
        let whole = try CommandRunner.run(["replay", bag.path] + calibration)
        let framesPartial = try #require(Self.frameCount(partial.stdout))
        let framesWhole = try #require(Self.frameCount(whole.stdout))
        #expect(framesPartial > 0 && framesPartial < framesWhole, "\(framesPartial) of \(framesWhole)")
    }

    @Test func corruptMCAPChunkNamesTheChecksum() throws {
        let mcap = try converted("s.mcap", ["--compression", "none"])
        defer { try? FileManager.default.removeItem(at: mcap.deletingLastPathComponent()) }
        var bytes = try Data(contentsOf: mcap)
        // A byte in the middle of the file is image data inside a chunk covered by its CRC.
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: mcap)
        let run = try CommandRunner.run(["replay", mcap.path] + calibration)
        #expect(run.status == 1)
        #expect(run.stderr.contains(mcap.path) && run.stderr.lowercased().contains("crc"), "\(run.stderr)")
    }

    @Test(arguments: [["--imu-topic", "/cam0/image_raw"], ["--camera-topic", "/imu0"], ["--imu-topic", "/nothing"]])
    func topicOfTheWrongTypeOrMissingIsRefused(options: [String]) throws {
        let bag = try converted("s.bag")
        defer { try? FileManager.default.removeItem(at: bag.deletingLastPathComponent()) }
        let run = try CommandRunner.run(["replay", bag.path] + calibration + options)
        #expect(run.status == 1)
        #expect(run.stderr.contains(options[1]), "\(run.stderr)")
    }

    @Test func calibrationThatDisagreesWithTheImagesIsRefused() throws {
        let bag = try converted("s.bag")
        let folder = bag.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The sample's calibration with a resolution the images do not have.
        let yaml = try String(contentsOf: CommandRunner.repositoryRoot.appendingPathComponent("Datasets/sample/mav0/cam0/sensor.yaml"),
                              encoding: .utf8)
        let wrong = folder.appendingPathComponent("cam0.yaml")
        let changed = yaml.replacingOccurrences(of: "resolution: [752, 480]", with: "resolution: [640, 480]")
        try #require(changed != yaml, "the sample's sensor.yaml names its resolution as expected")
        try changed.write(to: wrong, atomically: true, encoding: .utf8)
        let imu = CommandRunner.repositoryRoot.appendingPathComponent("Datasets/sample/mav0/imu0/sensor.yaml").path
        let run = try CommandRunner.run(["replay", bag.path, "--calibration", wrong.path, "--imu-calibration", imu])
        #expect(run.status == 1)
        #expect(run.stderr.contains("/cam0/image_raw") && run.stderr.contains("752"), "\(run.stderr)")
    }

    /// "mode mono: N frames, ..." from replay's report.
    static func frameCount(_ stdout: String) -> Int? {
        guard let range = stdout.range(of: #"mode \w+: (\d+) frames"#, options: .regularExpression) else { return nil }
        return Int(stdout[range].split(separator: " ")[2])
    }
}
