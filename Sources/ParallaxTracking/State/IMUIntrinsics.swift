import ParallaxMath

/// The IMU's scale-factor and axis-misalignment corrections as the filter estimates them online
/// (the gyroscope and accelerometer parts of OpenVINS's IMU intrinsics, Yang et al., "Online
/// Self-Calibration for Visual-Inertial Navigation", T-RO 2023; Kalibr's `scale-misalignment`
/// model). The body rate and specific force are
///
///     ω = T_g (ω̃ − b_g),   a = T_a (ã − b_a),   T = I + diag(s) + [0 0 0; m₀ 0 0; m₁ m₂ 0],
///
/// so T undoes the sensor's own scale-and-misalignment matrix D (T ≈ D⁻¹): a gyroscope axis that
/// reads 1 % high has s ≈ −1 %. The misalignments are small angles (rad) of the lower triangle.
public struct IMUIntrinsics: Sendable, Equatable {
    /// Gyroscope scale corrections per axis (fraction).
    public var gyroScale: Vector3
    /// Gyroscope misalignment corrections (T₁₀, T₂₀, T₂₁), rad.
    public var gyroMisalignment: Vector3
    /// Accelerometer scale corrections per axis (fraction).
    public var accelScale: Vector3
    /// Accelerometer misalignment corrections (T₁₀, T₂₀, T₂₁), rad.
    public var accelMisalignment: Vector3

    /// The given corrections (none by default: a perfect IMU).
    public init(gyroScale: Vector3 = .zero, gyroMisalignment: Vector3 = .zero,
                accelScale: Vector3 = .zero, accelMisalignment: Vector3 = .zero) {
        self.gyroScale = gyroScale
        self.gyroMisalignment = gyroMisalignment
        self.accelScale = accelScale
        self.accelMisalignment = accelMisalignment
    }

    /// T_g.
    public var gyroCorrection: Matrix3 { Self.correction(scale: gyroScale, misalignment: gyroMisalignment) }
    /// T_a.
    public var accelCorrection: Matrix3 { Self.correction(scale: accelScale, misalignment: accelMisalignment) }

    /// I + diag(scale) + the lower-triangular misalignments.
    static func correction(scale s: Vector3, misalignment m: Vector3) -> Matrix3 {
        Matrix3(identityPlusDiagonal: s, strictlyLower: m)
    }

    /// ∂(T u)/∂s: diag(u).
    static func scaleJacobian(_ u: Vector3) -> Matrix3 { Matrix3(diagonal: u) }

    /// ∂(T u)/∂m: row 1 gets u_x·δm₀, row 2 gets u_x·δm₁ + u_y·δm₂.
    static func misalignmentJacobian(_ u: Vector3) -> Matrix3 {
        Matrix3(rows: .zero, Vector3(u.x, 0, 0), Vector3(0, u.x, u.y))
    }
}
