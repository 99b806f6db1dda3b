import Foundation
import ParallaxMath

/// Equidistant fisheye model of Kannala & Brandt (2006, "A generic camera model and
/// calibration method for conventional, wide-angle, and fish-eye lenses", IEEE TPAMI),
/// with four coefficients as used by TUM-VI (`distortion_model: equidistant`) and
/// OpenCV's `fisheye` module.
///
/// With θ the angle between the ray and the optical axis:
/// ```
/// θ_d = θ (1 + k1 θ² + k2 θ⁴ + k3 θ⁶ + k4 θ⁸)
/// (x_d, y_d) = θ_d · (x, y) / √(x² + y²)
/// u = fx x_d + cx,   v = fy y_d + cy
/// ```
/// Unlike the pinhole factorisation, θ is computed as `atan2(√(x²+y²), z)` from the 3-D
/// point, so rays up to ``maxIncidenceAngle`` (which may exceed 90°) project.
public struct EquidistantCamera: CameraModel, Equatable {
    public let width: Int
    public let height: Int
    public let fx: Double
    public let fy: Double
    public let cx: Double
    public let cy: Double
    /// Polynomial coefficients of θ_d(θ).
    public let k1: Double, k2: Double, k3: Double, k4: Double
    /// Largest incidence angle (radians) accepted by ``project(_:)``. By default the angle
    /// up to which θ_d(θ) is strictly increasing (so projection stays invertible), capped at π.
    public let maxIncidenceAngle: Double

    /// Creates the model from raw parameters.
    public init(width: Int, height: Int, fx: Double, fy: Double, cx: Double, cy: Double,
                k1: Double = 0, k2: Double = 0, k3: Double = 0, k4: Double = 0,
                maxIncidenceAngle: Double? = nil) {
        self.width = width
        self.height = height
        self.fx = fx
        self.fy = fy
        self.cx = cx
        self.cy = cy
        self.k1 = k1
        self.k2 = k2
        self.k3 = k3
        self.k4 = k4
        if let maxIncidenceAngle {
            self.maxIncidenceAngle = maxIncidenceAngle
        } else {
            // Scan for the first non-increasing point of θ_d(θ) in 0.1° steps.
            var limit = Double.pi
            var t = 0.0
            while t < Double.pi {
                let t2 = t * t
                let d = 1 + t2 * (3 * k1 + t2 * (5 * k2 + t2 * (7 * k3 + t2 * 9 * k4)))
                if d <= 0 { limit = t; break }
                t += Double.pi / 1800
            }
            self.maxIncidenceAngle = limit
        }
    }

    /// θ_d(θ) and its derivative dθ_d/dθ.
    @inlinable
    func thetaD(_ t: Double) -> (Double, Double) {
        let t2 = t * t
        let poly = 1 + t2 * (k1 + t2 * (k2 + t2 * (k3 + t2 * k4)))
        let dpoly = 1 + t2 * (3 * k1 + t2 * (5 * k2 + t2 * (7 * k3 + t2 * 9 * k4)))
        return (t * poly, dpoly)
    }

    @inlinable
    public func distortWithJacobian(_ xn: Vector2) -> (Vector2, Vector2, Vector2) {
        // On the z = 1 plane: θ = atan(r). s = θ_d / r → 1 as r → 0.
        let r2 = xn.x * xn.x + xn.y * xn.y
        let r = r2.squareRoot()
        if r < 1e-9 {
            return (xn, Vector2(1, 0), Vector2(0, 1))
        }
        let theta = atan(r)
        let (td, dtd) = thetaD(theta)
        let s = td / r
        // ds/dr = (dθ_d/dθ · dθ/dr · r − θ_d) / r², dθ/dr = 1 / (1 + r²).
        let dsdr = (dtd / (1 + r2) * r - td) / r2
        let jx = Vector2(s + xn.x * dsdr * xn.x / r, xn.y * dsdr * xn.x / r)
        let jy = Vector2(xn.x * dsdr * xn.y / r, s + xn.y * dsdr * xn.y / r)
        return (s * xn, jx, jy)
    }

    @inlinable
    public func distortionCoefficientJacobian(_ xn: Vector2) -> (Vector2, Vector2) {
        // d = (θ_d / r) x_n with θ_d = θ (1 + k1 θ² + k2 θ⁴ + …) ⇒ ∂d/∂k1 = x_n θ³ / r, ∂d/∂k2 = x_n θ⁵ / r.
        let r = (xn.x * xn.x + xn.y * xn.y).squareRoot()
        guard r > 1e-9 else { return (.zero, .zero) }
        let theta = atan(r), t3 = theta * theta * theta
        return ((t3 / r) * xn, (t3 * theta * theta / r) * xn)
    }

    @inlinable
    public func project(_ p_C: Vector3) -> Vector2? {
        projectWithJacobian(p_C)?.uv
    }

    /// Chain rule through θ = atan2(ρ, z), ρ = √(x² + y²), `(x_d, y_d) = (θ_d/ρ)(x, y)`.
    @inlinable
    public func projectWithJacobian(_ p_C: Vector3) -> (uv: Vector2, jacobian: Jacobian2x3)? {
        let x = p_C.x, y = p_C.y, z = p_C.z
        let rho2 = x * x + y * y
        let rho = rho2.squareRoot()
        let n2 = rho2 + z * z
        guard n2 > 0 else { return nil }
        let theta = atan2(rho, z)
        guard theta <= maxIncidenceAngle else { return nil }
        if rho < 1e-12 * max(abs(z), 1e-300) {
            // On the axis the model is locally the pinhole x/z.
            guard z > 0 else { return nil }
            let iz = 1 / z
            let uv = Vector2(cx + fx * x * iz, cy + fy * y * iz)
            return (uv, Jacobian2x3(row0: Vector3(fx * iz, 0, -fx * x * iz * iz),
                                    row1: Vector3(0, fy * iz, -fy * y * iz * iz)))
        }
        let (td, dtd) = thetaD(theta)
        let s = td / rho
        // ∂θ/∂p = (z x / (ρ n²), z y / (ρ n²), −ρ / n²).
        let dTheta = Vector3(z * x / (rho * n2), z * y / (rho * n2), -rho / n2)
        // ∂ρ/∂p = (x/ρ, y/ρ, 0).
        let dRho = Vector3(x / rho, y / rho, 0)
        // ∂s/∂p = (dθ_d/dθ ∂θ/∂p ρ − θ_d ∂ρ/∂p) / ρ².
        let ds = (dtd * rho * dTheta - td * dRho) / rho2
        let jx = x * ds + Vector3(s, 0, 0)
        let jy = y * ds + Vector3(0, s, 0)
        let uv = Vector2(cx + fx * s * x, cy + fy * s * y)
        return (uv, Jacobian2x3(row0: fx * jx, row1: fy * jy))
    }

    /// Unit bearing through `uv`: Newton on the scalar equation θ_d(θ) = ‖x_d‖, then
    /// `b = (sin θ · x_d/‖x_d‖, sin θ · y_d/‖x_d‖, cos θ)`. Converges to 1e-12 rad.
    @inlinable
    public func unproject(_ uv: Vector2) -> Vector3 {
        let xd = Vector2((uv.x - cx) / fx, (uv.y - cy) / fy)
        let rd = xd.norm
        if rd < 1e-12 { return Vector3(xd.x, xd.y, 1).normalized }
        var theta = rd
        for _ in 0..<50 {
            let (td, dtd) = thetaD(theta)
            guard dtd != 0 else { break }
            let step = (td - rd) / dtd
            theta -= step
            if abs(step) < 1e-12 { break }
        }
        let st = sin(theta)
        return Vector3(st * xd.x / rd, st * xd.y / rd, cos(theta))
    }
}
