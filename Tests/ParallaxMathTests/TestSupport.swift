import Foundation
@testable import ParallaxMath

/// The shared seeded generator (ParallaxMath's SplitMix64) with helpers for property tests.
typealias SeededGenerator = SplitMix64

extension SplitMix64 {
    /// A vector with components uniform in [-scale, scale).
    mutating func vector3(scale: Double = 1) -> Vector3 {
        Vector3(uniform(-scale, scale), uniform(-scale, scale), uniform(-scale, scale))
    }

    /// A uniformly distributed unit vector (normalised Gaussian triple via Box–Muller).
    mutating func unitVector() -> Vector3 {
        while true {
            let v = Vector3(gaussian(), gaussian(), gaussian())
            if v.norm > 1e-6 { return v.normalized }
        }
    }

    /// A rotation vector with angle uniform in [0, maxAngle).
    mutating func rotationVector(maxAngle: Double = Double.pi) -> Vector3 {
        unitVector() * uniform(0, maxAngle)
    }

    /// A random rigid transform with translation components in [-5, 5).
    mutating func transform() -> RigidTransform {
        RigidTransform(rotation: Quaternion(rotationVector: rotationVector()), translation: vector3(scale: 5))
    }

    /// A dense matrix with standard normal entries.
    mutating func matrix(_ rows: Int, _ cols: Int) -> Matrix {
        var m = Matrix(rows: rows, cols: cols)
        for i in 0..<rows { for j in 0..<cols { m[i, j] = gaussian() } }
        return m
    }

    /// A random symmetric positive-definite matrix `B Bᵀ + n I`.
    mutating func spd(_ n: Int) -> Matrix {
        let b = matrix(n, n)
        return b * b.transpose + Matrix.identity(n) * Double(n)
    }
}

/// Largest absolute elementwise difference between two 3×3 matrices.
func maxDiff(_ a: Matrix3, _ b: Matrix3) -> Double {
    var d = 0.0
    for r in 0..<3 { for c in 0..<3 { d = max(d, abs(a[r, c] - b[r, c])) } }
    return d
}

/// Largest absolute elementwise difference between two 4×4 matrices.
func maxDiff(_ a: Matrix4, _ b: Matrix4) -> Double {
    var d = 0.0
    for r in 0..<4 { for c in 0..<4 { d = max(d, abs(a[r, c] - b[r, c])) } }
    return d
}

/// Largest absolute component difference between two vectors.
func maxDiff(_ a: Vector3, _ b: Vector3) -> Double { (a - b).replacing(with: -(a - b), where: (a - b) .< 0).max() }

/// Distance between two rotations expressed as quaternions (sign-invariant), in radians.
func rotationDistance(_ a: Quaternion, _ b: Quaternion) -> Double { a.angle(to: b) }

/// Rotation vectors are equal up to the π ambiguity: at angle π, `v` and `-v` are the same rotation.
func sameRotation(_ a: Vector3, _ b: Vector3, tolerance: Double) -> Bool {
    maxDiff(SO3.exp(a), SO3.exp(b)) < tolerance
}

/// Largest absolute elementwise difference between two dynamic matrices.
func maxDiff(_ a: Matrix, _ b: Matrix) -> Double { (a - b).maxAbs }

/// Largest absolute difference between two arrays.
func maxDiff(_ a: [Double], _ b: [Double]) -> Double { zip(a, b).reduce(0) { max($0, abs($1.0 - $1.1)) } }
