import ParallaxMath

/// The estimator's camera rig and feature triangulation (linear least squares on the rays, then
/// Gauss–Newton on the normalised reprojection error), for tools that triangulate tracks with known
/// body poses: the front-end evaluation scores tracks this way against ground truth.
public struct TrackTriangulation: Sendable {
    private let rig: CameraRig

    /// A rig with cam0 at (`R_body_cam0`, `p_body_cam0`) in the body and cam1 relative to cam0
    /// (`p_c1 = R_c1_c0 p_c0 + t_c1_c0`; identity and zero for a mono rig).
    public init(R_body_cam0: Matrix3, p_body_cam0: Vector3, R_c1_c0: Matrix3 = .identity, t_c1_c0: Vector3 = .zero) {
        rig = CameraRig(R_body_cam0: R_body_cam0, p_body_cam0: p_body_cam0, R_c1_c0: R_c1_c0, t_c1_c0: t_c1_c0,
                        hasRight: false)
    }

    /// World pose (`R_world_cam`, camera centre) of camera `index` (0 or 1) for the body pose
    /// (`bodyRotation`, `bodyPosition`), computed as the estimator does.
    public func cameraPose(_ index: Int, bodyRotation: Matrix3, bodyPosition: Vector3) -> (Matrix3, Vector3) {
        rig.cameraPose(index, bodyRotation: bodyRotation, bodyPosition: bodyPosition)
    }

    /// The world point seen by cam0 at `normalized[k]` (undistorted `(x/z, y/z)`) from the body pose
    /// `bodyPoses[k]` (`R_world_body`, position).
    ///
    /// - Parameters:
    ///   - iterations: Gauss–Newton steps at most.
    ///   - minParallax: smallest angle (radians) between the first ray and another one.
    ///   - maxErrorNormalized: largest reprojection error accepted, normalised units (`.infinity`
    ///     keeps every point in front of the cameras).
    /// - Returns: nil when the parallax is too small, the point lies behind a camera or beyond
    ///   60 m, or a ray misses it by more than `maxErrorNormalized`.
    public func triangulateCam0(_ normalized: [Vector2], bodyPoses: [(Matrix3, Vector3)], iterations: Int = 5,
                                minParallax: Double = 0.01, maxErrorNormalized: Double = 0.01) -> Vector3? {
        guard normalized.count == bodyPoses.count else { return nil }
        let observations = normalized.enumerated().map { Observation(frame: $0.offset, left: $0.element, right: nil) }
        return Triangulation.triangulate(observations, poses: bodyPoses, rig: rig, iterations: iterations,
                                         minParallax: minParallax, maxErrorNormalized: maxErrorNormalized)
    }
}
