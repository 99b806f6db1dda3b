import Foundation
import ParallaxMath
import Testing
@testable import ParallaxTracking

/// ``AlignmentRayTable`` exists for speed only: it must give exactly the angular error of the
/// plain computation (centres, three-pass midpoint triangulation, capped angles), so the start's
/// searches land on the same answers to the last bit.
@Suite("Alignment ray table")
struct AlignmentRayTableTests {
    typealias Ray = VisualInertialAlignment.Ray

    /// The angular error computed plainly from the rays, as the alignment did before the table.
    static func plainError(_ theta: [Double], rays: [[Ray]], cap: Double, disparityOffset: Double) -> Double {
        var sum = 0.0, count = 0.0
        for original in rays {
            let list = disparityOffset == 0 ? original
                : original.map { (($0.d + $0.s * disparityOffset).normalized, $0.k, $0.t, $0.jba, $0.s) }
            let centres = VisualInertialAlignment.centres(list, theta)
            guard let x = VisualInertialAlignment.triangulate(list, centres: centres, reweightings: 2) else { continue }
            for (ray, c) in zip(list, centres) {
                let u = x - c
                let cosine = u.dot(ray.d) / max(1e-12, u.norm)
                let angle = cosine > 0 ? min(cap, acos(min(1, cosine))) : cap
                sum += angle * angle
                count += 1
            }
        }
        return count > 0 ? (sum / count).squareRoot() : .infinity
    }

    /// Features 2–6 m ahead seen from a camera moving at `speed` over a second, with bearing noise;
    /// every other feature also seen by a second camera 11 cm aside (its `s` non-zero), one feature
    /// with no rays and one with a single ray (a degenerate triangulation).
    static func rays(seed: UInt64) -> [[Ray]] {
        var rng = SplitMix64(seed: seed)
        let velocity = Vector3(0.4, -0.1, 0.05), gravity = Vector3(0.3, -9.7, 1.2)
        var features: [[Ray]] = [[]]
        for f in 0..<60 {
            let point = Vector3(rng.uniform(-2, 2), rng.uniform(-1.5, 1.5), rng.uniform(2, 6))
            var list: [Ray] = []
            for k in 0..<(f == 0 ? 1 : 12) {
                let t = Double(k) * 0.09
                let known = Vector3(rng.uniform(-0.02, 0.02), rng.uniform(-0.02, 0.02), rng.uniform(-0.02, 0.02))
                let centre = known + velocity * t + gravity * (0.5 * t * t)
                let noise = rng.gaussianVector() * 0.002
                list.append(((point - centre + noise).normalized, known, t, .identity, .zero))
                if f % 2 == 1 {
                    let aside = centre + Vector3(0.11, 0, 0)
                    let d = (point - aside).normalized
                    list.append((d, known + Vector3(0.11, 0, 0), t, .identity, Vector3(1, 0, 0) - d * d.x))
                }
            }
            features.append(list)
        }
        return features
    }

    @Test("gives the plain computation's angular error to the last bit", arguments: [UInt64(1), 2, 3])
    func bitIdentical(seed: UInt64) {
        let rays = Self.rays(seed: seed)
        let table = AlignmentRayTable(rays)
        let answers: [[Double]] = [[0.4, -0.1, 0.05, 0.3, -9.7, 1.2], [0.1, 0.2, 0, 0.5, -9.79, 0.1], [0, 0, 0, 0, -9.81, 0]]
        for theta in answers {
            for (cap, offset) in [(0.01, 0.0), (0.002, 0.0), (0.01, 0.003), (0.01, -0.01)] {
                let plain = Self.plainError(theta, rays: rays, cap: cap, disparityOffset: offset)
                let fast = table.angularError(theta, cap: cap, disparityOffset: offset)
                #expect(plain.bitPattern == fast.bitPattern, "θ \(theta), cap \(cap), offset \(offset): \(plain) vs \(fast)")
                #expect(plain.isFinite && plain > 0)
            }
        }
    }

    @Test("no rays give an infinite error, as the plain computation does")
    func empty() {
        #expect(AlignmentRayTable([]).angularError([0, 0, 0, 0, -9.81, 0]) == .infinity)
        #expect(AlignmentRayTable([[]]).angularError([0, 0, 0, 0, -9.81, 0]) == .infinity)
    }
}
