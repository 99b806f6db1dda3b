import ParallaxDatasets
import ParallaxMath

/// Gyro-only rotation between two camera frames (the prediction the VIO hands the front-end).
public enum GyroIntegration {
    /// `R_cur_prev` for the camera: integrates `ω` (body frame, rad/s) over `[t0, t1]`
    /// (nanoseconds) with the midpoint of consecutive samples, `R_Bprev_Bcur = Π exp(ω̄ Δt)`,
    /// then `R_Ccur_Cprev = R_C_B · R_Bprev_Bcurᵀ · R_B_C`, after subtracting `gyroscopeBias`
    /// (rad/s, body frame). Pass a bias estimate: EuRoC's gyro bias (~0.08 rad/s about the
    /// optical axis) is a 0.2° error per frame, which the 2-point RANSAC would read as
    /// outliers at the image border. Returns `nil` when no IMU sample covers the interval.
    public static func cameraRotation(imu: [IMUSample], from t0: Int64, to t1: Int64, R_B_C: Matrix3,
                                      gyroscopeBias: Vector3 = .zero) -> Matrix3? {
        guard t1 > t0, let first = imu.firstIndex(where: { $0.timestampNs > t0 }) else { return nil }
        var R = Matrix3.identity
        var k = max(first - 1, 0)
        var covered = false
        while k + 1 < imu.count, imu[k].timestampNs < t1 {
            let a = imu[k], b = imu[k + 1]
            let s = max(a.timestampNs, t0), e = min(b.timestampNs, t1)
            if e > s {
                let w = 0.5 * (a.angularVelocity + b.angularVelocity) - gyroscopeBias
                R = R * SO3.exp(w * (Double(e - s) * 1e-9))
                covered = true
            }
            k += 1
        }
        guard covered else { return nil }
        return R_B_C.transpose * R.transpose * R_B_C
    }

    /// Mean angular velocity over the first `seconds` of samples: the gyro bias when the
    /// sensor starts at rest (zero when there are no samples).
    public static func staticBias(imu: [IMUSample], seconds: Double) -> Vector3 {
        guard let t0 = imu.first?.timestampNs else { return .zero }
        let window = imu.prefix { Double($0.timestampNs - t0) * 1e-9 <= seconds }
        return window.reduce(Vector3.zero) { $0 + $1.angularVelocity } / Double(max(window.count, 1))
    }
}
