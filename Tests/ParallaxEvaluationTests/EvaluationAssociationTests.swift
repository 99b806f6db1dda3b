import Foundation
import ParallaxMath
import Testing
import ParallaxDatasets
@testable import ParallaxEvaluation

@Suite("Evaluation: timestamp association, RPE pairs, report")
struct EvaluationAssociationTests {
    static func trajectory(_ times: [Double], name: String) -> Trajectory {
        Trajectory(poses: times.enumerated().map { k, t in
            TrajectoryPose(time: t, T_world_body: RigidTransform(translation: Vector3(Double(k), 0, 0)))
        }, name: name)
    }

    @Test("Nearest neighbour within max difference; ties go to the earlier pose; several may share one")
    func matching() {
        let m = TimestampAssociation.matchingIndices(
            short: [0.5, 1.0, 1.005, 1.5, 2.0, 2.995, 9], long: [1.0, 1.01, 2.0, 3.0], maxDifference: 0.01)
        // 0.5, 1.5 and 9 have nothing within 10 ms; 1.005 goes to the nearer 1.0.
        #expect(m.short == [1, 2, 4, 5])
        #expect(m.long == [0, 0, 2, 3])
        // An exact tie (binary-exact times) goes to the earlier pose, as in evo.
        let tie = TimestampAssociation.matchingIndices(short: [1.25], long: [1.0, 1.5], maxDifference: 0.25)
        #expect(tie.long == [0])
        let shifted = TimestampAssociation.matchingIndices(short: [1.0, 2.0], long: [0.9, 1.9], maxDifference: 0.001, longOffset: 0.1)
        #expect(shifted.short == [0, 1] && shifted.long == [0, 1])
    }

    @Test("The shorter trajectory drives the search; the offset applies to the estimate")
    func associateDirection() throws {
        let gt = Self.trajectory((0..<200).map { Double($0) * 0.005 }, name: "gt")       // 200 Hz, 1 s
        let est = Self.trajectory((0..<10).map { 0.2 + Double($0) * 0.05 + 0.001 }, name: "est") // 20 Hz, +1 ms
        let a = try TimestampAssociation.associate(reference: gt, estimate: est)
        #expect(a.count == 10)
        #expect(a.estimateIndices == Array(0..<10))
        #expect(a.referenceIndices == (0..<10).map { 40 + 10 * $0 })
        // With the estimate clock 0.3 s behind, the offset brings it back.
        let late = Self.trajectory(est.timestamps.map { $0 - 0.3 }, name: "late")
        let b = try TimestampAssociation.associate(reference: gt, estimate: late, offset: 0.3)
        #expect(b.referenceIndices == a.referenceIndices)
        #expect(b.estimate.timestamps == late.timestamps)   // the estimate keeps its own clock
        // Reference shorter than the estimate: still offset on the estimate side.
        let c = try TimestampAssociation.associate(reference: late, estimate: gt, offset: -0.3)
        #expect(c.referenceIndices == Array(0..<10) && c.estimateIndices == a.referenceIndices)
    }

    @Test("No overlap in time and too few pairs are errors that name the files")
    func failures() throws {
        let gt = Self.trajectory([1, 2, 3, 4], name: "gt.txt")
        let far = Self.trajectory([100, 101, 102], name: "est.txt")
        let e = #expect(throws: EvaluationError.self) { try TimestampAssociation.associate(reference: gt, estimate: far) }
        #expect(e?.message.contains("do not overlap") == true)
        #expect(e?.message.contains("est.txt") == true && e?.message.contains("gt.txt") == true)
        let partly = Self.trajectory([3.001, 4.002, 50], name: "est.txt")
        let f = #expect(throws: EvaluationError.self) { try TrajectoryEvaluation(estimate: partly, reference: gt) }
        #expect(f?.message == "only 2 of 3 poses of est.txt match gt.txt within 0.01 s; at least 3 are needed")
        #expect(throws: EvaluationError.self) {
            try TimestampAssociation.associate(reference: gt, estimate: Trajectory(poses: [], name: "empty"))
        }
    }

    @Test("RPE pairs: consecutive by distance, time and count; all pairs; seconds exact on ns")
    func rpePairs() {
        // Positions 0, 0.4, 0.8, ..., times 0, 0.1, 0.2, ...
        let t = Trajectory(poses: (0..<11).map { k in
            TrajectoryPose(time: Double(k) / 10, timeNs: Int64(k) * 100_000_000,
                           T_world_body: RigidTransform(translation: Vector3(0.4 * Double(k), 0, 0)))
        })
        // Path accumulates 0.4, 0.8, 1.2 ≥ 1 → index 3, then restarts from 0.
        #expect(RelativePoseError.pairs(of: t, delta: 1, unit: .meters, allPairs: false, tolerance: 0.1).map { [$0.0, $0.1] }
                == [[0, 3], [3, 6], [6, 9]])
        #expect(RelativePoseError.pairs(of: t, delta: 0.3, unit: .seconds, allPairs: false, tolerance: 0).map { [$0.0, $0.1] }
                == [[0, 3], [3, 6], [6, 9]])
        #expect(RelativePoseError.pairs(of: t, delta: 4, unit: .frames, allPairs: false, tolerance: 0).map { [$0.0, $0.1] }
                == [[0, 4], [4, 8]])
        #expect(RelativePoseError.pairs(of: t, delta: 8, unit: .frames, allPairs: true, tolerance: 0).map { [$0.0, $0.1] }
                == [[0, 8], [1, 9], [2, 10]])
        // All pairs by distance: the end closest to 1 m (2 steps = 0.8, 3 = 1.2: 0.8 is 0.2 away, kept only with tol ≥ 0.2).
        #expect(RelativePoseError.pairs(of: t, delta: 1, unit: .meters, allPairs: true, tolerance: 0.1).isEmpty)
        #expect(RelativePoseError.pairs(of: t, delta: 1.2, unit: .meters, allPairs: true, tolerance: 0.1).count == 8)
    }

    @Test("RPE of a rigidly moved, scaled copy is zero after sim3 and scales with 1/s in %, report renders")
    func rpeAndReport() throws {
        let gt = EvaluationFixtures.flight()
        let T = RigidTransform(rotation: Quaternion(rotationVector: Vector3(0.1, 0.2, 0.3)), translation: Vector3(1, 1, 1))
        let est = EvaluationFixtures.transformed(gt, by: T, scale: 2)
        var options = EvaluationOptions()
        options.alignment = .sim3
        let e = try TrajectoryEvaluation(estimate: est, reference: gt, options: options)
        let rpe = try #require(e.rpe)
        #expect(rpe.translation.max < 1e-9 && rpe.rotationDeg.max < 1e-9)
        #expect(e.report.associatedPoses == 300)
        options.alignment = .se3
        let unscaled = try TrajectoryEvaluation(estimate: est, reference: gt, options: options)
        let r = try #require(unscaled.rpe)
        #expect(r.rotationDeg.max < 1e-9)        // rotation drift is unaffected by scale
        // Each pair's translation error is |2·d − d| = d for straight-ish segments; in % ≈ 100.
        #expect(r.translationPercent.median > 60 && r.translationPercent.median < 101)
        let table = unscaled.report.table()
        #expect(table.contains("ATE translation (m)") && table.contains("RPE 1 m trans (%)") && table.contains("alignment  se3"))
        let json = try unscaled.report.jsonText()
        let decoded = try JSONDecoder().decode(EvaluationReport.self, from: Data(json.utf8))
        #expect(decoded.ate == unscaled.report.ate)
        #expect(decoded.options.alignment == .se3)
        // A delta longer than the whole trajectory: ATE still reported, RPE missing with a note.
        options.rpeDelta = 1000
        let long = try TrajectoryEvaluation(estimate: est, reference: gt, options: options)
        #expect(long.rpe == nil && long.report.notes.count == 1)
    }
}
