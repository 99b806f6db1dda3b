import Foundation
import ParallaxMath
import ParallaxDatasets
@testable import ParallaxEvaluation

/// The shared seeded generator (ParallaxMath's SplitMix64).
typealias SeededGenerator = SplitMix64

extension SplitMix64 {
    /// A standard normal sample.
    mutating func normal() -> Double { gaussian() }
}

enum EvaluationFixtures {
    /// A wiggly 3-D flight: a loop with height and heading changes, sampled at 20 Hz.
    static func flight(count: Int = 300, start: Double = 100) -> Trajectory {
        let poses = (0..<count).map { k -> TrajectoryPose in
            let t = Double(k) * 0.05
            let p = Vector3(3 * cos(0.3 * t), 2 * sin(0.45 * t), 1 + 0.4 * sin(0.7 * t))
            let q = Quaternion(axis: Vector3(0, 0, 1), angle: 0.3 * t) * Quaternion(axis: Vector3(1, 0.2, 0), angle: 0.2 * sin(t))
            let ns = Int64(start * 1e9) + Int64(k) * 50_000_000
            return TrajectoryPose(time: Double(ns) / 1e9, timeNs: ns, T_world_body: RigidTransform(rotation: q, translation: p))
        }
        return Trajectory(poses: poses, name: "flight")
    }

    /// `trajectory` with every pose moved by `T` on the left (a change of world frame),
    /// positions scaled by `scale` first, and Gaussian position noise of `sigma` metres.
    static func transformed(_ trajectory: Trajectory, by T: RigidTransform, scale: Double = 1, sigma: Double = 0,
                            seed: UInt64 = 7) -> Trajectory {
        var rng = SeededGenerator(seed: seed)
        var out = trajectory
        out.name = "estimate"
        for i in out.poses.indices {
            let pose = out.poses[i].T_world_body
            let noise = Vector3(rng.normal(), rng.normal(), rng.normal()) * sigma
            let moved = T * RigidTransform(rotation: pose.rotation, translation: pose.translation * scale + noise)
            out.poses[i].T_world_body = moved
        }
        return out
    }
}

/// Datasets the evaluation tests run on, found relative to this file.
enum EvaluationTestData {
    /// The repository root (two levels above this test folder).
    static let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    /// The small simulated dataset with truth, in the repository.
    static let sample = repoRoot.appendingPathComponent("Datasets/sample")
    /// The real EuRoC V1_01 snippet in the team's shared folder beside the checkout.
    static let eurocSnippet = repoRoot.deletingLastPathComponent().appendingPathComponent("shared/datasets/euroc-v101-micro")
    /// Whether the EuRoC snippet is there.
    static var hasEurocSnippet: Bool {
        FileManager.default.fileExists(atPath: eurocSnippet.appendingPathComponent("mav0").path)
    }
}
