import Foundation
import Testing
@testable import ParallaxMath

/// Dynamic Matrix arithmetic, Cholesky, LDLᵀ and Householder QR.
@Suite struct LinearAlgebraTests {
    @Test func matrixArithmeticAndBlocks() {
        let a = Matrix([[1, 2, 3], [4, 5, 6]])
        let b = Matrix([[7, 8], [9, 10], [11, 12]])
        #expect(a * b == Matrix([[58, 64], [139, 154]]))
        #expect(a.transpose == Matrix([[1, 4], [2, 5], [3, 6]]))
        #expect(a * [1, 0, -1] == [-2, -2])
        #expect(a.transposeTimes(a) == a.transpose * a)
        #expect(a + a == 2 * a && a - a == Matrix.zeros(2, 3) && -a == a * -1)
        var m = Matrix.identity(4)
        m.setBlock(row: 1, col: 2, Matrix([[5, 6], [7, 8]]))
        #expect(m.block(row: 1, col: 2, rows: 2, cols: 2) == Matrix([[5, 6], [7, 8]]))
        #expect(m[0, 0] == 1 && m[1, 1] == 1 && m[1, 3] == 6 && m[2, 3] == 8)
        let r = Matrix3(rowMajor: [1, 2, 3, 4, 5, 6, 7, 8, 10])
        var big = Matrix.zeros(6, 6)
        big.setBlock(row: 3, col: 3, r)
        #expect(big.block3(row: 3, col: 3) == r && Matrix(r).elements == r.rowMajor)
        #expect(Matrix([[1, 2], [2.0000001, 1]]).isSymmetric() == false && Matrix([[1, 2], [2, 1]]).isSymmetric())
        #expect(Matrix([[1, 2], [4, 1]]).symmetrized == Matrix([[1, 3], [3, 1]]))
        // Products agree with Matrix3 arithmetic on random input.
        var rng = SeededGenerator(seed: 51)
        for _ in 0..<100 {
            let x = SO3.exp(rng.rotationVector()), y = Matrix3.skew(rng.vector3())
            #expect(maxDiff(Matrix(x) * Matrix(y), Matrix(x * y)) < 1e-15)
        }
    }

    @Test func choleskyReconstructsAndSolves() throws {
        var rng = SeededGenerator(seed: 52)
        for n in [1, 2, 3, 6, 15, 40] {
            for _ in 0..<(n < 20 ? 40 : 5) {
                let a = rng.spd(n)
                let c = try Cholesky(a)
                #expect(maxDiff(c.l * c.l.transpose, a) < 1e-12 * Double(n) * a.maxAbs)
                for i in 0..<n { for j in (i + 1)..<max(i + 1, n) { #expect(c.l[i, j] == 0) } }
                let xTrue = (0..<n).map { _ in rng.gaussian() }
                let x = try c.solve(a * xTrue)
                #expect(maxDiff(x, xTrue) < 1e-10)
                #expect(maxDiff(a * c.inverse, .identity(n)) < 1e-10)
                let ldlt = try LDLT(a)
                #expect(abs(c.logDeterminant - Foundation.log(ldlt.determinant)) < 1e-9 * max(1, abs(c.logDeterminant)))
            }
        }
    }

    @Test func choleskyRejectsNonSPD() throws {
        // Indefinite: eigenvalues 3 and −1.
        #expect(throws: LinearAlgebraError.notPositiveDefinite(pivotIndex: 1, pivot: -3)) {
            try Cholesky(Matrix([[1, 2], [2, 1]]))
        }
        // Positive semi-definite (singular) fails at the zero pivot.
        #expect(throws: LinearAlgebraError.self) { try Cholesky(Matrix([[1, 1], [1, 1]])) }
        // Negative diagonal fails at the first pivot.
        do {
            _ = try Cholesky(Matrix([[-1, 0], [0, 1]]))
            Issue.record("Cholesky accepted a negative-definite pivot")
        } catch let e as LinearAlgebraError {
            guard case let .notPositiveDefinite(index, pivot) = e else { Issue.record("wrong error \(e)"); return }
            #expect(index == 0 && pivot == -1)
            #expect(e.description.contains("not positive definite"))
        }
        #expect(throws: LinearAlgebraError.notSquare(rows: 2, cols: 3)) { try Cholesky(Matrix(rows: 2, cols: 3)) }
        #expect(throws: LinearAlgebraError.self) { try Cholesky(Matrix([[Double.nan]])) }
        // Random symmetric matrices with a negative eigenvalue are rejected.
        var rng = SeededGenerator(seed: 53)
        for _ in 0..<50 {
            var a = rng.spd(5)
            let e = try SymmetricEigen(a)
            a = a - Matrix.identity(5) * (e.values[0] + 0.1)
            #expect(throws: LinearAlgebraError.self) { try Cholesky(a) }
        }
    }

    @Test func ldltHandlesDefiniteAndQuasiDefinite() throws {
        var rng = SeededGenerator(seed: 54)
        for _ in 0..<100 {
            let a = rng.spd(6)
            let f = try LDLT(a)
            #expect(f.isPositiveDefinite)
            let recon = f.l * Matrix(diagonal: f.d) * f.l.transpose
            #expect(maxDiff(recon, a) < 1e-12 * a.maxAbs)
            let b = (0..<6).map { _ in rng.gaussian() }
            #expect(maxDiff(a * (try f.solve(b)), b) < 1e-11)
        }
        // Quasi-definite saddle point [[H, Jᵀ], [J, −εI]]: Cholesky fails, LDLᵀ solves it.
        for _ in 0..<50 {
            let h = rng.spd(4), j = rng.matrix(2, 4)
            var k = Matrix(rows: 6, cols: 6)
            k.setBlock(row: 0, col: 0, h)
            k.setBlock(row: 4, col: 0, j)
            k.setBlock(row: 0, col: 4, j.transpose)
            k.setBlock(row: 4, col: 4, Matrix.identity(2) * -0.1)
            #expect(throws: LinearAlgebraError.self) { try Cholesky(k) }
            let f = try LDLT(k)
            #expect(!f.isPositiveDefinite)
            let b = (0..<6).map { _ in rng.gaussian() }
            #expect(maxDiff(k * (try f.solve(b)), b) < 1e-10)
        }
        #expect(throws: LinearAlgebraError.zeroPivot(index: 0)) { try LDLT(Matrix([[0, 1], [1, 0]])) }
    }

    @Test func householderQRFactorsAndSolvesLeastSquares() throws {
        var rng = SeededGenerator(seed: 55)
        for (m, n) in [(1, 1), (3, 3), (5, 3), (10, 4), (30, 6), (60, 15)] {
            for _ in 0..<20 {
                let a = rng.matrix(m, n)
                let qr = try QR(a)
                let q = qr.q
                #expect(maxDiff(q * qr.r, a) < 1e-12 * Double(m))
                #expect(maxDiff(q.transpose * q, .identity(n)) < 1e-13 * Double(m))
                for i in 0..<n { for j in 0..<i { #expect(qr.r[i, j] == 0) } }
                // Consistent system: exact recovery.
                let xTrue = (0..<n).map { _ in rng.gaussian() }
                #expect(maxDiff(try qr.solveLeastSquares(a * xTrue), xTrue) < 1e-9)
                // Inconsistent system: the residual is orthogonal to the column space (normal equations).
                let b = (0..<m).map { _ in rng.gaussian() }
                let x = try a.solveLeastSquares(b)
                let residual = zip(a * x, b).map { $0 - $1 }
                let grad = a.transpose * residual
                #expect(grad.norm < 1e-10 * max(1, b.norm))
            }
        }
    }

    @Test func qrReportsRankDeficiencyAndIllConditioning() throws {
        var rng = SeededGenerator(seed: 56)
        // Third column = first + second.
        var a = rng.matrix(8, 3)
        for i in 0..<8 { a[i, 2] = a[i, 0] + a[i, 1] }
        let qr = try QR(a)
        #expect(qr.rank == 2)
        #expect(throws: LinearAlgebraError.rankDeficient(rank: 2, columns: 3)) { try qr.solveLeastSquares([Double](repeating: 1, count: 8)) }
        #expect(throws: LinearAlgebraError.self) { try QR(Matrix(rows: 2, cols: 3)) }
        // Ill-conditioned but full rank (Hilbert 6×6, κ ≈ 1.5e7): QR still recovers x to ~κ ε.
        let n = 6
        var hilbert = Matrix(rows: n, cols: n)
        for i in 0..<n { for j in 0..<n { hilbert[i, j] = 1 / Double(i + j + 1) } }
        let xTrue = [Double](repeating: 1, count: n)
        let x = try hilbert.solveLeastSquares(hilbert * xTrue)
        #expect(maxDiff(x, xTrue) < 1e-8)
    }
}
