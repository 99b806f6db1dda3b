import ArgumentParser

/// `parallax info`: placeholder until its module lands.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "info", abstract: "Describe a dataset.")

    func run() throws {
        throw ValidationError("'parallax info' is not available in this build yet.")
    }
}
