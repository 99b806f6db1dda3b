import Foundation
import ParallaxARView
import ParallaxMath

/// How still a virtual object stays: its anchor origin projected through each frame's camera,
/// compared with the projection of the *true* static point it was placed on through the
/// ground-truth camera.
///
/// At placement (frame k₀) the anchor's position in the estimated camera frame is carried into
/// the true world with the true camera pose: X_W = T_W_C,true(k₀) · T_A_C,est(k₀)⁻¹ · X_A. Then
/// for every frame the residual r(k) = π(T_A_C,est(k)⁻¹ X_A) − π(T_W_C,true(k)⁻¹ X_W) (pixels)
/// is what a viewer sees as the object sliding over the real surface.
public struct AnchorJitter: Sendable, Codable, Equatable {
    /// Frames measured (anchor in front of both cameras).
    public var frames: Int
    /// RMS of |r| (px): total misplacement (drift + jitter).
    public var rmsErrorPx: Double
    /// Standard deviation of r about its mean (px, both axes combined).
    public var stdPx: Double
    /// Standard deviation of the frame-to-frame change of r (px): the visible jitter.
    public var frameToFramePx: Double
    /// Largest |r| (px).
    public var maxErrorPx: Double

    /// Summarises residuals.
    public init(residuals r: [Vector2]) {
        frames = r.count
        func sq(_ v: Vector2) -> Double { v.x * v.x + v.y * v.y }
        func spread(_ v: [Vector2]) -> Double {
            guard !v.isEmpty else { return 0 }
            var mean = Vector2.zero
            for x in v { mean += x }
            mean /= Double(v.count)
            var s = 0.0
            for x in v { s += sq(x - mean) }
            return (s / Double(v.count)).squareRoot()
        }
        var total = 0.0, worst = 0.0
        for x in r { total += sq(x); worst = max(worst, sq(x).squareRoot()) }
        rmsErrorPx = r.isEmpty ? 0 : (total / Double(r.count)).squareRoot()
        maxErrorPx = worst
        stdPx = spread(r)
        var d: [Vector2] = []
        if r.count > 1 { for i in 1..<r.count { d.append(r[i] - r[i - 1]) } }
        frameToFramePx = spread(d)
    }
}

extension ARReplayReport {
    /// Anchor stability against ground truth: the summary of ``ARReplayReport/anchorResiduals``
    /// (nil when there are none: no ground truth or no content placed).
    public var jitter: AnchorJitter? { anchorResiduals.isEmpty ? nil : AnchorJitter(residuals: anchorResiduals) }
}
