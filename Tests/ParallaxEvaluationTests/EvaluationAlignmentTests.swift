import Foundation
import ParallaxMath
import Testing
import ParallaxDatasets
@testable import ParallaxEvaluation

@Suite("Evaluation: alignment (Umeyama se3/sim3, posyaw)")
struct EvaluationAlignmentTests {
    static func pairs(_ reference: Trajectory, _ estimate: Trajectory) throws -> AssociatedTrajectories {
        try TimestampAssociation.associate(reference: reference, estimate: estimate)
    }

    @Test("A mirrored estimate still gets a proper rotation (Umeyama's reflection case)")
    func reflection() throws {
        let gt = EvaluationFixtures.flight()
        var mirrored = gt
        for i in mirrored.poses.indices { mirrored.poses[i].T_world_body.translation.x *= -1 }
        for method in [AlignmentMethod.se3, .sim3] {
            let a = try TrajectoryAlignment.estimate(method, estimate: mirrored.positions, reference: gt.positions)
            #expect(abs(a.rotation.determinant - 1) < 1e-12)
            #expect((a.rotation.transpose * a.rotation - .identity).frobeniusNorm < 1e-12)
            #expect(a.scale > 0)
            // Still the least-squares optimum over rotations: no small rotation about any axis improves it.
            let base = TrajectoryAlignment.sse(a, mirrored.positions, gt.positions)
            for axis in [Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1)] {
                for angle in [-1e-3, 1e-3] {
                    var b = a
                    b.rotation = Quaternion(axis: axis, angle: angle).rotationMatrix * a.rotation
                    b.translation = (gt.positions.reduce(.zero, +) - mirrored.positions.reduce(.zero, +).applying(b)) / Double(gt.count)
                    #expect(TrajectoryAlignment.sse(b, mirrored.positions, gt.positions) >= base)
                }
            }
        }
    }

    @Test("se3 and sim3 recover a known transform (and scale) exactly without noise")
    func recoverKnown() throws {
        let gt = EvaluationFixtures.flight()
        let T = RigidTransform(rotation: Quaternion(rotationVector: Vector3(0.3, -0.2, 1.1)), translation: Vector3(4, -1, 2))
        let est = EvaluationFixtures.transformed(gt, by: T)
        let se3 = try AbsoluteTrajectoryError(try Self.pairs(gt, est), alignment: .se3)
        #expect(se3.statistics.rmse < 1e-12)
        #expect((se3.alignment.rotation - T.inverse.rotationMatrix).frobeniusNorm < 1e-12)
        let scaled = EvaluationFixtures.transformed(gt, by: T, scale: 0.37)
        let sim3 = try AbsoluteTrajectoryError(try Self.pairs(gt, scaled), alignment: .sim3)
        #expect(abs(sim3.alignment.scale - 1 / 0.37) < 1e-10)
        #expect(sim3.statistics.rmse < 1e-12)
        let noScale = try AbsoluteTrajectoryError(try Self.pairs(gt, scaled), alignment: .se3)
        #expect(noScale.statistics.rmse > 0.5)
    }

    @Test("posyaw is invariant to a yaw + translation of the estimate's world frame")
    func posyawInvariance() throws {
        let gt = EvaluationFixtures.flight()
        let noisy = EvaluationFixtures.transformed(gt, by: .identity, sigma: 0.03, seed: 11)
        let base = try AbsoluteTrajectoryError(try Self.pairs(gt, noisy), alignment: .posyaw)
        #expect(base.statistics.rmse > 0.02)
        for (yaw, t) in [(0.7, Vector3(3, -2, 0.5)), (-2.9, Vector3(-10, 4, -1)), (.pi, Vector3(0, 0, 7))] {
            let offset = RigidTransform(rotation: Quaternion(axis: Vector3(0, 0, 1), angle: yaw), translation: t)
            let moved = EvaluationFixtures.transformed(noisy, by: offset)
            let result = try AbsoluteTrajectoryError(try Self.pairs(gt, moved), alignment: .posyaw)
            for (a, b) in zip(result.errors, base.errors) { #expect(abs(a - b) < 1e-10) }
            #expect(abs(result.alignment.translation.z - (base.alignment.translation.z - t.z)) < 1e-10)
            // The recovered yaw undoes the applied one.
            let r = result.alignment.rotation * Quaternion(axis: Vector3(0, 0, 1), angle: yaw).rotationMatrix
            #expect((r - base.alignment.rotation).frobeniusNorm < 1e-10)
            #expect(result.alignment.rotation[2, 2] == 1)
        }
    }

    @Test("posyaw equals se3 for a yaw-only offset, and never beats se3 or sim3")
    func posyawVersusSE3() throws {
        let gt = EvaluationFixtures.flight()
        let yawOnly = RigidTransform(rotation: Quaternion(axis: Vector3(0, 0, 1), angle: 1.2), translation: Vector3(1, 2, 3))
        let exact = EvaluationFixtures.transformed(gt, by: yawOnly)
        let p = try Self.pairs(gt, exact)
        let a = try AbsoluteTrajectoryError(p, alignment: .posyaw), b = try AbsoluteTrajectoryError(p, alignment: .se3)
        #expect(a.statistics.rmse < 1e-12 && b.statistics.rmse < 1e-12)
        #expect((a.alignment.rotation - b.alignment.rotation).frobeniusNorm < 1e-12)
        #expect((a.alignment.translation - b.alignment.translation).norm < 1e-11)

        let tilted = RigidTransform(rotation: Quaternion(rotationVector: Vector3(0.1, 0.05, 1.2)), translation: Vector3(1, 2, 3))
        let est = EvaluationFixtures.transformed(gt, by: tilted, scale: 1.1, sigma: 0.02)
        let q = try Self.pairs(gt, est)
        let yaw = try AbsoluteTrajectoryError(q, alignment: .posyaw).statistics.rmse
        let se3 = try AbsoluteTrajectoryError(q, alignment: .se3).statistics.rmse
        let sim3 = try AbsoluteTrajectoryError(q, alignment: .sim3).statistics.rmse
        let none = try AbsoluteTrajectoryError(q, alignment: .none).statistics.rmse
        #expect(sim3 < se3 && se3 < yaw && yaw < none)
    }

    @Test("posyaw's closed-form yaw is the minimum of a brute-force yaw search")
    func posyawBruteForce() throws {
        let gt = EvaluationFixtures.flight(count: 120)
        let est = EvaluationFixtures.transformed(gt, by: RigidTransform(
            rotation: Quaternion(rotationVector: Vector3(0.2, -0.1, 2.5)), translation: Vector3(-3, 1, 0)), sigma: 0.05)
        let p = try Self.pairs(gt, est)
        let closed = try AbsoluteTrajectoryError(p, alignment: .posyaw).statistics.sse
        let x = p.estimate.positions, y = p.reference.positions
        let mx = x.reduce(.zero, +) / Double(x.count), my = y.reduce(.zero, +) / Double(y.count)
        func sse(_ theta: Double) -> Double {
            let r = Quaternion(axis: Vector3(0, 0, 1), angle: theta)
            return zip(x, y).reduce(0) { $0 + (r.act($1.0 - mx) - ($1.1 - my)).squaredNorm }
        }
        var best = Double.infinity
        for k in 0..<3600 { best = min(best, sse(Double(k) * 2 * .pi / 3600 - .pi)) }
        #expect(closed <= best + 1e-9)
        #expect(closed > best * (1 - 1e-4))   // the grid (0.1° steps) gets close to it
    }

    @Test("Degenerate and too-small inputs give clear errors")
    func degenerate() throws {
        let line = (0..<10).map { Vector3(Double($0), 0, 0) }
        #expect(throws: EvaluationError.self) { try TrajectoryAlignment.estimate(.se3, estimate: line, reference: line) }
        let vertical = (0..<10).map { Vector3(1, 2, Double($0)) }
        let e = #expect(throws: EvaluationError.self) { try TrajectoryAlignment.estimate(.posyaw, estimate: vertical, reference: vertical) }
        #expect(e?.message.contains("does not move horizontally") == true)
        let two = [Vector3(0, 0, 0), Vector3(1, 0, 0)]
        let f = #expect(throws: EvaluationError.self) { try TrajectoryAlignment.estimate(.sim3, estimate: two, reference: two) }
        #expect(f?.message == "sim3 alignment needs at least 3 associated poses, found 2")
        #expect(try TrajectoryAlignment.estimate(.none, estimate: two, reference: two) == .identity)
    }
}

extension TrajectoryAlignment {
    /// Sum of squared position differences after applying `a` to `x`.
    static func sse(_ a: TrajectoryAlignment, _ x: [Vector3], _ y: [Vector3]) -> Double {
        zip(x, y).reduce(0) { $0 + (a.apply($1.0) - $1.1).squaredNorm }
    }
}

extension SIMD3 where Scalar == Double {
    /// `scale · R · self` of an alignment, without its translation (sum of points → sum of images minus n·t).
    func applying(_ a: TrajectoryAlignment) -> Vector3 { a.rotation * (a.scale * self) }
}
