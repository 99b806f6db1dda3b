import ArgumentParser
import ParallaxARView

/// `--debug planes,features,origin,anchors`: the debug overlays drawn on rendered AR frames
/// (ARSCNDebugOptions: plane outlines, feature points, the world origin's axes, anchor axes).
struct DebugOverlayList: ExpressibleByArgument {
    /// Overlay names and their options.
    static let names: [(String, ARDebugOptions)] = [
        ("planes", .showPlanes), ("features", .showFeaturePoints), ("origin", .showWorldOrigin), ("anchors", .showAnchorOrigins),
    ]
    /// The chosen overlays, never empty.
    var options: ARDebugOptions

    init?(argument: String) {
        var options: ARDebugOptions = []
        for name in argument.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !name.isEmpty {
            guard let option = Self.names.first(where: { $0.0 == name })?.1 else { return nil }
            options.insert(option)
        }
        guard !options.isEmpty else { return nil }
        self.options = options
    }

    static var allValueStrings: [String] { names.map(\.0) }
}
