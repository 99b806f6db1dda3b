import Foundation
import Testing
@testable import ParallaxMath

/// RigidTransform group laws and the 4×4 inverses.
@Suite struct TransformTests {
    @Test func composeAndInverseObeyGroupLaws() {
        var rng = SeededGenerator(seed: 21)
        for _ in 0..<300 {
            let a = rng.transform(), b = rng.transform(), c = rng.transform()
            let p = rng.vector3(scale: 10)
            // Composition maps points like applying the factors in turn.
            #expect(maxDiff((a * b) * p, a * (b * p)) < 1e-11)
            // Associativity.
            let l = (a * b) * c, r = a * (b * c)
            #expect(maxDiff(l.translation, r.translation) < 1e-11)
            #expect(rotationDistance(l.rotation, r.rotation) < 1e-12)
            // Inverse.
            let e = a * a.inverse
            #expect(maxDiff(e.translation, .zero) < 1e-12)
            #expect(rotationDistance(e.rotation, .identity) < 1e-12)
            #expect(maxDiff(a.inverse * (a * p), p) < 1e-11)
            // The 4×4 matrix agrees with the transform.
            let h = a.matrix * Vector4(p, 1)
            #expect(maxDiff(h.xyz, a * p) < 1e-11)
            #expect(abs(h.w - 1) == 0)
            #expect(maxDiff((a * b).matrix, a.matrix * b.matrix) < 1e-11)
            let back = RigidTransform(matrix: a.matrix)
            #expect(maxDiff(back.translation, a.translation) < 1e-15)
            #expect(rotationDistance(back.rotation, a.rotation) < 1e-9)
        }
    }

    @Test func matrix4InverseOfGeneralMatrices() throws {
        var rng = SeededGenerator(seed: 22)
        for _ in 0..<300 {
            var m = Matrix4.identity
            for r in 0..<4 { for c in 0..<4 { m[r, c] = rng.gaussian() } }
            let inv = try #require(m.inverse)
            #expect(maxDiff(m * inv, .identity) < 1e-8)
            #expect(maxDiff(inv * m, .identity) < 1e-8)
        }
        // Rigid transforms: the inverse equals the transform inverse.
        for _ in 0..<100 {
            let t = rng.transform()
            let inv = try #require(t.matrix.inverse)
            #expect(maxDiff(inv, t.inverse.matrix) < 1e-12)
        }
        // Singular: a repeated row.
        var s = Matrix4(rowMajor: [1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 0, 0, 0, 1])
        #expect(s.inverse == nil)
        s[2, 0] = 2
        #expect(s.inverse != nil)
        // Tiny but regular scale is still invertible (a determinant threshold would reject it).
        let tiny = Matrix4(rowMajor: [2, 1, 0, 0, 1, 2, 1, 0, 0, 1, 2, 1, 0, 0, 1, 2].map { $0 * 1e-110 })
        let tinyInv = try #require(tiny.inverse)
        #expect(maxDiff(tiny * tinyInv, .identity) < 1e-14)
    }

    @Test func matrix4fInverseAndTranspose() throws {
        var rng = SeededGenerator(seed: 23)
        for _ in 0..<200 {
            let t = rng.transform()
            let m = Matrix4f.compose(
                translation: t.translation.float, rotation: Quaternionf(t.rotation),
                scale: Vector3f(Float(rng.uniform(0.5, 2)), Float(rng.uniform(0.5, 2)), Float(rng.uniform(0.5, 2))))
            let inv = try #require(m.inverse)
            let prod = (m * inv).double
            #expect(maxDiff(prod, .identity) < 1e-5)
            #expect(m.transpose.transpose == m)
            let p = Vector3f(Float(rng.uniform(-3, 3)), Float(rng.uniform(-3, 3)), Float(rng.uniform(-3, 3)))
            #expect((inv.transformPoint(m.transformPoint(p)) - p).norm < 1e-4)
        }
    }

    @Test func quaternionfMatchesDoubleQuaternion() {
        var rng = SeededGenerator(seed: 24)
        for _ in 0..<200 {
            let q = Quaternion(rotationVector: rng.rotationVector())
            let qf = Quaternionf(q)
            let m = qf.matrix.double.upperLeft3x3
            #expect(maxDiff(m, q.rotationMatrix) < 1e-6)
            let v = rng.vector3()
            #expect(maxDiff(qf.act(v.float).double, q.act(v)) < 1e-5)
            #expect(maxDiff((qf * qf.inverse).double.rotationMatrix, .identity) < 1e-6)
        }
    }
}
