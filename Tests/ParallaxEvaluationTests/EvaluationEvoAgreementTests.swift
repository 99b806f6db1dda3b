import Foundation
import Testing
import ParallaxDatasets
@testable import ParallaxEvaluation

/// Our ATE/RPE against figures produced by evo's own command line tools on the same files
/// (see `scripts/evo-reference.py` and `Fixtures/evo/reference.json`).
@Suite("Evaluation agrees with evo")
struct EvaluationEvoAgreementTests {
    struct Reference: Decodable {
        struct Case: Decodable {
            var kind: String
            var reference: String
            var estimate: String
            var align: String
            var relation: String
            var delta: Double?
            var delta_unit: String?
            var all_pairs: Bool?
            var t_offset: Double?
            var count: Int
            var command: String
            var stats: [String: Double]
        }
        var evo_version: String
        var cases: [Case]
    }

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/evo")

    static func load() throws -> Reference {
        let data = try Data(contentsOf: fixtures.appendingPathComponent("reference.json"))
        return try JSONDecoder().decode(Reference.self, from: data)
    }

    static func relativeDifference(_ ours: Double, _ evo: Double) -> Double {
        abs(ours - evo) / max(abs(evo), 1e-300)
    }

    /// Our statistics for one evo case, and the pair count.
    static func compute(_ c: Reference.Case, unitOverride: RPEDeltaUnit? = nil, deltaOverride: Double? = nil) throws -> (ErrorStatistics, Int) {
        let ref = try Trajectory.read(contentsOf: fixtures.appendingPathComponent(c.reference))
        let est = try Trajectory.read(contentsOf: fixtures.appendingPathComponent(c.estimate))
        let pairs = try TimestampAssociation.associate(
            reference: ref, estimate: est, maxDifference: 0.01, offset: c.t_offset ?? 0)
        let method = try #require(AlignmentMethod(rawValue: c.align))
        let ate = try AbsoluteTrajectoryError(pairs, alignment: method)
        if c.kind == "ape" { return (ate.statistics, pairs.count) }
        let unit = try unitOverride ?? #require(RPEDeltaUnit(rawValue: c.delta_unit ?? ""))
        let rpe = try RelativePoseError(
            reference: pairs.reference, alignedEstimate: ate.alignedEstimate,
            delta: deltaOverride ?? c.delta ?? 0, unit: unit, allPairs: c.all_pairs ?? false)
        return (c.relation == "angle_deg" ? rpe.rotationDeg : rpe.translation, rpe.pairs.count)
    }

    static func check(_ c: Reference.Case, _ ours: ErrorStatistics, _ count: Int, worst: inout [String: Double]) {
        #expect(count == c.count, "pair count for: \(c.command)")
        for (name, value) in ours.named {
            guard let evo = c.stats[name] else {
                Issue.record("evo result lacks \(name): \(c.command)")
                continue
            }
            let rel = relativeDifference(value, evo)
            let key = "\(c.kind) \(c.relation) \(name)"
            worst[key] = max(worst[key] ?? 0, rel)
            #expect(rel <= 1e-6, "\(name): ours \(value), evo \(evo) — \(c.command)")
        }
    }

    @Test("ATE and RPE (1 m, 20 poses, all pairs, time offsets) equal evo's to 1e-6 relative for none, se3 and sim3")
    func agreement() throws {
        let reference = try Self.load()
        #expect(reference.cases.count >= 40)
        #expect(reference.cases.contains { $0.all_pairs == true } && reference.cases.contains { $0.t_offset != nil })
        #expect(reference.evo_version.hasPrefix("1."))
        var worst: [String: Double] = [:]
        for c in reference.cases {
            let (stats, count) = try Self.compute(c)
            Self.check(c, stats, count, worst: &worst)
        }
        for (key, value) in worst.sorted(by: { $0.key < $1.key }) {
            print("evo \(reference.evo_version) agreement, max relative difference: \(key) = \(value)")
        }
    }

    @Test("RPE over 1 s equals evo's 20-pose RPE on the uniformly sampled 20 Hz estimates")
    func oneSecondDelta() throws {
        let reference = try Self.load()
        let frameCases = reference.cases.filter { $0.kind == "rpe" && $0.delta_unit == "f" && $0.delta == 20 }
        #expect(frameCases.count >= 12)
        var worst: [String: Double] = [:]
        for c in frameCases {
            let (stats, count) = try Self.compute(c, unitOverride: .seconds, deltaOverride: 1)
            Self.check(c, stats, count, worst: &worst)
        }
        for (key, value) in worst.sorted(by: { $0.key < $1.key }) {
            print("evo agreement for delta 1 s, max relative difference: \(key) = \(value)")
        }
    }
}
