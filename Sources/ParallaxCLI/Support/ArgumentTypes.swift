import ArgumentParser
import Foundation
import ParallaxAR
import ParallaxDatasets
import ParallaxEvaluation
import ParallaxRendering
import ParallaxSimulation

// Library enums typed on the command line. argument-parser lists their raw values in the help and
// rejects anything else with "The value '…' is invalid for '--option'" before `run()` starts.

extension AlignmentMethod: ExpressibleByArgument {}
extension RPEDeltaUnit: ExpressibleByArgument {}
extension PoseSourceKind: ExpressibleByArgument {}
extension MotionPreset: ExpressibleByArgument {}

/// `--egl-platform`: the library's platforms plus `auto` (PARALLAX_EGL_PLATFORM, else the first
/// platform that works).
enum EGLPlatformChoice: String, CaseIterable, ExpressibleByArgument {
    case auto, surfaceless, device

    /// The platform to ask the renderer for; nil lets it choose.
    var platform: EGLPlatform? {
        switch self {
        case .auto: nil
        case .surfaceless: .surfaceless
        case .device: .device
        }
    }
}

/// `--types`: a comma-separated list of hit-test result types (`featurePoint,existingPlane`).
/// Unknown names and an empty list are rejected while parsing.
struct HitTestTypeList: ExpressibleByArgument {
    /// The chosen types, never empty.
    var set: HitTestResultType

    init?(argument: String) {
        let names = argument.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        var set: HitTestResultType = []
        for name in names {
            guard let type = HitTestResultType(name: name) else { return nil }
            set.insert(type)
        }
        guard !set.isEmpty else { return nil }
        self.set = set
    }

    static var allValueStrings: [String] { HitTestResultType.names.map(\.0) }
    var defaultValueDescription: String { "all" }
}
