import Foundation
import ParallaxEvaluation
import ParallaxMapping
import ParallaxMath
import ParallaxTracking
import Testing

/// The tracker's tilt against its own covariance on the hand-held TUM-VI room3 walk (mono,
/// simulated, 30 s), the walk whose tilt wandered by 0.4° while the filter claimed 0.03°: the
/// propagator held each IMU interval's specific force at the interval's starting rotation, an
/// error of |a||ω|Δt/2 in fast turns. With the closed-form integration the tilt NEES has a median
/// of 2.1 (χ²₂: 1.39); before, 21.5.
@Suite("Tilt consistency on a hand-held walk", .serialized)
struct TiltConsistencyTests {
    @Test("room3: the tilt NEES stays near χ²₂ and the tilt error small",
          .enabled(if: MappingFixtures.hasTrajectories, "needs ../shared/trajectories"))
    func handheldTiltIsConsistent() throws {
        let data = try MappingFixtures.simulated(trajectory: "tumvi_room3", stereo: false, duration: 30)
        let mapper = WorldMapper(camera: try data.cameras[0].makeCameraModel())
        let samples = try MappedReplay(dataset: data, mode: .mono).run(mapper: mapper)
        let tilt = TiltConsistency(samples: samples)
        let settled = tilt.samples.filter { $0.time >= 5 }
        #expect(settled.count > 400)
        let median = try #require(tilt.medianNEES)
        let p90Error = SampleStatistics.quantile(settled.map(\.error), 0.9) * 180 / .pi
        print(String(format: "room3 tilt NEES median %.2f, %.0f %% over 5.99; tilt error after 5 s p90 %.3f°",
                     median, 100 * (tilt.fractionOver95 ?? 1), p90Error))
        // Floors: 3× the χ²₂ median (measured 2.1, was 21.5), and a 0.15° tilt error at the 90th
        // percentile after the first 5 s (was 0.38° at 15 s).
        #expect(median <= 3 * TiltConsistency.chiSquaredMedian)
        #expect(p90Error <= 0.15)
    }
}
