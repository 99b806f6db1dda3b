import Foundation

extension Quaternion {
    /// Creates a quaternion from `(x, y, z, w)` components — the TUM trajectory and ROS order
    /// (w **last**), not normalised. Inverse of ``xyzw``.
    @inlinable public init(xyzw v: Vector4) { self.init(w: v.w, x: v.x, y: v.y, z: v.z) }

    /// Same as ``init(xyzw:)``: components in `(x, y, z, w)` order.
    @inlinable public init(from xyzw: Vector4) { self.init(xyzw: xyzw) }

    /// Creates a quaternion from `(w, x, y, z)` components — the EuRoC CSV order (w **first**).
    @inlinable public init(wxyz v: Vector4) { self.init(w: v.x, x: v.y, y: v.z, z: v.w) }

    /// The rotation with ARKit/SceneKit Euler angles `(pitch, yaw, roll)` = rotations about the
    /// node's x, y and z axes, composed as `R = Ry(yaw) · Rx(pitch) · Rz(roll)`.
    ///
    /// Source: Apple's RealityKit `Transform.init(pitch:yaw:roll:)` documentation spells the order
    /// out: intrinsic y, then body x, then body z — equivalently extrinsic z (roll) first, then world
    /// x (pitch), then world y (yaw). `SCNNode.eulerAngles` and `ARCamera.eulerAngles` use the same
    /// component layout (x = pitch, y = yaw, z = roll, "applied in reverse order of the components");
    /// we follow the explicit RealityKit statement.
    public init(eulerAnglesARKit e: (pitch: Double, yaw: Double, roll: Double)) {
        let qy = Quaternion(axis: Vector3(0, 1, 0), angle: e.yaw)
        let qx = Quaternion(axis: Vector3(1, 0, 0), angle: e.pitch)
        let qz = Quaternion(axis: Vector3(0, 0, 1), angle: e.roll)
        self = (qy * qx * qz).normalized
    }

    /// ARKit/SceneKit Euler angles `(pitch, yaw, roll)` of this rotation, the inverse of
    /// ``init(eulerAnglesARKit:)`` for `R = Ry(yaw) · Rx(pitch) · Rz(roll)`.
    ///
    /// From that product: `R₁₂ = −sin(pitch)`, `(R₁₀, R₁₁) = cos(pitch)(sin roll, cos roll)` and
    /// `(R₀₂, R₂₂) = cos(pitch)(sin yaw, cos yaw)`. Ranges: pitch ∈ [−π/2, π/2], yaw and roll ∈ (−π, π].
    /// At gimbal lock (|pitch| = π/2) only yaw ∓ roll is defined; roll is set to 0 and yaw absorbs it
    /// (`yaw = atan2(−R₂₀, R₀₀)`).
    public var eulerAnglesARKit: (pitch: Double, yaw: Double, roll: Double) {
        let r = rotationMatrix
        let sp = max(-1, min(1, -r[1, 2]))
        let pitch = asin(sp)
        let cosPitch = (r[1, 0] * r[1, 0] + r[1, 1] * r[1, 1]).squareRoot()
        if cosPitch < 1e-9 {
            return (pitch, atan2(-r[2, 0], r[0, 0]), 0)
        }
        // atan2 form for pitch keeps full precision near ±π/2, where asin loses digits.
        return (atan2(sp, cosPitch), atan2(r[0, 2], r[2, 2]), atan2(r[1, 0], r[1, 1]))
    }
}
