/// A rigid-body transform (an element of SE(3)) in double precision.
///
/// Name every instance after the frames it maps, as `conventions.md` asks:
/// `T_world_body` maps body coordinates into world coordinates,
/// `p_world = T_world_body * p_body`, and `T_a_c = T_a_b * T_b_c`.
public struct RigidTransform: Equatable, Sendable, CustomStringConvertible {
    /// Rotation part (`q_a_b` for `T_a_b`).
    public var rotation: Quaternion
    /// Translation part: the origin of frame `b` expressed in frame `a`.
    public var translation: Vector3

    /// Creates a transform from a rotation and a translation.
    @inlinable public init(rotation: Quaternion = .identity, translation: Vector3 = .zero) {
        self.rotation = rotation
        self.translation = translation
    }

    /// Creates a transform from a rotation matrix and a translation.
    public init(rotationMatrix: Matrix3, translation: Vector3) {
        self.init(rotation: Quaternion(rotationMatrix: rotationMatrix), translation: translation)
    }

    /// Creates a transform from a homogeneous 4×4 matrix (the rotation block is re-orthonormalised).
    public init(matrix m: Matrix4) {
        self.init(rotationMatrix: m.upperLeft3x3, translation: m.column(3).xyz)
    }

    /// The identity transform.
    public static let identity = RigidTransform()

    /// The rotation as a matrix.
    @inlinable public var rotationMatrix: Matrix3 { rotation.rotationMatrix }

    /// The homogeneous 4×4 matrix.
    public var matrix: Matrix4 { Matrix4(rotation: rotationMatrix, translation: translation) }

    /// The inverse: `T_b_a` for `T_a_b`.
    @inlinable public var inverse: RigidTransform {
        let qi = rotation.inverse
        return RigidTransform(rotation: qi, translation: -qi.act(translation))
    }

    /// Composition: `T_a_c = T_a_b * T_b_c`.
    @inlinable public static func * (a: RigidTransform, b: RigidTransform) -> RigidTransform {
        RigidTransform(rotation: (a.rotation * b.rotation).normalized, translation: a.translation + a.rotation.act(b.translation))
    }

    /// Maps a point: `p_a = T_a_b * p_b`.
    @inlinable public static func * (t: RigidTransform, p: Vector3) -> Vector3 { t.rotation.act(p) + t.translation }

    /// Rotates a direction (no translation).
    @inlinable public func rotate(_ v: Vector3) -> Vector3 { rotation.act(v) }

    /// True when rotation and translation are finite.
    public var isFinite: Bool { rotation.isFinite && translation.isFinite }

    /// A readable rendering for logs and test failures.
    public var description: String {
        "RigidTransform(t: [\(translation.x), \(translation.y), \(translation.z)], q: \(rotation))"
    }
}
