import Testing
import ParallaxMath

/// The filter's dense kernels against naive references. The fast kernels promise the same sums in
/// the same order as the references, so results must be bit-identical, not merely close.
@Suite("Dense kernels")
struct DenseKernelTests {
    /// Deterministic pseudo-random matrix entries in [−1, 1) (splitmix64).
    static func random(_ count: Int, seed: UInt64) -> [Double] {
        var state = seed
        return (0..<count).map { _ in
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            return Double(z >> 11) / Double(1 << 52) - 1
        }
    }

    /// A symmetric positive-definite n×n matrix (A Aᵀ + n I).
    static func spd(_ n: Int, seed: UInt64) -> [Double] {
        let a = random(n * n, seed: seed)
        var s = Dense.multiplyTransposed(a, a, rows: n, columns: n, inner: n)
        for i in 0..<n { s[i * n + i] += Double(n) }
        return s
    }

    @Test("multiply equals the triple loop", arguments: [(1, 1, 1), (5, 7, 3), (41, 66, 66), (13, 30, 17)])
    func multiply(shape: (Int, Int, Int)) {
        let (rows, inner, columns) = shape
        var a = Self.random(rows * inner, seed: 1)
        for i in stride(from: 0, to: a.count, by: 5) { a[i] = 0 }   // exercises the zero skip
        let b = Self.random(inner * columns, seed: 2)
        let c = Dense.multiply(a, b, rows: rows, inner: inner, columns: columns)
        for i in 0..<rows {
            for j in 0..<columns {
                var s = 0.0
                for k in 0..<inner { s += a[i * inner + k] * b[k * columns + j] }
                #expect(c[i * columns + j] == s)
            }
        }
    }

    @Test("multiplyTransposedLower equals the lower triangle of multiplyTransposed",
          arguments: [(1, 1), (2, 6), (41, 66), (9, 13)])
    func transposedLower(shape: (Int, Int)) {
        let (rows, inner) = shape
        let a = Self.random(rows * inner, seed: 3)
        let b = Self.random(rows * inner, seed: 4)
        let full = Dense.multiplyTransposed(a, b, rows: rows, columns: rows, inner: inner)
        let lower = Dense.multiplyTransposedLower(a, b, rows: rows, inner: inner)
        for i in 0..<rows {
            for j in 0..<rows { #expect(lower[i * rows + j] == (j <= i ? full[i * rows + j] : 0)) }
        }
    }

    @Test("transpose")
    func transpose() {
        let a = Self.random(6 * 11, seed: 5)
        let t = Dense.transpose(a, rows: 6, columns: 11)
        for i in 0..<6 { for j in 0..<11 { #expect(t[j * 6 + i] == a[i * 11 + j]) } }
    }

    @Test("choleskySolveTransposed equals per-row forward and back substitution",
          arguments: [(1, 1), (6, 21), (66, 81), (12, 5)])
    func solve(shape: (Int, Int)) {
        let (n, count) = shape
        var l = Self.spd(n, seed: 6)
        #expect(Dense.cholesky(&l, n: n))
        let b = Self.random(count * n, seed: 7)   // count rows of length n
        _ = Self.expectSolveMatchesSubstitutions(l, b, n: n, count: count)
    }

    @Test("choleskySolveTransposed zeroes components at zero pivots, like the substitutions")
    func solveSingular() {
        let n = 4, count = 3
        // Rank-deficient factor: column 2 is zero.
        var l = Self.spd(n, seed: 8)
        #expect(Dense.cholesky(&l, n: n))
        for i in 0..<n { l[i * n + 2] = 0 }
        let b = Self.random(count * n, seed: 9)
        let bt = Self.expectSolveMatchesSubstitutions(l, b, n: n, count: count)
        for i in 0..<count { #expect(bt[2 * count + i] == 0) }
    }

    /// Solves the `count` rows of `b` with `choleskySolveTransposed` and expects each to equal the
    /// forward/back substitution of that row exactly; returns the transposed solution.
    static func expectSolveMatchesSubstitutions(_ l: [Double], _ b: [Double], n: Int, count: Int) -> [Double] {
        var bt = Dense.transpose(b, rows: count, columns: n)
        Dense.choleskySolveTransposed(l, n: n, &bt, count: count)
        for i in 0..<count {
            var row = Array(b[(i * n)..<((i + 1) * n)])
            Dense.forwardSubstitute(l, n: n, &row)
            Dense.backSubstitute(l, n: n, &row)
            for j in 0..<n { #expect(bt[j * count + i] == row[j]) }
        }
        return bt
    }
}
