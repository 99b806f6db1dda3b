import ParallaxMath

/// A 2×3 Jacobian, stored by rows: `∂(u, v) / ∂(x, y, z)`.
public struct Jacobian2x3: Sendable, Equatable {
    /// `∂u / ∂(x, y, z)`.
    public var row0: Vector3
    /// `∂v / ∂(x, y, z)`.
    public var row1: Vector3
    /// Creates a Jacobian from its two rows.
    @inlinable public init(row0: Vector3, row1: Vector3) {
        self.row0 = row0
        self.row1 = row1
    }
}

/// A central camera: maps a point in the camera frame `C` (OpenCV convention: x right,
/// y down, z forward) to a pixel, and back to a viewing ray.
///
/// Pixel coordinates follow OpenCV: the centre of the top-left pixel is (0, 0).
///
/// Every model here factors as `uv = K · d(x_n)` where `x_n = (x/z, y/z)` are the
/// *normalised* (undistorted, z = 1) coordinates, `d` is the lens distortion and `K`
/// the pinhole intrinsics `fx, fy, cx, cy`. The front-end works in normalised
/// coordinates for epipolar geometry, so both directions are exposed.
public protocol CameraModel: Sendable {
    /// Image width in pixels.
    var width: Int { get }
    /// Image height in pixels.
    var height: Int { get }
    /// Focal length along x, pixels.
    var fx: Double { get }
    /// Focal length along y, pixels.
    var fy: Double { get }
    /// Principal point x, pixels.
    var cx: Double { get }
    /// Principal point y, pixels.
    var cy: Double { get }

    /// Applies the lens distortion to normalised coordinates `(x/z, y/z)`, returning
    /// distorted normalised coordinates (still before `K`), with its 2×2 Jacobian
    /// `∂d/∂x_n` as columns `(∂d/∂x, ∂d/∂y)`.
    func distortWithJacobian(_ xn: Vector2) -> (Vector2, Vector2, Vector2)

    /// `∂d/∂k1` and `∂d/∂k2` at normalised coordinates `x_n`: how the distorted point moves with
    /// the model's first two distortion coefficients (radial k1, k2 for radial–tangential; the
    /// θ³ and θ⁵ terms for equidistant). Online intrinsic calibration uses them.
    func distortionCoefficientJacobian(_ xn: Vector2) -> (Vector2, Vector2)

    /// Projects a point in the camera frame to pixels; `nil` when the point is behind
    /// the camera (or outside the model's valid field of view).
    func project(_ p_C: Vector3) -> Vector2?

    /// Projects and returns the 2×3 Jacobian of the pixel with respect to the point.
    func projectWithJacobian(_ p_C: Vector3) -> (uv: Vector2, jacobian: Jacobian2x3)?

    /// The unit bearing vector (`‖b‖ = 1`, `b.z > 0` for pinhole models) of the ray through
    /// the pixel `uv`, obtained by inverting the distortion iteratively (converged to 1e-10
    /// in normalised coordinates, i.e. far below 1e-6 px).
    func unproject(_ uv: Vector2) -> Vector3
}

extension CameraModel {
    /// The 3×3 pinhole intrinsics matrix `K = [fx 0 cx; 0 fy cy; 0 0 1]` (no distortion).
    public var intrinsicsMatrix: Matrix3 {
        Matrix3(rowMajor: [fx, 0, cx, 0, fy, cy, 0, 0, 1])
    }

    /// Undistorts one pixel to normalised coordinates `(x/z, y/z)` on the z = 1 plane.
    /// Rays at or beyond 90° from the axis (possible only for fisheye lenses) map to
    /// non-finite values; use ``unproject(_:)`` for those.
    @inlinable
    public func undistort(_ uv: Vector2) -> Vector2 {
        let b = unproject(uv)
        return Vector2(b.x / b.z, b.y / b.z)
    }

    /// Undistorts pixels to normalised coordinates on the z = 1 plane (points only, not images).
    public func undistort(points: [Vector2]) -> [Vector2] {
        points.map { undistort($0) }
    }

    /// Maps normalised coordinates `(x/z, y/z)` to pixels (distortion + intrinsics).
    @inlinable
    public func distortToPixel(_ xn: Vector2) -> Vector2 {
        let (d, _, _) = distortWithJacobian(xn)
        return Vector2(fx * d.x + cx, fy * d.y + cy)
    }

    /// True when the pixel lies inside the image with the given margin (pixels).
    @inlinable
    public func contains(_ uv: Vector2, margin: Double = 0) -> Bool {
        uv.x >= margin && uv.y >= margin && uv.x <= Double(width - 1) - margin
            && uv.y <= Double(height - 1) - margin
    }

    /// Inverts `d` with Gauss–Newton on `‖d(x_n) − x_d‖²`, starting from `x_n = x_d`.
    /// The 2×2 system is solved in closed form; stops when the step falls below 1e-12
    /// (well inside the 1e-10 requirement) or after 50 iterations.
    @inlinable
    func invertDistortion(_ xd: Vector2) -> Vector2 {
        var xn = xd
        for _ in 0..<50 {
            let (d, jx, jy) = distortWithJacobian(xn)
            let r = d - xd
            // Solve J·δ = −r with J = [jx jy] (columns).
            let det = jx.x * jy.y - jy.x * jx.y
            guard det != 0, det.isFinite else { break }
            let dx = -(jy.y * r.x - jy.x * r.y) / det
            let dy = -(-jx.y * r.x + jx.x * r.y) / det
            xn.x += dx
            xn.y += dy
            if dx * dx + dy * dy < 1e-24 { break }
        }
        return xn
    }
}

/// Shared pinhole factorisation for models whose distortion acts on `(x/z, y/z)`.
extension CameraModel {
    /// Projection through `K · d(x/z, y/z)`; `nil` for `z ≤ 1e-9` (behind or on the camera plane).
    @inlinable
    func projectPinholeFactored(_ p: Vector3) -> Vector2? {
        guard p.z > 1e-9 else { return nil }
        let (d, _, _) = distortWithJacobian(Vector2(p.x / p.z, p.y / p.z))
        return Vector2(fx * d.x + cx, fy * d.y + cy)
    }

    /// Chain rule `∂uv/∂p = K₂ · ∂d/∂x_n · ∂x_n/∂p` with `∂x_n/∂p = [1/z 0 −x/z²; 0 1/z −y/z²]`.
    @inlinable
    func projectPinholeFactoredWithJacobian(_ p: Vector3) -> (uv: Vector2, jacobian: Jacobian2x3)? {
        guard p.z > 1e-9 else { return nil }
        let iz = 1 / p.z
        let xn = Vector2(p.x * iz, p.y * iz)
        let (d, jx, jy) = distortWithJacobian(xn)
        // Rows of ∂x_n/∂p.
        let n0 = Vector3(iz, 0, -xn.x * iz)
        let n1 = Vector3(0, iz, -xn.y * iz)
        let r0 = fx * (jx.x * n0 + jy.x * n1)
        let r1 = fy * (jx.y * n0 + jy.y * n1)
        return (Vector2(fx * d.x + cx, fy * d.y + cy), Jacobian2x3(row0: r0, row1: r1))
    }
}
