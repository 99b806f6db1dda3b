import Foundation
import ParallaxDatasets
import ParallaxEvaluation
import ParallaxTracking
import Testing

/// Online camera–IMU time-offset estimation (Li & Mourikis, IJRR 2014): image stamps shifted by
/// 8 ms against the IMU clock, not stated in `sensor.yaml`, on a simulated hand-held mono walk
/// (TUM-VI room3, 20 s). Fixed at zero the offset costs the tracker its consistency (the same 30 s
/// walk: 1.11 m ATE, 28 % normal); estimated, the tracker recovers it (7.83 ms since frames wait
/// for the IMU to pass their exposure time; 8.94 ms before, when propagation extrapolated).

@Suite("Camera–IMU time offset", .serialized)
struct TimeOffsetTests {
    static let trueOffset = 0.008

    static func run(estimate: Bool) throws -> DatasetRunner.Summary {
        let (loaded, name) = try TrackingFixtures.simulated(trajectory: "tumvi_room3", stereo: false,
                                                            timeOffset: trueOffset, duration: 20)
        let dataset = try #require(loaded, "\(name)")
        var configuration = TrackerConfiguration(mode: .mono)
        configuration.timeOffset.estimate = estimate
        return try DatasetRunner(dataset: dataset, configuration: configuration).run()
    }

    @Test("An 8 ms offset is estimated within 0.5 ms and tracking stays within 5 cm", .needsSharedTrajectories)
    func estimatesOffset() throws {
        let estimated = try Self.run(estimate: true)
        let fixed = try Self.run(estimate: false)
        let offset = try #require(estimated.finalTimeOffset)
        let ate = try #require(try estimated.evaluation()).report.ate.rmse
        let ateFixed = try #require(try fixed.evaluation()).report.ate.rmse
        print(String(format: "time offset: estimated %.3f ms (true %.1f), ATE %.4f m (offset fixed at 0: %.4f m), normal %.1f %%",
                     offset * 1e3, Self.trueOffset * 1e3, ate, ateFixed, 100 * estimated.normalFraction))
        #expect(abs(offset - Self.trueOffset) <= 0.0005)
        #expect(ate <= 0.05)
        #expect(ate < ateFixed)
        #expect(fixed.finalTimeOffset == 0)
    }
}
