/// A symmetric matrix stored by its lower profile: row `i` keeps the columns from
/// `firstColumns[i]` to `i`. Cholesky factorisation fills only inside that profile, so a banded
/// matrix with a few long rows (a pose chain with loop edges) factors in about
/// `n · band² + Σ (long row length)²` operations instead of `n³ / 3`.
struct SkylineMatrix: Sendable {
    private(set) var firstColumns: [Int]
    private var rows: [[Double]]

    /// A zero matrix with the given profile (`firstColumns[i] ≤ i`).
    init(firstColumns: [Int]) {
        self.firstColumns = firstColumns
        rows = firstColumns.enumerated().map { [Double](repeating: 0, count: $0.offset - $0.element + 1) }
    }

    /// Adds `value` at (`row`, `column`), `column ≤ row`, inside the profile.
    mutating func add(_ value: Double, row: Int, column: Int) {
        rows[row][column - firstColumns[row]] += value
    }

    /// The diagonal entry of `row`.
    func diagonal(_ row: Int) -> Double { rows[row][row - firstColumns[row]] }

    /// Solves `A x = b` by Cholesky (`A = L Lᵀ`, L in the same profile); nil when A is not
    /// positive definite.
    func solve(_ b: [Double]) -> [Double]? {
        let n = rows.count
        var L = rows
        for i in 0..<n {
            let fi = firstColumns[i]
            for j in fi...i {
                let fj = firstColumns[j]
                var sum = L[i][j - fi]
                let k0 = max(fi, fj)
                if k0 < j {
                    for k in k0..<j { sum -= L[i][k - fi] * L[j][k - fj] }
                }
                if j == i {
                    guard sum > 0, sum.isFinite else { return nil }
                    L[i][i - fi] = sum.squareRoot()
                } else {
                    L[i][j - fi] = sum / L[j][j - fj]
                }
            }
        }
        var y = b
        for i in 0..<n {  // L y = b
            let fi = firstColumns[i]
            var sum = y[i]
            for k in fi..<i { sum -= L[i][k - fi] * y[k] }
            y[i] = sum / L[i][i - fi]
        }
        for i in stride(from: n - 1, through: 0, by: -1) {  // Lᵀ x = y, column sweep
            let fi = firstColumns[i]
            y[i] /= L[i][i - fi]
            let xi = y[i]
            for k in fi..<i { y[k] -= L[i][k - fi] * xi }
        }
        return y
    }
}
