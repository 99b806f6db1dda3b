import Foundation
import Testing

/// Test traits for the data under `../shared`: without it the tests are reported as skipped, with
/// the reason, instead of returning early and passing.
extension Trait where Self == ConditionTrait {
    /// The real EuRoC V1_01 snippet (``TrackingFixtures/snippet``).
    static var needsEuRoCSnippet: Self {
        .enabled(if: FileManager.default.fileExists(atPath: TrackingFixtures.snippet.appendingPathComponent("mav0").path),
                 "needs ../shared/datasets/euroc-v101-micro beside the repository")
    }

    /// The trajectories the simulated datasets follow (``TrackingFixtures/simulated(trajectory:)``).
    static var needsSharedTrajectories: Self {
        .enabled(if: ["euroc_V1_01_easy", "udel_gore"].allSatisfy {
                     FileManager.default.fileExists(
                         atPath: TrackingFixtures.shared.appendingPathComponent("trajectories/\($0).txt").path)
                 },
                 "needs ../shared/trajectories beside the repository")
    }
}
