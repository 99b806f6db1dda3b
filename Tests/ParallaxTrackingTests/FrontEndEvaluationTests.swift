import ParallaxTracking
import ParallaxEvaluation
import Testing

/// The front-end measured on its own: tracks triangulated with the simulator's true poses.
/// The simulator renders with the exact calibration, so residuals are the tracker's own error
/// (KLT localisation, drift, wrong matches); a bias in the mean residual would point at a
/// mismatch between the calibration the tracker uses and the images.
@Suite("Front-end against true poses", .serialized, .needsSharedTrajectories)
struct FrontEndEvaluationTests {
    @Test("tracks on the simulated hall walk reproject within a fraction of a pixel", arguments: [
        TrackerConfiguration.Mode.mono, .stereo,
    ])
    func subpixelTracks(mode: TrackerConfiguration.Mode) throws {
        let (simulated, name) = try TrackingFixtures.simulated(trajectory: "udel_gore")
        let dataset = try #require(simulated, "\(name)")
        let report = try FrontEndEvaluation(dataset: dataset, configuration: TrackerConfiguration(mode: mode))
            .run(from: 0, to: 10)
        print("\(name) \(mode.rawValue), first 10 s:\n\(report.description)")
        // Short track pieces with little parallax do not triangulate (about a fifth of them here);
        // what matters is that most observations get a residual.
        #expect(report.windows >= 1000)
        #expect(report.leftErrors.count >= 20_000)
        #expect(FrontEndEvaluation.Report.rms(report.leftErrors) < 0.3)
        #expect(abs(report.meanSigned.x) < 0.05 && abs(report.meanSigned.y) < 0.05)
        let outliers = report.leftErrors.filter { $0 > 2 }.count
        #expect(outliers * 100 < report.leftErrors.count)
        if mode == .stereo {
            #expect(!report.rightErrors.isEmpty)
            // Before the stereo matcher's agreement check one match in five was off by > 2 px here.
            #expect(FrontEndEvaluation.Report.rms(report.rightErrors) < 0.5)
            #expect(report.rightErrors.filter { $0 > 2 }.count * 100 < report.rightErrors.count)
        } else {
            #expect(report.rightErrors.isEmpty)
        }
    }
}
