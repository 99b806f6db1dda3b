import ParallaxMath
import ParallaxVision

/// First-order model of a camera's intrinsics as filter states (OpenVINS's `calib_cam_intrinsics`):
/// how a normalised observation moves when the intrinsics change while the measured pixel stays put.
///
/// The front-end undistorts each pixel once, with the calibration's intrinsics θ₀. The filter
/// estimates the offset δθ = θ − θ₀ of θ = (fx, fy, cx, cy, k1, k2): the pinhole intrinsics and the
/// first two distortion coefficients. For a pixel `u = K d(z)` held fixed, differentiating
/// `u = f·d(z) + c` gives `∂d = −(d ∂f + ∂c) / f` per axis, and `∂d = J_d ∂z + D_k ∂k`, so
///
///     G = ∂z/∂θ = J_d⁻¹ [ −diag(d/f) | −diag(1/f) | −D_k ],
///
/// with J_d = ∂d/∂z and D_k = ∂d/∂(k1, k2) from the camera model. An observation stored with θ₀ is
/// moved to the current estimate with `z + G δθ` (the offsets are a pixel or so, where the second
/// order is below 1e-5 px), and the measurement Jacobian of the normalised residual `z − h(x)` with
/// respect to δθ is `−G`.
struct LensIntrinsics {
    /// Error-state entries per camera: fx, fy, cx, cy (pixels), k1, k2.
    static let dimension = 6
    /// The calibration's camera model (θ₀), which undistorted the stored observations.
    let model: any CameraModel

    /// The two rows of G = ∂z/∂θ at normalised point `z` (lanes 0–5: fx, fy, cx, cy, k1, k2).
    func sensitivity(at z: Vector2) -> (SIMD8<Double>, SIMD8<Double>) {
        let (d, jx, jy) = model.distortWithJacobian(z)
        let (dk1, dk2) = model.distortionCoefficientJacobian(z)
        // J_d⁻¹ with J_d = [jx jy] (columns).
        let det = jx.x * jy.y - jy.x * jx.y
        guard abs(det) > 1e-12 else { return (.zero, .zero) }
        let i00 = jy.y / det, i01 = -jy.x / det, i10 = -jx.y / det, i11 = jx.x / det
        // Columns of ∂d/∂θ (pixel fixed), then mapped through J_d⁻¹.
        let fx = model.fx, fy = model.fy
        let columns: [Vector2] = [Vector2(-d.x / fx, 0), Vector2(0, -d.y / fy), Vector2(-1 / fx, 0), Vector2(0, -1 / fy),
                                  -dk1, -dk2]
        var g0 = SIMD8<Double>.zero, g1 = SIMD8<Double>.zero
        for (i, c) in columns.enumerated() {
            g0[i] = i00 * c.x + i01 * c.y
            g1[i] = i10 * c.x + i11 * c.y
        }
        return (g0, g1)
    }

    /// Observation `z` (undistorted with θ₀) moved to intrinsics θ₀ + `offset` (lanes 0–5).
    func corrected(_ z: Vector2, offset: SIMD8<Double>) -> Vector2 {
        let (g0, g1) = sensitivity(at: z)
        return z + Vector2((g0 * offset).sum(), (g1 * offset).sum())
    }

    /// The current intrinsics (fx, fy, cx, cy, k1, k2) for an estimated offset.
    func values(offset: SIMD8<Double>) -> [Double] {
        let (k1, k2) = model.firstDistortionCoefficients
        return [model.fx + offset[0], model.fy + offset[1], model.cx + offset[2], model.cy + offset[3],
                k1 + offset[4], k2 + offset[5]]
    }
}

extension CameraModel {
    /// The coefficients ``LensIntrinsics`` estimates besides the pinhole ones (k1, k2 of either model).
    var firstDistortionCoefficients: (Double, Double) {
        switch self {
        case let c as PinholeRadTanCamera: (c.k1, c.k2)
        case let c as EquidistantCamera: (c.k1, c.k2)
        default: (0, 0)
        }
    }
}
