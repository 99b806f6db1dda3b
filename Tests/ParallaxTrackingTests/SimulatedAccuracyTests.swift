import Foundation
import ParallaxDatasets
import ParallaxTracking
import ParallaxEvaluation
import Testing

/// Accuracy floors on simulated 30 s datasets (EuRoC noise; V1_01 in `Scenes/room.json`, UDel Gore in
/// `Scenes/hall.json`): ATE posyaw ≤ 5 cm stereo, ≤ 10 cm mono (cam0 of the same stereo dataset).
/// The last three cases start the replay 8 s and 20 s into V1_01, mid-flight, so the estimator must
/// initialise from motion (visual–inertial alignment) rather than from rest.
@Suite("VIO accuracy on simulated datasets", .serialized, .needsSharedTrajectories)
struct SimulatedAccuracyTests {
    struct Case: Sendable, CustomStringConvertible {
        var trajectory: String
        var mode: TrackerConfiguration.Mode
        var floor: Double
        var from: Double?
        var description: String { "\(trajectory) \(mode.rawValue)" + (from.map { " from \($0) s" } ?? "") }
    }

    static let cases: [Case] = [
        Case(trajectory: "euroc_V1_01_easy", mode: .stereo, floor: 0.05),
        Case(trajectory: "euroc_V1_01_easy", mode: .mono, floor: 0.10),
        Case(trajectory: "udel_gore", mode: .stereo, floor: 0.05),
        Case(trajectory: "udel_gore", mode: .mono, floor: 0.10),
        Case(trajectory: "euroc_V1_01_easy", mode: .stereo, floor: 0.05, from: 8),
        Case(trajectory: "euroc_V1_01_easy", mode: .mono, floor: 0.10, from: 8),
        // Weak acceleration at the start: the mono alignment once collapsed the velocity here and
        // the filter diverged (ATE 6.4 m).
        Case(trajectory: "euroc_V1_01_easy", mode: .mono, floor: 0.10, from: 20),
    ]

    @Test("ATE posyaw within the floor", arguments: 0..<7)
    func accuracy(index: Int) throws {
        let c = Self.cases[index]
        let (simulated, name) = try TrackingFixtures.simulated(trajectory: c.trajectory)
        let dataset = try #require(simulated, "\(name)")
        let summary = try TrackingFixtures.run(dataset, mode: c.mode, from: c.from)
        let evaluation = try #require(try summary.evaluation())
        let ate = evaluation.report.ate.rmse
        print("\(name) \(c): ATE posyaw \(String(format: "%.4f", ate)) m over "
              + "\(evaluation.report.associatedPoses) poses, normal \(String(format: "%.1f", 100 * summary.normalFraction)) %, "
              + "init \(summary.initializationTime.map { String(format: "%.2f", $0) } ?? "never") s")
        #expect(ate <= c.floor)
        #expect(summary.initializationTime.map { $0 <= 1.0 } == true)
        // Poses for nearly the whole sequence.
        #expect(Double(evaluation.report.associatedPoses) >= 0.9 * Double(summary.frames))
    }
}
