import ArgumentParser
@testable import ParallaxCLI

/// In-process parsing of a `parallax` command line, as `main` does it (former names included),
/// without running the command.
enum Parsing {
    /// The command `arguments` select, parsed and validated.
    static func command<C: ParsableCommand>(_ arguments: [String], as type: C.Type = C.self) throws -> C {
        let parsed = try Parallax.parseAsRoot(Parallax.modernized(arguments))
        guard let command = parsed as? C else {
            throw CLIError("\(arguments) parsed as \(Swift.type(of: parsed)), not \(C.self)")
        }
        return command
    }

    /// What `parallax` prints for `arguments` when they fail to parse or validate, and the exit
    /// code; nil when they are accepted.
    static func failure(_ arguments: [String]) -> (message: String, exitCode: Int32)? {
        do {
            _ = try Parallax.parseAsRoot(Parallax.modernized(arguments))
            return nil
        } catch {
            return (Parallax.fullMessage(for: error), Parallax.exitCode(for: error).rawValue)
        }
    }

    /// The exit code of a rejected command line (`ExitCode.validationFailure`).
    static let usageExitCode = ExitCode.validationFailure.rawValue
}
