import ArgumentParser

/// `parallax evaluate`: placeholder until its module lands.
struct EvaluateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "evaluate", abstract: "Score an estimated trajectory against ground truth.")

    func run() throws {
        throw ValidationError("'parallax evaluate' is not available in this build yet.")
    }
}
