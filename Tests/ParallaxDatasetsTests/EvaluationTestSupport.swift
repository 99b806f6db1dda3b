import Foundation
import ParallaxMath
@testable import ParallaxDatasets

/// SplitMix64 (Steele, Lea & Flood, OOPSLA 2014): a tiny seeded generator so that tests that
/// draw random numbers are reproducible.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A standard normal sample (Box–Muller).
    mutating func normal() -> Double {
        let u = Double.random(in: Double.ulpOfOne..<1, using: &self), v = Double.random(in: 0..<1, using: &self)
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }
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
