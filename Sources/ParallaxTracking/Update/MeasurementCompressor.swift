import ParallaxMath

/// Step 4 of the MSCKF update: measurement compression (Mourikis & Roumeliotis, ICRA 2007,
/// eq. 26–28).
///
/// The update depends on the data only through HᵀH and Hᵀr (R = σ²I), so instead of a QR of the
/// tall stacked H this accumulates HᵀH over the window's clone columns, feature by feature, and
/// uses its Cholesky factor Lᵀ as the compressed Jacobian with r' = L⁻¹Hᵀr — the same information
/// as the QR's R factor, in a `6w × 6w` system whatever the number of features.
struct MeasurementCompressor {
    /// Size of the update's range: the readout column and 6 per block (calibration and clones).
    let dimension: Int
    /// Lower triangle of HᵀH.
    private var information: [Double]
    /// Hᵀr.
    private var informationVector: [Double]
    /// Features accumulated so far.
    private(set) var count = 0

    /// An empty accumulator for the readout column and `blocks` blocks of 6 (calibration and clones).
    init(blocks: Int) {
        dimension = 1 + 6 * blocks
        information = [Double](repeating: 0, count: dimension * dimension)
        informationVector = [Double](repeating: 0, count: dimension)
    }

    /// Adds one feature's projected system (`h`: `rows × columns.window.count`, residual `r`).
    ///
    /// Only the lower triangle is accumulated, over runs of consecutive clones so the inner loop
    /// covers contiguous columns of both `h` and the information matrix; every entry receives its
    /// terms in ascending row order.
    mutating func accumulate(h: [Double], residual r: [Double], rows: Int, columns: UpdaterHelper.CloneColumns) {
        let c = columns.window.count, kdim = dimension
        information.withUnsafeMutableBufferPointer { inf in
            h.withUnsafeBufferPointer { hp in
                r.withUnsafeBufferPointer { rr in
                    for i in 0..<rows {
                        let hrow = hp.baseAddress! + i * c
                        for a in 0..<c {
                            let va = hrow[a]
                            if va == 0 { continue }
                            let ga = columns.window[a]
                            informationVector[ga] += va * rr[i]
                            let base = inf.baseAddress! + ga * kdim
                            for run in columns.runs where run.infoStart <= ga {
                                // Columns of this run on or below the diagonal of row ga.
                                let width = min(run.width, ga - run.infoStart + 1)
                                let hb = hrow + run.hoStart
                                let dst = base + run.infoStart
                                for b in 0..<width { dst[b] += va * hb[b] }
                            }
                        }
                    }
                }
            }
        }
        count += 1
    }

    /// The compressed system: H' = Lᵀ (upper triangular, `dimension × dimension`, row-major) and
    /// r' = L⁻¹Hᵀr, where L Lᵀ = HᵀH (semidefinite factor: directions no feature constrains get zero rows).
    func compressed() -> (jacobian: [Double], residual: [Double]) {
        var l = information
        Dense.choleskySemidefinite(&l, n: dimension)
        var r = informationVector
        Dense.forwardSubstitute(l, n: dimension, &r)
        return (Dense.transpose(l, rows: dimension, columns: dimension), r)
    }
}
