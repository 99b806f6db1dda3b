import ParallaxMath
import ParallaxVision

/// Matching against the points of many keyframes at once, for a view that no single keyframe
/// resembles.
///
/// The shortlist of ``Relocalizer/locate(_:R_gravity_camera:camera:in:where:)`` asks which
/// keyframes look like the query and matches each of the best few. A camera a metre or more
/// beside every mapped view (a second session on another route through a mapped room) sees each
/// wall from between the keyframes that mapped it: the points it recognises are spread over many
/// keyframes, none of which gathers enough votes, matches or inliers on its own. Matching the query
/// against the pooled points of many keyframes (the whole map when it is small; direct 2-D–3-D
/// matching as in Sattler, Leibe & Kobbelt, ICCV 2011, with the bag of words choosing what fills
/// a bounded pool) finds those spread correspondences; the gravity-aligned PnP then verifies them
/// as usual.
extension Relocalizer {
    /// Points closer than this (m) count as one map point in the ratio test: the same corner is
    /// stored once per keyframe that saw it, and its copies must not make each other ambiguous.
    static let samePointRadius = 0.05

    /// The pooled fallback of the global search: nil when the pooled matches do not verify.
    mutating func locateInPool(_ query: [DescribedKeypoint], R_gravity_camera: Matrix3, camera: any CameraModel,
                               in map: KeyframeDatabase, where isIncluded: ((Keyframe) -> Bool)?) -> Relocalization? {
        guard pooledPointBudget > 0 else { return nil }
        let matches = pooledCorrespondences(query, camera: camera, in: map, where: isIncluded)
        lastAttempt.pooledCorrespondences = matches.count
        var solver = pnp
        solver.iterations = max(pnp.iterations, pooledIterations)
        guard let solution = solver.solve(matches.map(\.correspondence), R_gravity_camera: R_gravity_camera) else { return nil }
        lastAttempt.inliers = solution.inliers.count
        // The keyframes that saw the inliers, most first: what loop closure attaches to.
        var support: [Int: Int] = [:]
        for i in solution.inliers { support[matches[i].keyframeID, default: 0] += 1 }
        let ids = support.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key > $1.key }.map(\.key)
        return Relocalization(T_world_camera: solution.T_world_camera, inlierCount: solution.inliers.count, keyframeIDs: ids,
                              inliers: solution.inliers.map { matches[$0].correspondence })
    }

    /// The keyframes whose points are pooled: those `isIncluded` accepts (all when nil), best
    /// bag-of-words score first, then the ones sharing no word with the query (newest first), as
    /// many as fit in ``pooledPointBudget`` points. A small map is pooled whole: on the V1_02 starts
    /// of docs/world-maps.md the points that verified lay in keyframes ranked below 60 of 67.
    func pool(for descriptors: [BinaryDescriptor], in map: KeyframeDatabase, where isIncluded: ((Keyframe) -> Bool)?) -> [Keyframe] {
        let scored = map.bestScoring(descriptors, count: .max, where: isIncluded)
        let ids = Set(scored.map(\.id))
        let rest = map.keyframes.reversed().filter { !ids.contains($0.id) && (isIncluded?($0) ?? true) }
        var out: [Keyframe] = []
        var points = 0
        for k in scored + rest {
            guard points + k.points.count <= pooledPointBudget else { break }
            out.append(k)
            points += k.points.count
        }
        return out
    }

    /// Query-to-map correspondences over the pooled points (``pool(for:in:where:)``): the nearest
    /// map point per query descriptor by Hamming distance, kept when it is within the matcher's
    /// distance and beats the nearest *other* map point by the matcher's ratio; each map point
    /// keeps only its best query. Each distance is computed once per query.
    func pooledCorrespondences(_ query: [DescribedKeypoint], camera: any CameraModel, in map: KeyframeDatabase,
                               where isIncluded: ((Keyframe) -> Bool)?) -> [(correspondence: PnPCorrespondence, keyframeID: Int)] {
        var descriptors: [BinaryDescriptor] = []
        var positions: [Vector3] = []
        var owners: [Int] = []
        for k in pool(for: query.map(\.descriptor), in: map, where: isIncluded) {
            for p in k.points {
                descriptors.append(p.descriptor)
                positions.append(p.position_world)
                owners.append(k.id)
            }
        }
        guard !descriptors.isEmpty else { return [] }
        let r2 = Self.samePointRadius * Self.samePointRadius
        var bestForPoint: [Int: (query: Int, distance: Int)] = [:]
        var distances = [Int](repeating: 0, count: descriptors.count)  // one query's, reused
        for (qi, q) in query.enumerated() {
            var best = Int.max, bestIndex = -1
            for (ti, t) in descriptors.enumerated() {
                let d = q.descriptor.distance(to: t)
                distances[ti] = d
                if d < best { best = d; bestIndex = ti }
            }
            guard bestIndex >= 0, best <= matcher.maximumDistance else { continue }
            let x = positions[bestIndex]
            var second = Int.max
            for (ti, d) in distances.enumerated() where d < second {
                let dx = positions[ti] - x
                if dx.dot(dx) > r2 { second = d }
            }
            guard second == Int.max || Double(best) < matcher.ratio * Double(second) else { continue }
            if let previous = bestForPoint[bestIndex], previous.distance <= best { continue }
            bestForPoint[bestIndex] = (qi, best)
        }
        return bestForPoint.sorted { $0.value.query < $1.value.query }.map { entry in
            (PnPCorrespondence(bearing_camera: camera.unproject(query[entry.value.query].pixel), point_world: positions[entry.key]),
             owners[entry.key])
        }
    }
}
