import ParallaxImaging
import ParallaxMath
import ParallaxVision

/// A successful relocalization: the camera's pose in the map's world and the evidence.
public struct Relocalization: Sendable {
    /// cam0 pose in the map's world.
    public var T_world_camera: RigidTransform
    /// Inlier correspondences of the PnP solve.
    public var inlierCount: Int
    /// Keyframes whose points were matched.
    public var keyframeIDs: [Int]
}

/// Finds the camera in a keyframe map from one image: corners, oriented BRIEF, candidate
/// keyframes by descriptor votes, Hamming matching, gravity-aligned PnP RANSAC.
public struct Relocalizer: Sendable {
    /// Corner detector for the query image.
    public var detector = GridCornerDetector(gridColumns: 24, gridRows: 16, minDistance: 12, minScore: 8)
    /// Corners asked of the detector.
    public var maximumCorners = 400
    /// Descriptor extractor (must be the one the map was built with).
    public var extractor = OrientedBRIEF()
    /// Matcher.
    public var matcher = DescriptorMatcher()
    /// Pose solver.
    public var pnp = GravityAlignedPnP()
    /// Candidate keyframes matched per query.
    public var candidateCount = 3

    /// Creates a relocalizer with the defaults.
    public init() {}

    /// Describes the corners of `image` (the query side).
    public func describeCorners(_ image: GrayImage) -> [DescribedKeypoint] {
        guard let plane = FloatPlane(width: image.width, height: image.height, gray8: image.pixels) else { return [] }
        let corners = detector.detect(in: plane, existing: [], maxCount: maximumCorners)
        return extractor.describe(image, at: corners.map(\.position)).map(\.keypoint)
    }

    /// Locates the camera that took `image`, whose rotation relative to gravity is that of
    /// `R_gravity_camera` up to a yaw; nil when no keyframe is verified.
    public func locate(_ image: GrayImage, R_gravity_camera: Matrix3, camera: any CameraModel,
                       in map: KeyframeDatabase) -> Relocalization? {
        let query = describeCorners(image)
        guard query.count >= pnp.minimumInliers else { return nil }
        let descriptors = query.map(\.descriptor)
        let candidates = map.candidates(for: descriptors, count: candidateCount)
        guard !candidates.isEmpty else { return nil }
        var correspondences: [PnPCorrespondence] = []
        var used = Set<Int>()  // one map point per query corner over all candidates
        for k in candidates {
            for m in matcher.match(descriptors, k.points.map(\.descriptor)) where !used.contains(m.query) {
                used.insert(m.query)
                correspondences.append(PnPCorrespondence(bearing_camera: camera.unproject(query[m.query].pixel),
                                                         point_world: k.points[m.train].position_world))
            }
        }
        guard let solution = pnp.solve(correspondences, R_gravity_camera: R_gravity_camera) else { return nil }
        return Relocalization(T_world_camera: solution.T_world_camera, inlierCount: solution.inliers.count,
                              keyframeIDs: candidates.map(\.id))
    }
}
