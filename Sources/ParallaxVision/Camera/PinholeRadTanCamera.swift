import ParallaxMath

/// Pinhole camera with radial–tangential ("plumb bob") distortion `k1, k2, p1, p2`,
/// the model of EuRoC's `sensor.yaml` (`distortion_model: radial-tangential`) and OpenCV.
///
/// With `r² = x² + y²` on the normalised plane (Brown 1966, OpenCV's formulation):
/// ```
/// x_d = x (1 + k1 r² + k2 r⁴) + 2 p1 x y + p2 (r² + 2x²)
/// y_d = y (1 + k1 r² + k2 r⁴) + p1 (r² + 2y²) + 2 p2 x y
/// u = fx x_d + cx,   v = fy y_d + cy
/// ```
public struct PinholeRadTanCamera: CameraModel, Equatable {
    public let width: Int
    public let height: Int
    public let fx: Double
    public let fy: Double
    public let cx: Double
    public let cy: Double
    /// Radial coefficients.
    public let k1: Double, k2: Double
    /// Tangential coefficients.
    public let p1: Double, p2: Double

    /// Creates the model from raw parameters (pixels; dimensionless distortion).
    public init(width: Int, height: Int, fx: Double, fy: Double, cx: Double, cy: Double,
                k1: Double = 0, k2: Double = 0, p1: Double = 0, p2: Double = 0) {
        self.width = width
        self.height = height
        self.fx = fx
        self.fy = fy
        self.cx = cx
        self.cy = cy
        self.k1 = k1
        self.k2 = k2
        self.p1 = p1
        self.p2 = p2
    }

    /// A copy without distortion (same intrinsics): the "ideal" pinhole.
    public var undistortedPinhole: PinholeRadTanCamera {
        PinholeRadTanCamera(width: width, height: height, fx: fx, fy: fy, cx: cx, cy: cy)
    }

    @inlinable
    public func distortWithJacobian(_ xn: Vector2) -> (Vector2, Vector2, Vector2) {
        let x = xn.x, y = xn.y
        let r2 = x * x + y * y
        let radial = 1 + r2 * (k1 + k2 * r2)
        let dRadial = k1 + 2 * k2 * r2  // ∂radial/∂(r²)
        let xd = x * radial + 2 * p1 * x * y + p2 * (r2 + 2 * x * x)
        let yd = y * radial + p1 * (r2 + 2 * y * y) + 2 * p2 * x * y
        // ∂r²/∂x = 2x, ∂r²/∂y = 2y.
        let dxdx = radial + 2 * x * x * dRadial + 2 * p1 * y + 6 * p2 * x
        let dxdy = 2 * x * y * dRadial + 2 * p1 * x + 2 * p2 * y
        let dydx = 2 * x * y * dRadial + 2 * p1 * x + 2 * p2 * y
        let dydy = radial + 2 * y * y * dRadial + 6 * p1 * y + 2 * p2 * x
        return (Vector2(xd, yd), Vector2(dxdx, dydx), Vector2(dxdy, dydy))
    }

    @inlinable
    public func distortionCoefficientJacobian(_ xn: Vector2) -> (Vector2, Vector2) {
        // d = x_n (1 + k1 r² + k2 r⁴) + tangential terms ⇒ ∂d/∂k1 = x_n r², ∂d/∂k2 = x_n r⁴.
        let r2 = xn.x * xn.x + xn.y * xn.y
        return (r2 * xn, (r2 * r2) * xn)
    }

    @inlinable
    public func project(_ p_C: Vector3) -> Vector2? { projectPinholeFactored(p_C) }

    @inlinable
    public func projectWithJacobian(_ p_C: Vector3) -> (uv: Vector2, jacobian: Jacobian2x3)? {
        projectPinholeFactoredWithJacobian(p_C)
    }

    /// Unit bearing through `uv`: undistorts with Gauss–Newton (see ``CameraModel``).
    @inlinable
    public func unproject(_ uv: Vector2) -> Vector3 {
        let xd = Vector2((uv.x - cx) / fx, (uv.y - cy) / fy)
        let xn = invertDistortion(xd)
        return Vector3(xn.x, xn.y, 1).normalized
    }
}
