import Testing
@testable import ParallaxTracking

/// The record of pose losses after the start that `parallax replay` prints.
struct PoseRecoveriesTests {
    @Test func framesBeforeTheFirstPoseAreNoLoss() {
        var r = PoseRecoveries()
        for t in stride(from: 0.0, to: 1.0, by: 0.05) { r.add(timestamp: t, hasPose: false) }
        r.add(timestamp: 1.0, hasPose: true)
        #expect(r.losses == 0 && r.durations.isEmpty)
        #expect(r.report == "pose lost after the start: never")
    }

    @Test func eachLossLastsUntilTheNextPose() {
        var r = PoseRecoveries()
        let frames: [(Double, Bool)] = [(0, true), (0.05, true), (0.10, false), (0.15, false), (1.30, true),
                                        (1.35, true), (2.0, false), (2.55, true), (3.0, false), (3.05, false)]
        for (t, pose) in frames { r.add(timestamp: t, hasPose: pose) }
        #expect(r.durations.count == 2)
        #expect(abs(r.durations[0] - 1.20) < 1e-12 && abs(r.durations[1] - 0.55) < 1e-12)
        #expect(r.lostSince == 3.0)
        #expect(r.losses == 3)
        #expect(r.report == "pose lost after the start: 3 times, back after 1.20 s (median), 1.20 s (longest), "
            + "the last loss not recovered by the end")
    }
}
