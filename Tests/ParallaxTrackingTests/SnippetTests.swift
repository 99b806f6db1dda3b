import Foundation
import ParallaxDatasets
import ParallaxMath
import ParallaxTracking
import ParallaxEvaluation
import Testing

/// The real EuRoC V1_01 snippet (drone standing on the ground, motors running): the estimator must
/// initialise within 1 s, stay within 1 cm of where it started, and be `normal` for ≥ 95 % of frames
/// after initialisation. Also checks that two runs are bit-identical.
@Suite("VIO on the real EuRoC snippet", .serialized, .needsEuRoCSnippet)
struct SnippetTests {
    /// The snippet, or nil when ../shared is absent (tests using it carry `.needsEuRoCSnippet`).
    static func dataset() throws -> EuRoCDataset? {
        guard FileManager.default.fileExists(atPath: TrackingFixtures.snippet.appendingPathComponent("mav0").path) else {
            return nil
        }
        return try EuRoCDataset(url: TrackingFixtures.snippet)
    }

    /// The snippet's drone stands still until ≈ 5 s, then takes off: drift is measured over the still
    /// part, accuracy over the whole snippet (ATE posyaw against the Vicon ground truth).
    @Test("stereo and mono: init ≤ 1 s, drift ≤ 1 cm at rest, ATE ≤ 1 cm, normal ≥ 95 % after init",
          arguments: TrackerConfiguration.Mode.allCases)
    func atRest(mode: TrackerConfiguration.Mode) throws {
        let data = try #require(try Self.dataset())
        let summary = try TrackingFixtures.run(data, mode: mode)
        let initTime = try #require(summary.initializationTime)
        let poses = summary.trajectory.poses
        let first = try #require(poses.first)
        let still = poses.filter { $0.time - first.time < 4.3 }
        let drift = still.map { ($0.T_world_body.translation - first.T_world_body.translation).norm }.max() ?? .infinity
        let normalAfterInit = Double(summary.normalFrames) / Double(max(1, summary.framesAfterInit))
        let ate = try #require(try summary.evaluation()).report.ate.rmse
        print("snippet \(mode.rawValue): init \(initTime) s, max drift at rest \(String(format: "%.4f", drift)) m, "
              + "ATE posyaw \(String(format: "%.4f", ate)) m, normal after init \(String(format: "%.1f", 100 * normalAfterInit)) %, "
              + "frames \(summary.frames)")
        #expect(initTime <= 1.0)
        // Every frame also carries its wall-clock time (``TrackingTimings/wall``).
        #expect(summary.wallMs.count == summary.frontEndMs.count && summary.wallMs.allSatisfy { $0.isFinite && $0 >= 0 })
        #expect(drift <= 0.01)
        #expect(ate <= 0.01)
        #expect(normalAfterInit >= 0.95)
    }

    @Test("two runs give identical poses and feature points")
    func determinism() throws {
        let data = try #require(try Self.dataset())
        func collect() throws -> [String] {
            var lines: [String] = []
            let runner = try DatasetRunner(dataset: data, configuration: TrackerConfiguration(mode: .stereo))
            _ = try runner.run(to: 2.5) { r, _ in
                var line = "\(r.timestampNs) \(r.trackingState)"
                if let t = r.T_world_body {
                    line += " \(t.translation.x.bitPattern) \(t.translation.y.bitPattern) \(t.translation.z.bitPattern)"
                    line += " \(t.rotation.w.bitPattern) \(t.rotation.x.bitPattern)"
                }
                for p in r.featurePoints { line += " \(p.id):\(p.position_world.x.bitPattern)" }
                lines.append(line)
            }
            return lines
        }
        let a = try collect(), b = try collect()
        #expect(a.count > 20)
        #expect(a == b)
    }
}
