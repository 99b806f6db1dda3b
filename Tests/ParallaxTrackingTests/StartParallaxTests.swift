import ParallaxMath
import Testing
@testable import ParallaxTracking

/// `StartParallax`: the evidence that tells a slow translation from a hand turning in place before
/// a mono start (`TrackerConfiguration.steadyStartMaximumParallax`, 1 px).
@Suite("Start parallax")
struct StartParallaxTests {
    /// Points 2–4 m in front of the older camera, spread over a 90° field of view (deterministic).
    private static let points: [Vector3] = (0..<120).map { k in
        let u = Double(k % 12) / 11 - 0.5, v = Double(k / 12) / 9 - 0.5
        let depth = 2 + 2 * Double((k * 7) % 11) / 10
        return Vector3(1.6 * u * depth, 1.0 * v * depth, depth)
    }

    /// Observations of `points` from the older camera and from one moved by `R_cur_prev`, `t`.
    private static func views(rotation: Matrix3, translation t: Vector3)
        -> ([(id: Int, normalized: Vector2)], [(id: Int, normalized: Vector2)]) {
        var older: [(id: Int, normalized: Vector2)] = [], newer: [(id: Int, normalized: Vector2)] = []
        for (k, p) in points.enumerated() {
            let q = rotation * p + t
            older.append((k, Vector2(p.x / p.z, p.y / p.z)))
            newer.append((k, Vector2(q.x / q.z, q.y / q.z)))
        }
        return (older, newer)
    }

    private let focal = 458.0

    @Test("A turn carried by a slightly wrong rotation leaves almost nothing")
    func rotationErrorIsRemoved() throws {
        let turn = SO3.exp(Vector3(0.05, -0.2, 0.03))
        let (older, newer) = Self.views(rotation: turn, translation: .zero)
        // The gyro's rotation is 0.005 rad off about each axis (a bias of 0.01 rad/s over 0.5 s), which
        // moves the features by 1–4 px, the turn about the optical axis most at the image's edges.
        let gyro = SO3.exp(Vector3(0.005, 0.005, -0.005)) * turn
        let p = try #require(StartParallax.median(from: older, to: newer, rotation: gyro, focalLength: focal, minimumFeatures: 15))
        #expect(p < 0.05)
        let exact = try #require(StartParallax.median(from: older, to: newer, rotation: turn, focalLength: focal, minimumFeatures: 15))
        #expect(exact < 1e-9)
    }

    @Test("A slow translation adds up beyond the threshold; a hand's drift does not")
    func translationIsSeen() throws {
        let turn = SO3.exp(Vector3(0.02, 0.1, 0))
        // A drone at 0.15 m/s over the half-second window: 7.5 cm sideways.
        let (older, newer) = Self.views(rotation: turn, translation: Vector3(0.075, 0, 0.01))
        let drone = try #require(StartParallax.median(from: older, to: newer, rotation: turn, focalLength: focal, minimumFeatures: 15))
        #expect(drone > 2 * TrackerConfiguration().steadyStartMaximumParallax)
        // A hand drifting 5 mm meanwhile.
        let (o2, n2) = Self.views(rotation: turn, translation: Vector3(0.005, 0.002, 0))
        let hand = try #require(StartParallax.median(from: o2, to: n2, rotation: turn, focalLength: focal, minimumFeatures: 15))
        #expect(hand < 0.5 * TrackerConfiguration().steadyStartMaximumParallax)
    }

    @Test("Too few common features give no answer")
    func tooFewFeatures() {
        let (older, newer) = Self.views(rotation: .identity, translation: Vector3(0.1, 0, 0))
        #expect(StartParallax.median(from: Array(older.prefix(10)), to: newer, rotation: .identity,
                                     focalLength: focal, minimumFeatures: 15) == nil)
        #expect(StartParallax.median(from: older, to: [], rotation: .identity, focalLength: focal, minimumFeatures: 15) == nil)
    }
}
