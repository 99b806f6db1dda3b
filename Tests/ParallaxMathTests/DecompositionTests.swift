import Foundation
import Testing
@testable import ParallaxMath

/// Symmetric eigen-decomposition, SVD, pseudo-inverse and the signed 3×3 SVD.
@Suite struct DecompositionTests {
    @Test func symmetricEigenReconstructsWithOrthonormalVectors() throws {
        var rng = SeededGenerator(seed: 61)
        for n in [1, 2, 3, 5, 9, 20] {
            for _ in 0..<(n < 10 ? 40 : 5) {
                let b = rng.matrix(n, n)
                let a = (b + b.transpose) * 0.5
                let e = try SymmetricEigen(a)
                let v = e.vectors
                #expect(maxDiff(v.transpose * v, .identity(n)) < 1e-13 * Double(n))
                #expect(maxDiff(v * Matrix(diagonal: e.values) * v.transpose, a) < 1e-13 * Double(n) * max(1, a.maxAbs))
                #expect(zip(e.values, e.values.dropFirst()).allSatisfy { $0 <= $1 })
                #expect(abs(e.values.reduce(0, +) - a.trace) < 1e-12 * Double(n))
            }
        }
        // Known spectrum, repeated eigenvalue.
        let e = try SymmetricEigen(Matrix([[2, 0, 0], [0, 3, 4], [0, 4, 3]]))
        #expect(maxDiff(e.values, [-1, 2, 7]) < 1e-14)
        let twice = try SymmetricEigen(Matrix.identity(4) * 2)
        #expect(twice.values == [2, 2, 2, 2])
        #expect(throws: LinearAlgebraError.self) { try SymmetricEigen(Matrix(rows: 2, cols: 3)) }
    }

    @Test func eigenvectorAccessorSolvesTheEigenproblem() throws {
        // vector(i) is column i of vectors: A v = λ v, in ascending order (the front-end's
        // eight-point solver takes vector(0) as the null vector of its normal matrix).
        let a = Matrix([[4, 1, 2], [1, 3, 0], [2, 0, 5]])
        let e = try SymmetricEigen(a)
        for i in 0..<3 {
            let v = e.vector(i)
            #expect(maxDiff(a * v, v.map { $0 * e.values[i] }) < 1e-12)
        }
    }

    @Test func eigenKeepsTinyEigenvaluesAccurate() throws {
        // Graded diagonal with tiny couplings: λ ≈ 1e-12 must come out to many relative digits.
        let a = Matrix([[1, 1e-7, 0], [1e-7, 1e-6, 1e-10], [0, 1e-10, 1e-12]])
        let e = try SymmetricEigen(a)
        // Reference from the characteristic polynomial is awkward; use the determinant identity
        // det A = Π λ (computed by LDLᵀ, which is accurate for this definite matrix).
        let det = try LDLT(a).determinant
        #expect(abs(e.values.reduce(1, *) - det) / abs(det) < 1e-9)
        #expect(e.values[0] > 0)
    }

    /// The closed-form 3 × 3 eigenvalues and eigenvectors against the Jacobi ``SymmetricEigen``:
    /// random symmetric matrices (indefinite included), thin scatter matrices like the plane
    /// detector's, and the degenerate cases (a multiple of the identity, a repeated eigenvalue).
    @Test func matrix3ClosedFormEigenMatchesJacobi() throws {
        var rng = SeededGenerator(seed: 67)
        var cases: [Matrix3] = []
        for _ in 0..<200 {
            let b = Matrix3(columns: rng.vector3(), rng.vector3(), rng.vector3())
            cases.append((b + b.transpose) * 0.5)
        }
        for _ in 0..<200 {  // a 2 m × 1 m layer 1 cm thick, turned at random
            let R = Quaternion(rotationVector: rng.rotationVector()).rotationMatrix
            var scatter = Matrix3(diagonal: .zero)
            for _ in 0..<30 {
                let d = R * Vector3(rng.uniform(-1, 1), rng.uniform(-0.5, 0.5), rng.uniform(-0.01, 0.01))
                scatter = scatter + Matrix3.outer(d, d)
            }
            cases.append(scatter)
        }
        for a in cases {
            let values = a.symmetricEigenvalues
            let reference = try SymmetricEigen(Matrix(a))
            let size = max(abs(reference.values[0]), abs(reference.values[2]))
            #expect(maxDiff(values, Vector3(reference.values[2], reference.values[1], reference.values[0])) < 1e-12 * size)
            for (k, lambda) in [values.x, values.z].enumerated() {
                let v = try #require(a.symmetricEigenvector(for: lambda))
                #expect(abs(v.norm - 1) < 1e-12)
                // Accurate where the eigenvalue stands apart from the others.
                let gap = k == 0 ? values.x - values.y : values.y - values.z
                #expect(maxDiff(a * v, v * lambda) < 1e-10 * size * max(1, size / gap))
            }
        }
        let scaled = Matrix3(diagonal: Vector3(2, 2, 2))
        #expect(scaled.symmetricEigenvalues == Vector3(2, 2, 2))
        #expect(scaled.symmetricEigenvector(for: 2) == nil)
        let repeated = Matrix3(rowMajor: [3, 0, 0, 0, 3, 0, 0, 0, 1])
        // A double root is where the closed form is weakest: acos near −1 turns a rounding error
        // of ε into √ε (documented on `symmetricEigenvalues`).
        #expect(maxDiff(repeated.symmetricEigenvalues, Vector3(3, 3, 1)) < 3 * Double.ulpOfOne.squareRoot())
        #expect(repeated.symmetricEigenvector(for: 3) == nil)
        let axis = try #require(repeated.symmetricEigenvector(for: 1))
        #expect(abs(abs(axis.z) - 1) < 1e-14)
        #expect(Matrix3(diagonal: Vector3(.nan, 1, 1)).symmetricEigenvalues.x.isNaN)
    }

    static func checkSVD(_ a: Matrix, _ svd: SVD, tol: Double) {
        let k = min(a.rows, a.cols)
        #expect(svd.u.rows == a.rows && svd.u.cols == k && svd.v.rows == a.cols && svd.v.cols == k && svd.s.count == k)
        #expect(maxDiff(svd.u * Matrix(diagonal: svd.s) * svd.v.transpose, a) < tol * max(1, a.maxAbs))
        #expect(maxDiff(svd.u.transpose * svd.u, .identity(k)) < tol)
        #expect(maxDiff(svd.v.transpose * svd.v, .identity(k)) < tol)
        #expect(zip(svd.s, svd.s.dropFirst()).allSatisfy { $0 >= $1 } && svd.s.allSatisfy { $0 >= 0 })
    }

    @Test func svdReconstructsTallWideAndSquare() throws {
        var rng = SeededGenerator(seed: 62)
        for (m, n) in [(1, 1), (1, 4), (4, 1), (3, 3), (6, 4), (4, 6), (12, 7), (7, 12), (30, 9)] {
            for _ in 0..<25 {
                let a = rng.matrix(m, n)
                let svd = try SVD(a)
                Self.checkSVD(a, svd, tol: 1e-12)
                // Singular values are the square roots of the eigenvalues of AᵀA (or AAᵀ).
                let gram = m >= n ? a.transposeTimes(a) : a * a.transpose
                let ev = try SymmetricEigen(gram).values.reversed().map { max($0, 0).squareRoot() }
                #expect(maxDiff(Array(ev.prefix(svd.s.count)), svd.s) < 1e-9 * max(1, svd.s[0]))
            }
        }
    }

    @Test func svdOfRankDeficientAndIllConditioned() throws {
        var rng = SeededGenerator(seed: 63)
        for _ in 0..<50 {
            // Rank 2 in a 6×4 matrix.
            let a = rng.matrix(6, 2) * rng.matrix(2, 4)
            let svd = try SVD(a)
            Self.checkSVD(a, svd, tol: 1e-12)
            #expect(svd.rank() == 2)
            #expect(svd.s[2] < 1e-14 * svd.s[0] && svd.s[3] < 1e-14 * svd.s[0])
        }
        let zero = try SVD(Matrix.zeros(3, 2))
        Self.checkSVD(Matrix.zeros(3, 2), zero, tol: 1e-15)
        #expect(zero.s == [0, 0] && zero.rank() == 0 && zero.conditionNumber == .infinity)
        // Graded matrix: diag(1, 1e-5, 1e-10) in random orthogonal bases; κ = 1e10.
        for _ in 0..<20 {
            let q1 = try QR(rng.matrix(5, 3)).q, q2 = try QR(rng.matrix(3, 3)).q
            let a = q1 * Matrix(diagonal: [1, 1e-5, 1e-10]) * q2.transpose
            let svd = try SVD(a)
            Self.checkSVD(a, svd, tol: 1e-13)
            #expect(abs(svd.s[2] - 1e-10) / 1e-10 < 1e-5)
            #expect(abs(svd.conditionNumber - 1e10) / 1e10 < 1e-5)
        }
        #expect(throws: LinearAlgebraError.nonFinite) { try SVD(Matrix([[1, .infinity]])) }
    }

    @Test func pseudoInverseSatisfiesPenroseConditions() throws {
        var rng = SeededGenerator(seed: 64)
        for (m, n, rank) in [(5, 3, 3), (3, 5, 3), (6, 4, 2), (4, 4, 3)] {
            for _ in 0..<20 {
                let a = rng.matrix(m, rank) * rng.matrix(rank, n)
                let p = try a.pseudoInverse()
                #expect(maxDiff(a * p * a, a) < 1e-11)
                #expect(maxDiff(p * a * p, p) < 1e-9 * max(1, p.maxAbs))
                #expect((a * p).isSymmetric(tolerance: 1e-10) && (p * a).isSymmetric(tolerance: 1e-10))
            }
        }
        // Full column rank: A⁺ b equals the QR least-squares solution.
        for _ in 0..<20 {
            let a = rng.matrix(7, 3), b = (0..<7).map { _ in rng.gaussian() }
            #expect(maxDiff(try a.pseudoInverse() * b, try a.solveLeastSquares(b)) < 1e-11)
        }
    }

    @Test func matrix3SignedSVDHasProperRotations() {
        var rng = SeededGenerator(seed: 65)
        for i in 0..<400 {
            var a = Matrix3(rowMajor: (0..<9).map { _ in rng.gaussian() })
            if i % 4 == 0 { a = a * Matrix3(diagonal: Vector3(1, 1, -1)) }          // force reflections
            if i % 7 == 0 { a = Matrix3.outer(rng.vector3(), rng.vector3()) }         // rank 1
            let (u, s, v) = a.svd()
            #expect(u.isRotation(tolerance: 1e-12) && v.isRotation(tolerance: 1e-12))
            #expect(maxDiff(u * Matrix3(diagonal: s) * v.transpose, a) < 1e-12 * max(1, a.frobeniusNorm))
            #expect(s.x >= s.y && s.y >= abs(s.z) - 1e-15)
            // Sign of the smallest value follows the determinant.
            if abs(a.determinant) > 1e-9 { #expect((s.z < 0) == (a.determinant < 0)) }
        }
    }

    @Test func umeyamaRecoversRotationIncludingReflectionCase() {
        // Kabsch/Umeyama: Σ = Σᵢ yᵢ xᵢᵀ, R = u vᵀ. Noisy planar points can make det(Σ) < 0
        // and the unsigned SVD would return a reflection.
        var rng = SeededGenerator(seed: 66)
        for trial in 0..<200 {
            let r = SO3.exp(rng.rotationVector())
            var sigma = Matrix3.zero
            for _ in 0..<12 {
                var x = rng.vector3(scale: 2)
                if trial % 2 == 0 { x.z = 0 }                // planar sets: the delicate case
                sigma += Matrix3.outer(r * x + rng.vector3(scale: 1e-3), x)
            }
            let rot = sigma.nearestRotation
            #expect(rot.isRotation(tolerance: 1e-12))
            #expect(SO3.log(rot.transpose * r).norm < 1e-2)
        }
        // A pure reflection: the nearest rotation must still be a rotation.
        let refl = Matrix3(diagonal: Vector3(1, 1, -1))
        #expect(refl.nearestRotation.isRotation(tolerance: 1e-12))
        #expect(abs(refl.svd().s.z + 1) < 1e-15)
    }
}
