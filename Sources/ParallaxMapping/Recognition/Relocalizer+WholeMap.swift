import ParallaxMath
import ParallaxVision

/// Matching against every map point, for a view that no single keyframe resembles.
///
/// The shortlist of ``Relocalizer/locate(_:R_gravity_camera:camera:in:where:)`` asks which
/// keyframes look like the query. A camera a metre or more beside every mapped view (a second
/// session on another route through a mapped room) sees each wall from between the keyframes
/// that mapped it: the points it recognises are spread over many keyframes, none of which gathers
/// enough votes, matches or inliers on its own. Matching the query against all points at once
/// (direct 2-D–3-D matching, as in Sattler, Leibe & Kobbelt, ICCV 2011, without their
/// vocabulary-based prioritisation) finds those spread correspondences; the gravity-aligned PnP
/// then verifies them as usual.
extension Relocalizer {
    /// Points closer than this (m) count as one map point in the ratio test: the same corner is
    /// stored once per keyframe that saw it, and its copies must not make each other ambiguous.
    static let samePointRadius = 0.05

    /// The whole-map fallback of the global search: nil when the map is over
    /// ``wholeMapPointLimit`` points or the matches do not verify.
    mutating func locateInWholeMap(_ query: [DescribedKeypoint], R_gravity_camera: Matrix3, camera: any CameraModel,
                                   in map: KeyframeDatabase, where isIncluded: ((Keyframe) -> Bool)?) -> Relocalization? {
        guard wholeMapPointLimit > 0, map.pointCount <= wholeMapPointLimit else { return nil }
        let matches = wholeMapCorrespondences(query, camera: camera, in: map, where: isIncluded)
        lastAttempt.wholeMapCorrespondences = matches.count
        var solver = pnp
        solver.iterations = max(pnp.iterations, wholeMapIterations)
        guard let solution = solver.solve(matches.map(\.correspondence), R_gravity_camera: R_gravity_camera) else { return nil }
        lastAttempt.inliers = solution.inliers.count
        // The keyframes that saw the inliers, most first: what loop closure attaches to.
        var support: [Int: Int] = [:]
        for i in solution.inliers { support[matches[i].keyframeID, default: 0] += 1 }
        let ids = support.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key > $1.key }.map(\.key)
        return Relocalization(T_world_camera: solution.T_world_camera, inlierCount: solution.inliers.count, keyframeIDs: ids)
    }

    /// Query-to-map correspondences over every point of the keyframes `isIncluded` accepts
    /// (all when nil): the nearest map point per query descriptor by Hamming distance, kept when
    /// it is within the matcher's distance and beats the nearest *other* map point by the
    /// matcher's ratio; each map point keeps only its best query.
    func wholeMapCorrespondences(_ query: [DescribedKeypoint], camera: any CameraModel, in map: KeyframeDatabase,
                                 where isIncluded: ((Keyframe) -> Bool)?) -> [(correspondence: PnPCorrespondence, keyframeID: Int)] {
        var descriptors: [BinaryDescriptor] = []
        var positions: [Vector3] = []
        var owners: [Int] = []
        for k in map.keyframes where isIncluded?(k) ?? true {
            for p in k.points {
                descriptors.append(p.descriptor)
                positions.append(p.position_world)
                owners.append(k.id)
            }
        }
        guard !descriptors.isEmpty else { return [] }
        let r2 = Self.samePointRadius * Self.samePointRadius
        var bestForPoint: [Int: (query: Int, distance: Int)] = [:]
        for (qi, q) in query.enumerated() {
            var best = Int.max, bestIndex = -1
            for (ti, t) in descriptors.enumerated() {
                let d = q.descriptor.distance(to: t)
                if d < best { best = d; bestIndex = ti }
            }
            guard bestIndex >= 0, best <= matcher.maximumDistance else { continue }
            let x = positions[bestIndex]
            var second = Int.max
            for (ti, t) in descriptors.enumerated() {
                let d = q.descriptor.distance(to: t)
                guard d < second else { continue }
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
