import Foundation

/// Runs the built `parallax` executable the way a user does and captures what it prints.
struct CommandRunner {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The repository root (three levels above this file).
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The shared folder beside the repository, if present.
    static var sharedFolder: URL? {
        let url = repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }

    /// Finds the `parallax` binary next to the test bundle (SwiftPM puts both in the same folder).
    static func executable() throws -> URL {
        var candidates: [URL] = []
        let argv0 = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = argv0.deletingLastPathComponent()
        for _ in 0..<4 {
            candidates.append(folder.appendingPathComponent("parallax"))
            folder = folder.deletingLastPathComponent()
        }
        candidates.append(repositoryRoot.appendingPathComponent(".build/debug/parallax"))
        for c in candidates where FileManager.default.isExecutableFile(atPath: c.path) { return c }
        throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "parallax next to \(argv0.path)"])
    }

    /// Runs `parallax` with `arguments` from the repository root.
    static func run(_ arguments: [String]) throws -> Output {
        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        process.currentDirectoryURL = repositoryRoot
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes before waiting so a chatty command cannot fill a pipe and block.
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(status: process.terminationStatus,
                      stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }

    /// A fresh temporary folder.
    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
