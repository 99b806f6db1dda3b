/// 3-vector of `Double`, used throughout estimation (metres, radians, seconds).
public typealias Vector3 = SIMD3<Double>
/// 4-vector of `Double` (homogeneous points, quaternion coefficients).
public typealias Vector4 = SIMD4<Double>
/// 2-vector of `Double` (image points in pixels).
public typealias Vector2 = SIMD2<Double>
/// 3-vector of `Float`, used by the scene graph and renderer.
public typealias Vector3f = SIMD3<Float>
/// 4-vector of `Float`, used by the scene graph and renderer (colours, homogeneous points).
public typealias Vector4f = SIMD4<Float>
/// 2-vector of `Float` (texture coordinates).
public typealias Vector2f = SIMD2<Float>

extension SIMD3 where Scalar: FloatingPoint {
    /// Dot product.
    @inlinable public func dot(_ other: Self) -> Scalar { (self * other).sum() }
    /// Cross product `self × other`.
    @inlinable public func cross(_ o: Self) -> Self {
        Self(y * o.z - z * o.y, z * o.x - x * o.z, x * o.y - y * o.x)
    }
    /// Euclidean length.
    @inlinable public var norm: Scalar { (self * self).sum().squareRoot() }
    /// Squared Euclidean length.
    @inlinable public var squaredNorm: Scalar { (self * self).sum() }
    /// The vector scaled to unit length (returns `self` unchanged when its length is zero).
    @inlinable public var normalized: Self {
        let n = norm
        return n > 0 ? self / n : self
    }
    /// True when every component is finite (no NaN or infinity).
    @inlinable public var isFinite: Bool { x.isFinite && y.isFinite && z.isFinite }
}

extension SIMD4 where Scalar: FloatingPoint {
    /// The first three components.
    @inlinable public var xyz: SIMD3<Scalar> { SIMD3(x, y, z) }
    /// Euclidean length.
    @inlinable public var norm: Scalar { (self * self).sum().squareRoot() }
}

extension SIMD2 where Scalar: FloatingPoint {
    /// Euclidean length.
    @inlinable public var norm: Scalar { (self * self).sum().squareRoot() }
}

extension SIMD3 where Scalar == Double {
    /// Converts to single precision for rendering.
    @inlinable public var float: Vector3f { Vector3f(Float(x), Float(y), Float(z)) }
}

extension SIMD3 where Scalar == Float {
    /// Converts to double precision for estimation.
    @inlinable public var double: Vector3 { Vector3(Double(x), Double(y), Double(z)) }
}
