import ArgumentParser

/// `parallax view`: placeholder until its module lands.
struct ViewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "view", abstract: "Open a scene in an interactive window.")

    func run() throws {
        throw ValidationError("'parallax view' is not available in this build yet.")
    }
}
