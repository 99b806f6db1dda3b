import Foundation
import ParallaxDatasets
import ParallaxEvaluation
import ParallaxMath
import Testing
@testable import ParallaxTracking

/// The feature points reported across a hand-held start. The simulated walk along TUM-VI room2
/// (the hand-held accuracy fixture, ideal sensor) starts with tremor: the tracker holds its
/// velocity at zero while the hand drifts by 1–2 cm, so the first points are triangulated over a
/// baseline the filter got wrong. Their depths were 30–60 % off (median) over the first seconds,
/// and the AR session's planes fitted to them sat 8–43 cm from the true ceiling. Each point now
/// carries that doubt (`TrackedFeaturePoint.motionDepthSigma`), and the session's plane map admits
/// only points whose depth σ is within 20 % of their distance.
///
/// Error of a point: its distance to the nearest true surface (the scene's planes, as `evaluate
/// planes` measures it; points on the plant and the mug are on no plane and count as errors too),
/// over its distance to the camera, after the posyaw alignment of the trajectory to the truth.
@Suite("Points across a hand-held start", .serialized)
struct HandheldStartPointsTests {
    @Test("Points triangulated across the start's velocity holds are flagged", .needsSharedTrajectories)
    func startPointsAreFlagged() throws {
        let (loaded, name) = try TrackingFixtures.simulated(trajectory: "tumvi_room2", stereo: false)
        let dataset = try #require(loaded, "\(name)")
        let root = dataset.mav0.deletingLastPathComponent()
        let truth = try PlaneTruthFile.read(contentsOf: root.appendingPathComponent("truth/planes.json"))
        var samples: [(time: Double, point: Vector3, range: Double, doubt: Double)] = []
        let summary = try DatasetRunner(dataset: dataset, configuration: TrackerConfiguration(mode: .mono)).run(from: nil, to: 8) { r, _ in
            guard r.trackingState == .normal, let camera = r.T_world_camera?.translation else { return }
            for p in r.featurePoints {
                let range = (p.position_world - camera).norm
                let c = p.covariance ?? .zero
                let sigma = (c[0, 0] + c[1, 1] + c[2, 2] + p.motionDepthSigma * p.motionDepthSigma).squareRoot()
                samples.append((r.timestamp, p.position_world, range, sigma / range))
            }
        }
        let alignment = try #require(try summary.evaluation()).ate.alignment
        let start = try #require(samples.first?.time)
        let errors = samples.map { s in
            PlaneMapQualityRecorder.distance(alignment.rotation * s.point + alignment.translation, toNearestOf: truth) / s.range
        }
        let admitted = zip(samples, errors).filter { $0.0.doubt <= 0.2 }.map(\.1)
        let early = zip(samples, errors).filter { $0.0.time - start < 3 }
        let badEarly = early.filter { $0.1 > 0.1 }
        let flaggedBadEarly = badEarly.filter { $0.0.doubt > 0.2 }
        print(String(format: "%@ first 8 s: %d points (error median %.3f, p90 %.3f), %d admitted, admitted error median %.3f p90 %.3f; "
                     + "first 3 s of normal: %d points, %d over 10 %% off, %d of those flagged",
                     name, samples.count, SampleStatistics.quantile(errors, 0.5), SampleStatistics.quantile(errors, 0.9), admitted.count, SampleStatistics.quantile(admitted, 0.5), SampleStatistics.quantile(admitted, 0.9),
                     early.count, badEarly.count, flaggedBadEarly.count))
        #expect(!badEarly.isEmpty, "the start gives wrong points to flag")
        #expect(Double(flaggedBadEarly.count) >= 0.9 * Double(badEarly.count))
        // (SampleStatistics.quantile gives 0 for no values: the admitted points must exist.)
        #expect(!admitted.isEmpty)
        #expect(SampleStatistics.quantile(admitted, 0.5) <= 0.01)
        #expect(SampleStatistics.quantile(admitted, 0.9) <= 0.05)
    }
}
