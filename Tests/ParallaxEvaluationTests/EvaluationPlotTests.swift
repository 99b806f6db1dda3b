import Foundation
import ParallaxImaging
import ParallaxMath
import Testing
import ParallaxDatasets
@testable import ParallaxEvaluation

@Suite("Evaluation: top-view plot")
struct EvaluationPlotTests {
    @Test("The plot shows both tracks in their colours, a grid and a legend, and round-trips through PNG")
    func plot() throws {
        let gt = EvaluationFixtures.flight()
        let est = EvaluationFixtures.transformed(
            gt, by: RigidTransform(rotation: Quaternion(axis: Vector3(0, 0, 1), angle: 0.5), translation: Vector3(2, 0, 0)), sigma: 0.05)
        let evaluation = try TrajectoryEvaluation(estimate: est, reference: gt)
        let image = TrajectoryPlot.render(evaluation, width: 640, height: 480)
        #expect(image.width == 640 && image.height == 480)
        func count(_ c: RGBA8) -> Int { image.pixels.filter { $0 == c }.count }
        #expect(count(TrajectoryPlot.referenceColor) > 300)
        #expect(count(TrajectoryPlot.estimateColor) > 300)
        #expect(count(TrajectoryPlot.gridColor) > 500)
        #expect(count(TrajectoryPlot.background) > 640 * 480 / 2)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-plot-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: url) }
        try TrajectoryPlot.write(evaluation, to: url)
        let back = try PNG.read(contentsOf: url)
        #expect(back.width == 960 && back.height == 800)
    }

    @Test("Grid steps are 1, 2 or 5 × 10^k")
    func niceSteps() {
        #expect(TrajectoryPlot.niceStep(0.7) == 1)
        #expect(TrajectoryPlot.niceStep(1.3) == 2)
        #expect(TrajectoryPlot.niceStep(3) == 5)
        #expect(abs(TrajectoryPlot.niceStep(0.031) - 0.05) < 1e-15)
        #expect(TrajectoryPlot.niceStep(60) == 100)
        #expect(TrajectoryPlot.tickLabel(-0.0000001, step: 0.5) == "0.0")
    }
}
