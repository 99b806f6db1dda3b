import Foundation
import ParallaxDatasets
import Testing
@testable import ParallaxRecordings

/// Files Parallax writes, read by the independent Python readers (`rosbags` for the bag, `mcap` with
/// `rosbags` CDR for MCAP) through `Fixtures/crosscheck_parallax_files.py`. The expected lines are
/// what that script printed when the check was first made (Fixtures/README.md). The IMU digest
/// equals the one computed from the folder's `imu0/data.csv`, so the values went through the writers
/// bit for bit.
///
/// Runs where a Python with those packages exists: `PARALLAX_CROSSCHECK_PYTHON`, or the venv
/// `scripts/test.sh` makes in `.build/crosscheck-venv`. Skipped otherwise (no network for pip).
@Suite struct PythonCrossCheckTests {
    static let python: URL? = {
        let root = RecordingFixtures.folder.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let candidates: [String?] = [ProcessInfo.processInfo.environment["PARALLAX_CROSSCHECK_PYTHON"],
                          root.appendingPathComponent(".build/crosscheck-venv/bin/python").path]
        return candidates.compactMap { $0 }.first { FileManager.default.isExecutableFile(atPath: $0) }
            .map { URL(fileURLWithPath: $0) }
    }()

    static let expected = """
        /cam0/image_raw 95 1403715273262142976 1403715277962142976 3d8beedaa5ce5729
        /cam1/image_raw 95 1403715273262142976 1403715277962142976 cf8423f3b9211c31
        /imu0 1341 1403715273262142976 1403715279962142976 e9d4115f478d256a
        """

    @Test(.enabled(if: python != nil && RecordingSourceTests.hasMicro,
                   "needs ../shared/datasets/euroc-v101-micro and a Python with rosbags and mcap"),
          arguments: ["v.bag", "v.mcap"])
    func pythonReadsWhatParallaxWrote(name: String) throws {
        let python = try #require(Self.python)
        let folder = try RecordingFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(name)
        let writer: any RecordingWriter = name.hasSuffix(".bag")
            ? try BagWriter(url: file, compression: .lz4)
            : try MCAPWriter(url: file, encoding: .cdr, chunking: .zstd)
        _ = try RecordingConversion.write(try EuRoCDataset(url: RecordingSourceTests.micro), to: writer, images: .raw)

        let process = Process()
        process.executableURL = python
        process.arguments = [RecordingFixtures.folder.appendingPathComponent("crosscheck_parallax_files.py").path, file.path]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(errors)")
        let lines = printed.split(separator: "\n").filter { !$0.hasPrefix("#") }.joined(separator: "\n")
        #expect(lines == Self.expected, "\(printed)\(errors)")
    }
}
