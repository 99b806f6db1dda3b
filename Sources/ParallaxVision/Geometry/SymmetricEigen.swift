/// Eigen-decomposition of a small symmetric matrix by cyclic Jacobi rotations
/// (Golub & Van Loan, *Matrix Computations*, §8.5). Used for the 9×9 normal matrix of the
/// eight-point algorithm and 3×3 rank-2 projections; accurate to machine precision.
///
/// - Parameters:
///   - a: row-major `n × n` symmetric matrix.
/// - Returns: eigenvalues ascending, and eigenvectors as rows of a row-major `n × n` array
///   in the same order.
func symmetricEigen(_ a: [Double], n: Int) -> (values: [Double], vectors: [[Double]]) {
    var m = a
    var v = [Double](repeating: 0, count: n * n)
    for i in 0..<n { v[i * n + i] = 1 }
    for _ in 0..<60 {
        var off = 0.0
        for p in 0..<n { for q in (p + 1)..<n where q < n { off += m[p * n + q] * m[p * n + q] } }
        if off < 1e-30 { break }
        for p in 0..<(n - 1) {
            for q in (p + 1)..<n {
                let apq = m[p * n + q]
                if abs(apq) < 1e-300 { continue }
                let theta = (m[q * n + q] - m[p * n + p]) / (2 * apq)
                let t = (theta >= 0 ? 1.0 : -1.0) / (abs(theta) + (theta * theta + 1).squareRoot())
                let c = 1 / (t * t + 1).squareRoot(), s = t * c
                for k in 0..<n {  // columns p, q
                    let mkp = m[k * n + p], mkq = m[k * n + q]
                    m[k * n + p] = c * mkp - s * mkq
                    m[k * n + q] = s * mkp + c * mkq
                }
                for k in 0..<n {  // rows p, q
                    let mpk = m[p * n + k], mqk = m[q * n + k]
                    m[p * n + k] = c * mpk - s * mqk
                    m[q * n + k] = s * mpk + c * mqk
                }
                for k in 0..<n {
                    let vkp = v[k * n + p], vkq = v[k * n + q]
                    v[k * n + p] = c * vkp - s * vkq
                    v[k * n + q] = s * vkp + c * vkq
                }
            }
        }
    }
    let order = (0..<n).sorted { m[$0 * n + $0] < m[$1 * n + $1] }
    return (order.map { m[$0 * n + $0] }, order.map { j in (0..<n).map { v[$0 * n + j] } })
}
