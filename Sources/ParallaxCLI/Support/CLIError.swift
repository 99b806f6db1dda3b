/// A runtime failure of a `parallax` command (a file that cannot be read, a time past the end of a
/// dataset, ...).
///
/// The convention for every command: mistakes in the command line itself are `ValidationError`s
/// thrown from `validate()` (argument-parser prints `Error: …` and the usage, exit code 64);
/// everything that goes wrong later is thrown from `run()` as a ``CLIError`` or as the library's
/// own error (`DatasetError`, `TrajectoryError`, `RenderError`, …), which argument-parser prints as
/// `Error: …` without the usage, exit code 1. No command prints its own error lines.
struct CLIError: Error, CustomStringConvertible {
    /// The complete message, naming the option or file at fault.
    let description: String

    init(_ description: String) { self.description = description }
}
