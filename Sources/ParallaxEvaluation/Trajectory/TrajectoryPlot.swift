import Foundation
import ParallaxDatasets
import ParallaxImaging
import ParallaxMath

/// A top view (x–y plane of the reference world) of the ground truth and the aligned estimate:
/// equal scale on both axes, a labelled metre grid, a legend and the ATE in the title.
public enum TrajectoryPlot {
    static let background = RGBA8(r: 255, g: 255, b: 255)
    static let gridColor = RGBA8(r: 225, g: 225, b: 225)
    static let axisColor = RGBA8(r: 60, g: 60, b: 60)
    static let referenceColor = RGBA8(r: 20, g: 20, b: 20)
    static let estimateColor = RGBA8(r: 220, g: 50, b: 40)

    /// Renders the plot of an evaluation (associated ground truth and aligned estimate).
    public static func render(_ evaluation: TrajectoryEvaluation, width: Int = 960, height: Int = 800) -> RGBAImage {
        let report = evaluation.report
        let title = String(format: "ATE rmse %.4f m (%@ alignment, %d poses)",
                           report.ate.rmse, report.alignment.method.rawValue, report.associatedPoses)
        return render(
            reference: evaluation.associated.reference.positions, estimate: evaluation.ate.alignedEstimate.positions,
            labels: ("ground truth", "estimate (\(report.alignment.method.rawValue))"), title: title,
            width: width, height: height)
    }

    /// Renders two position tracks seen from above (x right, y up).
    public static func render(
        reference: [Vector3], estimate: [Vector3], labels: (String, String), title: String,
        width: Int = 960, height: Int = 800
    ) -> RGBAImage {
        var image = RGBAImage(width: width, height: height, fill: background)
        let left = 80.0, right = 20.0, top = 40.0, bottom = 50.0
        let plotW = Double(width) - left - right, plotH = Double(height) - top - bottom
        let all = reference + estimate
        guard plotW > 10, plotH > 10, let first = all.first else { return image }
        var lo = Vector2(first.x, first.y), hi = lo
        for p in all where p.x.isFinite && p.y.isFinite {
            lo = Vector2(min(lo.x, p.x), min(lo.y, p.y))
            hi = Vector2(max(hi.x, p.x), max(hi.y, p.y))
        }
        // Equal metres per pixel on both axes, with a 5 % margin; at least 1 m across.
        let span = max((hi.x - lo.x) / plotW, (hi.y - lo.y) / plotH, 1 / min(plotW, plotH)) * 1.1
        let centre = (lo + hi) / 2
        let x0 = centre.x - span * plotW / 2, y0 = centre.y - span * plotH / 2
        func pixel(_ p: Vector3) -> Vector2 { Vector2(left + (p.x - x0) / span, top + plotH - (p.y - y0) / span) }

        // Grid every 1, 2 or 5 × 10^k metres, about eight lines across the wider side.
        let step = niceStep(span * max(plotW, plotH) / 8)
        var gx = (x0 / step).rounded(.up) * step
        while gx <= x0 + span * plotW {
            let px = left + (gx - x0) / span
            image.drawLine(from: Vector2(px, top), to: Vector2(px, top + plotH), color: gridColor)
            let label = tickLabel(gx, step: step)
            image.drawText(label, at: Vector2(px - Double(BitmapFont.measure(label).width) / 2, top + plotH + 6), color: axisColor)
            gx += step
        }
        var gy = (y0 / step).rounded(.up) * step
        while gy <= y0 + span * plotH {
            let py = top + plotH - (gy - y0) / span
            image.drawLine(from: Vector2(left, py), to: Vector2(left + plotW, py), color: gridColor)
            let label = tickLabel(gy, step: step)
            image.drawText(label, at: Vector2(left - 6 - Double(BitmapFont.measure(label).width), py - 3), color: axisColor)
            gy += step
        }
        image.strokeRect(x: Int(left), y: Int(top), width: Int(plotW), height: Int(plotH), color: axisColor)
        image.drawText("x [m]", at: Vector2(left + plotW / 2 - 15, top + plotH + 24), color: axisColor, scale: 2)
        image.drawText("y [m]", at: Vector2(8, top - 28), color: axisColor, scale: 2)
        image.drawText(title, at: Vector2(left + 60, 10), color: axisColor, scale: 2)

        image.drawPolyline(reference.map(pixel), color: referenceColor, thickness: 2)
        image.drawPolyline(estimate.map(pixel), color: estimateColor, thickness: 2)
        if let start = reference.first { image.fillCircle(center: pixel(start), radius: 4, color: referenceColor) }
        if let start = estimate.first { image.fillCircle(center: pixel(start), radius: 4, color: estimateColor) }

        // Legend in the top-right corner of the plot area.
        let legendW = Double(max(BitmapFont.measure(labels.0, scale: 2).width, BitmapFont.measure(labels.1, scale: 2).width)) + 60
        let lx = left + plotW - legendW - 10, ly = top + 10
        image.fillRect(x: Int(lx), y: Int(ly), width: Int(legendW), height: 50, color: RGBA8(r: 255, g: 255, b: 255, a: 230))
        image.strokeRect(x: Int(lx), y: Int(ly), width: Int(legendW), height: 50, color: gridColor)
        for (k, (label, color)) in [(labels.0, referenceColor), (labels.1, estimateColor)].enumerated() {
            let y = ly + 15 + Double(k) * 22
            image.drawLine(from: Vector2(lx + 8, y), to: Vector2(lx + 40, y), color: color, thickness: 3)
            image.drawText(label, at: Vector2(lx + 48, y - 7), color: axisColor, scale: 2)
        }
        return image
    }

    /// Renders and writes the plot as PNG.
    public static func write(_ evaluation: TrajectoryEvaluation, to url: URL) throws {
        try PNG.write(.rgba8(render(evaluation)), to: url)
    }

    /// The smallest of 1, 2, 5 × 10^k that is at least `raw`.
    static func niceStep(_ raw: Double) -> Double {
        guard raw > 0, raw.isFinite else { return 1 }
        let power = pow(10, (log10(raw)).rounded(.down))
        for m in [1.0, 2, 5, 10] where m * power >= raw { return m * power }
        return 10 * power
    }

    /// A tick value with just enough decimals for `step`.
    static func tickLabel(_ value: Double, step: Double) -> String {
        let decimals = max(0, Int((-log10(step)).rounded(.up)))
        let text = String(format: "%.\(decimals)f", abs(value) < step / 1e6 ? 0 : value)
        return text
    }
}
