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
    /// True when the image confirmed a predicted pose (``Relocalizer/locate(_:predicted:camera:in:search:)``)
    /// and ``T_world_camera`` is that prediction, unchanged.
    public var confirmsPrediction = false
    /// The inlier correspondences (camera bearing, map point): a placement over several frames
    /// solves them together (``GravityAlignedPnP/placeOdometry(_:yaw:t:scale:)``).
    public var inliers: [PnPCorrespondence] = []

    /// Creates a result.
    public init(T_world_camera: RigidTransform, inlierCount: Int, keyframeIDs: [Int], confirmsPrediction: Bool = false,
                inliers: [PnPCorrespondence] = []) {
        self.T_world_camera = T_world_camera
        self.inlierCount = inlierCount
        self.keyframeIDs = keyframeIDs
        self.confirmsPrediction = confirmsPrediction
        self.inliers = inliers
    }
}

/// Finds the camera in a keyframe map from one image: corners, oriented BRIEF, candidate
/// keyframes from the bag-of-words index (shortlist ordered by descriptor votes, ``KeyframeDatabase/candidates(for:maximumDistance:count:minimumVotes:)``),
/// Hamming matching, gravity-aligned PnP RANSAC; when the candidates do not verify, matching
/// against the pooled points of many keyframes (``pooledCorrespondences(_:camera:in:where:)``).
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
    /// Candidate keyframes matched per query. Six, not three: a second session flying another
    /// route through a mapped room (simulated V1_02 against a map of V1_01) found its place only
    /// among the 4th–6th keyframes by votes and never localized from one start with three; loops
    /// and blackout recoveries were unchanged by it (18 runs).
    public var candidateCount = 6
    /// Most map points pooled and matched together when the shortlisted keyframes do not verify
    /// (``pooledCorrespondences(_:camera:in:where:)``); 0 turns that off. It bounds the cost
    /// whatever the map's size: about 2 × 400 × the pool's points Hamming distances per query
    /// (measured: 3 800 points add about 15 ms to an attempt on this 2-core machine).
    public var pooledPointBudget = 6000
    /// RANSAC iterations of the PnP over pooled matches, which hold more outliers than a
    /// keyframe's.
    public var pooledIterations = 1000

    /// What the last ``locate(_:R_gravity_camera:camera:in:)`` found at each stage (for reports).
    public internal(set) var lastAttempt = Attempt()

    /// Counts of one relocalization attempt.
    public struct Attempt: Sendable, CustomStringConvertible {
        /// Described query corners.
        public var corners = 0
        /// Candidate keyframes.
        public var candidates = 0
        /// Descriptor matches handed to PnP.
        public var correspondences = 0
        /// PnP inliers (0 when it failed).
        public var inliers = 0
        /// Inliers of the best pose when too few for a solution (diagnostics).
        public var bestRejectedInliers = 0
        /// Matches over the pooled keyframes when the candidates did not verify (0: not tried).
        public var pooledCorrespondences = 0
        public var description: String {
            "corners \(corners), candidates \(candidates), matches \(correspondences), inliers \(inliers) (best rejected \(bestRejectedInliers), pooled \(pooledCorrespondences))"
        }
    }

    /// Creates a relocalizer with the defaults.
    public init() {}

    /// The corners of `image` (pixels).
    public func detectCorners(_ image: GrayImage) -> [Vector2] {
        guard let plane = FloatPlane(width: image.width, height: image.height, gray8: image.pixels) else { return [] }
        return detector.detect(in: plane, existing: [], maxCount: maximumCorners).map(\.position)
    }

    /// Describes the corners of `image` (the query side).
    public func describeCorners(_ image: GrayImage) -> [DescribedKeypoint] {
        extractor.describe(image, at: detectCorners(image)).map(\.keypoint)
    }

    /// Locates the camera that took `image`, whose rotation relative to gravity is that of
    /// `R_gravity_camera` up to a yaw; nil when no keyframe is verified.
    /// `isIncluded` limits the candidate keyframes (loop detection: only old enough ones).
    public mutating func locate(_ image: GrayImage, R_gravity_camera: Matrix3, camera: any CameraModel,
                                in map: KeyframeDatabase, where isIncluded: ((Keyframe) -> Bool)? = nil) -> Relocalization? {
        let query = describeCorners(image)
        lastAttempt = Attempt(corners: query.count)
        guard query.count >= pnp.minimumInliers else { return nil }
        let descriptors = query.map(\.descriptor)
        let candidates = map.candidates(for: descriptors, count: candidateCount, where: isIncluded)
        lastAttempt.candidates = candidates.count
        guard !candidates.isEmpty else { return locateInPool(query, R_gravity_camera: R_gravity_camera, camera: camera, in: map, where: isIncluded) }
        var correspondences: [PnPCorrespondence] = []
        var used = Set<Int>()  // one map point per query corner over all candidates
        for k in candidates {
            for m in matcher.match(descriptors, k.points.map(\.descriptor)) where !used.contains(m.query) {
                used.insert(m.query)
                correspondences.append(PnPCorrespondence(bearing_camera: camera.unproject(query[m.query].pixel),
                                                         point_world: k.points[m.train].position_world))
            }
        }
        lastAttempt.correspondences = correspondences.count
        guard let solution = pnp.solve(correspondences, R_gravity_camera: R_gravity_camera) else {
            var loose = pnp
            loose.minimumInliers = 3
            lastAttempt.bestRejectedInliers = loose.solve(correspondences, R_gravity_camera: R_gravity_camera)?.inliers.count ?? 0
            return locateInPool(query, R_gravity_camera: R_gravity_camera, camera: camera, in: map, where: isIncluded)
        }
        lastAttempt.inliers = solution.inliers.count
        return Relocalization(T_world_camera: solution.T_world_camera, inlierCount: solution.inliers.count,
                              keyframeIDs: candidates.map(\.id), inliers: solution.inliers.map { correspondences[$0] })
    }
}
