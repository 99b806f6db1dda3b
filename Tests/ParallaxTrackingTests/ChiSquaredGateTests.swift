import Foundation
import ParallaxMath
import Testing
@testable import ParallaxTracking

/// The MSCKF χ² gate's early accept (γ ≤ ‖r‖²/σ² because S ⪰ σ²I) must never change a decision:
/// on one real feature system, scaled residuals from far inside to far outside the gate get the same
/// verdict as the full γ = rᵀ (H P Hᵀ + σ²I)⁻¹ r computed on the gathered covariance block.
@Suite("χ² gate: the early accept agrees with the full Mahalanobis test")
struct ChiSquaredGateTests {
    @Test("same verdict for residuals across the threshold, both sides exercised")
    func earlyAcceptIsExact() throws {
        let (s, obs, x) = ExtrinsicJacobianTests.setup()
        var cloneIndex: [Int: Int] = [:]
        for (k, c) in s.clones.enumerated() { cloneIndex[c.frame] = k }
        var f = try #require(UpdaterHelper.linearize(obs, point: x, cloneIndex: cloneIndex, state: s))
        let (ho, ro) = try #require(UpdaterHelper.nullSpaceProject(hf: &f.hf, hx: &f.hx, r: &f.residual,
                                                                   rows: f.rows, columns: f.columns))
        let rows = f.rows - 3
        let columns = UpdaterHelper.CloneColumns(involved: f.involved)
        let c = columns.window.count, n = s.dimension
        var block = [Double](repeating: 0, count: c * c)
        for a in 0..<c {
            for b in 0..<c {
                block[a * c + b] = s.covariance[(s.updateStart + columns.window[a]) * n
                                                + s.updateStart + columns.window[b]]
            }
        }
        // A residual direction of unit norm; its scale sweeps the gate.
        let norm = ro.reduce(0) { $0 + $1 * $1 }.squareRoot()
        let unit = ro.map { $0 / norm }
        let sigma2 = 1e-6
        var verdicts: Set<Bool> = []
        var earlyAccepts = 0, passesBeyondEarly = 0
        let threshold = ChiSquared.quantile(dof: rows, probability: 0.95)
        for step in 0..<60 {
            let scale = 1e-4 * pow(1.15, Double(step))
            let r = unit.map { $0 * scale }
            let fast = UpdaterHelper.passesChiSquared(h: ho, residual: r, rows: rows, columns: columns, state: s,
                                                      noiseVariance: sigma2, probability: 0.95)
            let full = UpdaterHelper.passesChiSquared(h: ho, residual: r, rows: rows, covariance: block, columns: c,
                                                      noiseVariance: sigma2, probability: 0.95)
            #expect(fast == full, "scale \(scale)")
            verdicts.insert(full)
            if scale * scale <= threshold * sigma2 { earlyAccepts += 1 } else if full { passesBeyondEarly += 1 }
        }
        #expect(verdicts == [true, false])
        // Both regimes occur: accepted by the bound alone, and accepted only through H P Hᵀ.
        #expect(earlyAccepts > 0 && passesBeyondEarly > 0)
    }
}
