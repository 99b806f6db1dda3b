import ParallaxMath
import Testing
@testable import ParallaxTracking

/// The older views kept for reported feature points: what is kept, thinned and forgotten, and that
/// they give the parallax the window alone lacks.
@Suite("Feature point history")
struct FeaturePointHistoryTests {
    /// A view of the point (0, 0, 2) from a camera at (x, 0, 0) looking along +z (identity rig).
    static func view(frame: Int, x: Double) -> FeaturePointHistory.View {
        let o = Observation(frame: frame, left: Vector2(-x / 2, 0), right: nil)
        return .init(observation: o, pose: (.identity, Vector3(x, 0, 0)))
    }

    @Test("Frozen views are thinned to the oldest, the newest and a spread between")
    func thinning() {
        var h = FeaturePointHistory()
        for frame in 1...30 {
            // A window of the last three frames, as the clones move on.
            let window = (max(1, frame - 2)...frame).map { f in Self.view(frame: f, x: 0.01 * Double(f)) }
            let views = h.record(7, window: window)
            #expect(views.count <= FeaturePointHistory.maximumFrozenViews + window.count)
        }
        let views = h.record(7, window: [])
        let frames = views.map(\.observation.frame)
        #expect(frames.count == FeaturePointHistory.maximumFrozenViews)
        #expect(frames.first == 1 && frames.last == 30)
        #expect(frames == frames.sorted())
        // Spread: no two kept frames closer than a third of the even spacing.
        let gaps = zip(frames.dropFirst(), frames).map { $0 - $1 }
        #expect(gaps.min() ?? 0 >= 29 / (FeaturePointHistory.maximumFrozenViews - 1) / 3)
    }

    /// The filter corrects the window after a view froze; the frozen view must follow, or it and
    /// the window describe two versions of the trajectory (wall points 2–3 cm too close on a
    /// simulated table walk).
    @Test("Frozen views move with the correction of the oldest clone both windows share")
    func followsCorrections() throws {
        func clone(_ frame: Int, _ r: Matrix3, _ p: Vector3) -> Clone {
            Clone(frame: frame, timestamp: Double(frame), rotation: r, position: p, rotationFE: r, positionFE: p)
        }
        var h = FeaturePointHistory()
        h.noteFilterAge(1)
        h.follow([clone(1, .identity, Vector3(0, 0, 0)), clone(2, .identity, Vector3(0.1, 0, 0))])
        _ = h.record(5, window: [Self.view(frame: 1, x: 0), Self.view(frame: 2, x: 0.1)])
        // Frame 1 leaves the window; an update then turns and shifts the window about clone 2.
        let turn = SO3.exp(Vector3(0, 0, 0.02))
        let p2 = Vector3(0.12, 0.01, 0)
        h.noteFilterAge(2)
        h.follow([clone(2, turn, p2), clone(3, turn, p2 + turn * Vector3(0.1, 0, 0))])
        let frozen = h.record(5, window: []).first { $0.observation.frame == 1 }
        let moved = try #require(frozen)
        // Rigidly with clone 2: R ← ΔR·R, p ← ΔR (p − p₂_before) + p₂_now.
        let expected = turn * (Vector3(0, 0, 0) - Vector3(0.1, 0, 0)) + p2
        #expect((moved.pose.1 - expected).norm < 1e-12)
        #expect((moved.pose.0 - turn).frobeniusNorm < 1e-12)
        // No correction, no change.
        h.noteFilterAge(3)
        h.follow([clone(2, turn, p2), clone(3, turn, p2 + turn * Vector3(0.1, 0, 0))])
        let again = try #require(h.record(5, window: []).first { $0.observation.frame == 1 })
        #expect((again.pose.1 - expected).norm < 1e-12)
    }

    @Test("Lost features and a restarted filter forget their views")
    func forgetting() {
        var h = FeaturePointHistory()
        h.noteFilterAge(1)
        _ = h.record(1, window: [Self.view(frame: 1, x: 0)])
        _ = h.record(2, window: [Self.view(frame: 1, x: 0)])
        h.keepOnly([2])
        h.noteFilterAge(2)
        #expect(h.record(1, window: []).isEmpty)
        #expect(h.record(2, window: []).count == 1)
        h.noteFilterAge(1)  // the filter started again
        #expect(h.record(2, window: []).isEmpty)
    }

    @Test("Old views triangulate a point the short window cannot")
    func parallax() {
        var h = FeaturePointHistory()
        var window: [FeaturePointHistory.View] = []
        for f in 1...20 {
            window = [Self.view(frame: f - 1, x: 0.004 * Double(f - 1)), Self.view(frame: f, x: 0.004 * Double(f))]
            _ = h.record(3, window: window)
        }
        let all = h.record(3, window: window)
        let recent = window
        let minParallax = 0.03
        #expect(Triangulation.triangulate(recent.map(\.observation), poses: recent.map(\.pose), rig: .identity,
                                          minParallax: minParallax) == nil)
        let x = Triangulation.triangulate(all.map(\.observation), poses: all.map(\.pose), rig: .identity, minParallax: minParallax)
        #expect(x.map { ($0 - Vector3(0, 0, 2)).norm < 1e-6 } == true)
    }
}
