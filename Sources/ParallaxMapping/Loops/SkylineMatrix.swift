/// A symmetric matrix stored by its lower profile: row `i` keeps the columns from
/// `firstColumns[i]` to `i`. Cholesky factorisation fills only inside that profile, so a banded
/// matrix with a few long rows (a pose chain with loop edges) factors in about
/// `n · band² + Σ (long row length)²` operations instead of `n³ / 3`.
///
/// The rows lie end to end in one flat buffer (`offsets[i]` is where row `i` starts): the inner
/// product of the factorisation then runs over contiguous memory without per-row array checks.
struct SkylineMatrix: Sendable {
    private(set) var firstColumns: [Int]
    private var offsets: [Int]
    private var values: [Double]

    /// A zero matrix with the given profile (`firstColumns[i] ≤ i`).
    init(firstColumns: [Int]) {
        self.firstColumns = firstColumns
        var offsets: [Int] = []
        offsets.reserveCapacity(firstColumns.count + 1)
        var total = 0
        for (i, f) in firstColumns.enumerated() {
            offsets.append(total)
            total += i - f + 1
        }
        offsets.append(total)
        self.offsets = offsets
        values = [Double](repeating: 0, count: total)
    }

    /// Adds `value` at (`row`, `column`), `column ≤ row`, inside the profile.
    mutating func add(_ value: Double, row: Int, column: Int) {
        values[offsets[row] + column - firstColumns[row]] += value
    }

    /// The diagonal entry of `row`.
    func diagonal(_ row: Int) -> Double { values[offsets[row] + row - firstColumns[row]] }

    /// Solves `A x = b` by Cholesky (`A = L Lᵀ`, L in the same profile); nil when A is not
    /// positive definite.
    func solve(_ b: [Double]) -> [Double]? {
        let n = firstColumns.count
        var L = values
        let ok = L.withUnsafeMutableBufferPointer { l -> Bool in
            firstColumns.withUnsafeBufferPointer { first in
                offsets.withUnsafeBufferPointer { offset in
                    for i in 0..<n {
                        let fi = first[i], oi = offset[i] - fi  // L(i, k) = l[oi + k]
                        for j in fi...i {
                            let oj = offset[j] - first[j]
                            var sum = l[oi + j]
                            var k = max(fi, first[j])
                            while k < j {
                                sum -= l[oi + k] * l[oj + k]
                                k += 1
                            }
                            if j == i {
                                guard sum > 0, sum.isFinite else { return false }
                                l[oi + i] = sum.squareRoot()
                            } else {
                                l[oi + j] = sum / l[oj + j]
                            }
                        }
                    }
                    return true
                }
            }
        }
        guard ok else { return nil }
        var y = b
        for i in 0..<n {  // L y = b
            let fi = firstColumns[i], oi = offsets[i] - fi
            var sum = y[i]
            for k in fi..<i { sum -= L[oi + k] * y[k] }
            y[i] = sum / L[oi + i]
        }
        for i in stride(from: n - 1, through: 0, by: -1) {  // Lᵀ x = y, column sweep
            let fi = firstColumns[i], oi = offsets[i] - fi
            y[i] /= L[oi + i]
            let xi = y[i]
            for k in fi..<i { y[k] -= L[oi + k] * xi }
        }
        return y
    }
}
