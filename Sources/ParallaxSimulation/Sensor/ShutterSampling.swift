import Foundation

/// When one camera frame is rendered and how the renders combine into its rows.
///
/// Every row `v` integrates light over its own exposure window (see ``SensorEffects`` for the
/// times). The frame is rendered at `count` equally spaced instants spanning the union of all
/// windows, and the scene is taken to move linearly between consecutive renders; a row's value is
/// then the average, over its window, of that piecewise-linear blend of renders: with
/// `hat_j` the linear-interpolation ("tent") weight of render `j`,
///
///     I_v = (1/e) ∫_{t_v − e/2}^{t_v + e/2} Σ_j hat_j(τ) I_j dτ        (e > 0)
///     I_v = Σ_j hat_j(t_v) I_j                                       (e = 0)
///
/// so a global-shutter blur is a (trapezoid-weighted) average of sub-frames and a rolling shutter
/// without exposure blends the two renders nearest each row's instant.
public struct ShutterSampling: Sendable, Equatable {
    /// Render instants (s, IMU clock), increasing; one instant when nothing moves within a frame.
    public let renderTimes: [Double]
    /// Per image row: the renders it uses and their weights (summing to 1).
    public let rowWeights: [[RenderWeight]]

    /// One render's share of a row.
    public struct RenderWeight: Sendable, Equatable {
        /// Index into ``ShutterSampling/renderTimes``.
        public var render: Int
        /// Weight in (0, 1].
        public var weight: Float
    }

    /// The sampling of a frame whose middle row's exposure is centred on `time`.
    /// - Parameters:
    ///   - exposure: exposure time `e` (s).
    ///   - readout: rolling-shutter readout `R` (s); row `v` is at `time + (v − (rows − 1)/2) · R/rows`.
    ///   - rows: image height.
    ///   - pixelSpeed: an upper estimate of image motion (px/s) during the frame.
    ///   - pixelsPerRender: image motion allowed between consecutive renders.
    ///   - maxRenders: cap on the number of renders.
    public init(time: Double, exposure: Double, readout: Double, rows: Int, pixelSpeed: Double,
                pixelsPerRender: Double, maxRenders: Int) {
        let lineDelay = readout / Double(rows)
        let firstRow = time - Double(rows - 1) / 2 * lineDelay
        let span = Double(rows - 1) * lineDelay + exposure
        let motion = pixelSpeed * span
        let wanted = motion.isFinite ? Int((motion / pixelsPerRender).rounded(.up)) + 1 : maxRenders
        let count = span > 0 ? max(2, min(maxRenders, wanted)) : 1
        guard count > 1 else {
            renderTimes = [time]
            rowWeights = Array(repeating: [RenderWeight(render: 0, weight: 1)], count: rows)
            return
        }
        let start = firstRow - exposure / 2
        let step = span / Double(count - 1)
        renderTimes = (0..<count).map { start + Double($0) * step }
        var rowsOut: [[RenderWeight]] = []
        rowsOut.reserveCapacity(rows)
        for v in 0..<rows {
            let centre = firstRow + Double(v) * lineDelay
            var weights: [RenderWeight] = []
            for j in 0..<count {
                // Position of the window relative to render j, in units of the spacing.
                let lo = (centre - exposure / 2 - renderTimes[j]) / step
                let hi = (centre + exposure / 2 - renderTimes[j]) / step
                let w = exposure > 0 ? (Self.tentIntegral(hi) - Self.tentIntegral(lo)) * step / exposure
                                     : max(0, 1 - abs(lo))
                if w > 1e-7 { weights.append(RenderWeight(render: j, weight: Float(w))) }
            }
            let total = weights.reduce(Float(0)) { $0 + $1.weight }
            rowsOut.append(weights.map { RenderWeight(render: $0.render, weight: $0.weight / total) })
        }
        rowWeights = rowsOut
    }

    /// The first and last image row that use render `j` (nil when none does).
    public func rowsUsing(render j: Int) -> ClosedRange<Int>? {
        guard let first = rowWeights.firstIndex(where: { $0.contains { $0.render == j } }),
              let last = rowWeights.lastIndex(where: { $0.contains { $0.render == j } }) else { return nil }
        return first...last
    }

    /// ∫_{−∞}^{x} max(0, 1 − |s|) ds.
    static func tentIntegral(_ x: Double) -> Double {
        if x <= -1 { return 0 }
        if x <= 0 { return (x + 1) * (x + 1) / 2 }
        if x <= 1 { return 1 - (1 - x) * (1 - x) / 2 }
        return 1
    }
}
