import ArgumentParser

/// `parallax render`: placeholder until its module lands.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "render", abstract: "Render a scene file to PNG.")

    func run() throws {
        throw ValidationError("'parallax render' is not available in this build yet.")
    }
}
