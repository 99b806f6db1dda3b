import Foundation
import Testing
@testable import ParallaxCLI

/// `parallax vocabulary train|info|evaluate` and `parallax info FILE.voc`.
@Suite("parallax vocabulary")
struct VocabularyCommandTests {
    @Test("settings out of range stop before any work, naming the option", arguments: [
        (["vocabulary", "train", "ds", "-o", "v.voc", "--branching", "1"], "--branching must be between 2 and 64, got 1"),
        (["vocabulary", "train", "ds", "-o", "v.voc", "--depth", "9"], "--depth must be between 1 and 8, got 9"),
        (["vocabulary", "train", "ds", "-o", "v.voc", "--stride", "0"], "--stride must be between 1 and 100000, got 0"),
        (["vocabulary", "train", "ds", "-o", "v.voc", "--max-descriptors", "0"], "--max-descriptors must be between 1 and 2000000"),
        (["vocabulary", "evaluate", "ds", "--keyframe-stride", "1"], "--keyframe-stride must be between 2 and 10000, got 1"),
        (["vocabulary", "evaluate", "ds", "--minimum-age", "nan"], "--minimum-age must be a finite number, got nan"),
    ])
    func rejections(arguments: [String], expected: String) throws {
        let failure = try #require(Parsing.failure(arguments))
        #expect(failure.message.contains(expected), "\(failure.message)")
        #expect(failure.exitCode == Parsing.usageExitCode)
        #expect(Parsing.failure(["vocabulary", "train", "-o", "v.voc"]) != nil)  // no dataset
    }

    @Test("trains on the sample dataset, summarises the file, and refuses bad input with exit 1")
    func trainAndInfo() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("sample.voc").path
        let trained = try CommandRunner.run(["vocabulary", "train", "Datasets/sample", "-o", file, "--stride", "1", "--depth", "2"])
        #expect(trained.status == 0, "\(trained.stderr)")
        #expect(trained.stdout.contains("branching 8, depth 2"))
        let info = try CommandRunner.run(["info", file])
        #expect(info.status == 0 && info.stdout.contains("vocabulary \(file) (format version 1"), "\(info.stdout)\(info.stderr)")
        let shipped = try CommandRunner.run(["vocabulary", "info", "Sources/ParallaxMapping/Resources/default.voc"])
        #expect(shipped.status == 0 && shipped.stdout.contains("branching 8, depth 4"))

        let foreign = try CommandRunner.run(["vocabulary", "info", "Package.swift"])
        #expect(foreign.status == 1 && foreign.stderr.contains("Package.swift: not a Parallax vocabulary"), "\(foreign.stderr)")
        var damaged = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
        damaged[60] ^= 1
        let damagedFile = folder.appendingPathComponent("damaged.voc").path
        try Data(damaged).write(to: URL(fileURLWithPath: damagedFile))
        let broken = try CommandRunner.run(["info", damagedFile])
        #expect(broken.status == 1 && broken.stderr.contains("\(damagedFile): checksum mismatch (damaged file)"), "\(broken.stderr)")
        let missing = try CommandRunner.run(["vocabulary", "train", folder.appendingPathComponent("nothing").path, "-o", file])
        #expect(missing.status == 1 && missing.stderr.contains("nothing"), "\(missing.stderr)")
    }
}
