import Foundation
import ParallaxMath

/// Detects, grows, refines and merges planes in a 3D point map (estimator world `W`, z up).
///
/// Per update, over all map points:
/// 1. **Grow and refine** each known plane: points within ``distanceThreshold`` of the plane
///    (and nearer to it than to any other known plane, save that a horizontal plane's outline also
///    takes the points at a vertical plane's foot or top edge) that are single-linkage connected
///    (``linkRadius``) to its current boundary join it; the
///    plane is refitted by least squares on them (horizontal: mean height with the normal fixed
///    to gravity; vertical: the 2D line through the points' horizontal positions, by PCA).
/// 2. **Detect** new planes among the points left: horizontal ones by a 1D consensus search
///    (the height window of width 2·threshold holding most points — RANSAC's consensus over the
///    single free parameter, evaluated exhaustively), vertical ones by RANSAC on pairs of points
///    (Fischler & Bolles 1981) with a seeded generator; each candidate keeps its largest
///    connected cluster and needs ``minimumPoints`` and ``minimumArea``.
/// 3. **Merge** planes of the same orientation whose equations agree (≤ 10°, ≤ 5 cm), or, for
///    walls, whose points one plane explains (the merged wall's inlier band then widens to hold
///    both, up to twice ``distanceThreshold``), and whose boundaries come within ``linkRadius``:
///    the younger one is removed and its boundary joins the older one. New horizontal slabs
///    within ``duplicateSeparation`` of a known plane over the same area are not detected as
///    planes (triangulation noise, rugs).
/// 4. **Classify** from orientation and height relative to the camera (see ``classify()``).
///
/// **Incremental** (bounded cost over long sessions, see `PlaneTracker+Support.swift`): a plane
/// is refitted only when its support (inlier ids and positions) changed; detection runs only when
/// enough new unassigned points arrived; points the bounded ``LandmarkMap`` evicts leave their
/// positions in the plane's retired hull, so a plane never shrinks because its old points aged out.
struct PlaneTracker {
    /// Orientations to detect.
    let detection: PlaneDetection
    /// Point-to-plane distance for inliers (m).
    var distanceThreshold = 0.025
    /// Single-linkage radius of clusters (m).
    var linkRadius = 0.8
    /// Points a new horizontal plane needs (one free parameter: a dozen points in a thin slab
    /// spread over ≥ ``minimumArea`` is already strong evidence).
    var minimumPoints = 12
    /// Points a new vertical plane needs (two free parameters, found by random sampling).
    var minimumVerticalPoints = 20
    /// Share of each wall's support that must lie within twice ``distanceThreshold`` of the plane
    /// fitted to both for two walls to merge (see ``jointVerticalFit(_:_:)``).
    var jointMergeShare = 0.8
    /// Height (m) by which a new slab must lie under a known upward-facing plane (not the floor)
    /// over the same area for that plane to move down to it (see `detectHorizontal`).
    var layerSeparation = 0.02
    /// Boundary area a new plane needs (m²).
    var minimumArea = 0.05
    /// Parallel planes closer than this (m) over the same area are one surface (a floor seen again
    /// after the tracker's height drifted by ~12 cm came back as a second, "none" plane at 0.10).
    var duplicateSeparation = 0.15
    /// Area (m²) a plane needs to set the floor's height (a bookshelf's bottom shelf has ~0.4 m²).
    var minimumFloorArea = 0.5
    /// Height above the floor (m) up to which a plane is floor too (estimation noise, rugs).
    var floorTolerance = 0.04
    /// Depth below the floor (m) beyond which points are outliers, kept out of every plane.
    var belowFloorTolerance = 0.1
    /// A new vertical plane within this angle (rad) of a wall that it crosses inside both extents
    /// is refused (``crossesWall(normal:offset:members:)``).
    var crossingAngle = 10 * Double.pi / 180
    /// RANSAC iterations for vertical planes.
    var ransacIterations = 200

    private(set) var planes: [Int: DetectedPlane] = [:]
    /// Each plane's inliers at its last refit (ids and positions), to skip unchanged refits and
    /// to retire the points the map evicts.
    var support: [Int: PlaneSupport] = [:]
    /// Each plane's hull (W) of former inliers that left the map.
    var retired: [Int: [Vector3]] = [:]
    /// Inlier bands (m) wider than ``distanceThreshold``, set when walls merge by a joint fit.
    var inlierBands: [Int: Double] = [:]
    /// State of the skip test for detection.
    var detectionGate = DetectionGate()
    /// Refits done and skipped so far (for the benchmark's report).
    private(set) var refitCounts = (done: 0, skipped: 0)
    private var nextID = 0
    private var rng: UInt64 = 0x9A4A_11E5
    private var cameraHeightSum = 0.0
    /// Updates so far (one camera position each): also the token of the current update.
    private(set) var updateCount = 0
    private var covariances: [Matrix3] = []
    private var currentIDs: [UInt64] = []
    /// Floor on each point's standard deviation along the normal in the weighted fit (m).
    var minimumPointSigma = 0.01
    /// Local-surface verdicts kept between updates (see ``LocalSurfaceCache``).
    var surfaceCache = LocalSurfaceCache()
    /// Free space (`PlaneTracker+FreeSpace.swift`): ids of the points seen through each plane.
    var seenThrough: [Int: Set<UInt64>] = [:]
    /// Ids of points that may neither join nor found a plane: the support of a plane removed as a
    /// phantom (see `PlaneTracker+FreeSpace.swift`).
    var refutedIDs: Set<UInt64> = []
    /// Distance (m) beyond a plane a point must lie (at least) for its sight line to cross it.
    var seeThroughMargin = 0.05
    /// Depth (m) inside a plane's boundary the sight line must cross it at (boundaries overreach).
    var seeThroughInset = 0.1
    /// Distinct points seen through a plane before it can be removed as a phantom.
    var minimumSightings = 15
    /// Updates within which a free point must have been seen (in `visible`) to seed a new plane:
    /// 300, thirty seconds at the session's 10 Hz (ten seconds lost walls mapped from sparse points
    /// over longer stretches). Planes are found where the camera looks, as ARKit's are; searching
    /// every free point of a full map cost as much as all the rest of an update. Older points
    /// still join the planes that reach them.
    var detectionWindow = 300
    /// Update at which each point was last in `visible` (pruned to the ``detectionWindow``).
    var lastSeen: [UInt64: Int] = [:]

    init(detection: PlaneDetection) { self.detection = detection }

    /// Replaces a known plane's state (its geometry moved with the map).
    mutating func setPlane(_ plane: DetectedPlane) {
        guard planes[plane.id] != nil else { return }
        planes[plane.id] = plane
    }

    /// Drops a plane (the user removed its anchor); it may be detected again later.
    mutating func forget(planeID: Int) {
        planes[planeID] = nil
        support[planeID] = nil
        retired[planeID] = nil
        inlierBands[planeID] = nil
        seenThrough[planeID] = nil
    }

    /// Updates the planes from the whole point map; `visible` holds the ids of the points seen in
    /// this frame (their sight lines are the free-space evidence; nil: none).
    mutating func update(points mapPoints: [MapPoint], visible: Set<UInt64>? = nil, cameraPosition: Vector3,
                         timestamp: Double) -> PlaneChanges {
        let points = mapPoints.map(\.position)
        let pointIDs = mapPoints.map(\.id)
        covariances = mapPoints.map(\.covariance)
        currentIDs = pointIDs
        retireEvicted(present: Set(pointIDs))
        cameraHeightSum += cameraPosition.z
        updateCount += 1
        noteSightings(visible)
        // Nothing in a room lies below its floor: such points are mistriangulated and would tie
        // the floor's edge to a wall, or found a wall that reaches under the floor.
        let lowest = (floorLevel ?? -.infinity) - belowFloorTolerance
        refutedIDs.formIntersection(pointIDs)
        var free = zip(points, pointIDs).map { $0.z >= lowest && !refutedIDs.contains($1) }
        let before = planes
        var changes = PlaneChanges()

        // Each point near several planes (e.g. where a wall meets the floor) belongs to the
        // nearest one only, so junction points do not pull a plane towards its neighbour.
        let ids = planes.keys.sorted()
        let hulls = ids.map { planes[$0]?.planarBoundary ?? [] }
        var owner = [Int](repeating: -1, count: points.count)
        var ownerDistance = [Double](repeating: .infinity, count: points.count)
        for id in ids {
            guard let plane = planes[id] else { continue }
            let band = inlierBand(id)
            for i in 0..<points.count {
                let d = abs(points[i].dot(plane.normal) - plane.offset)
                // The infinite plane counts: a junction point may lie beyond a wall's seen part.
                guard d < band, d < ownerDistance[i] else { continue }
                owner[i] = id
                ownerDistance[i] = d
            }
        }
        let bands = Dictionary(uniqueKeysWithValues: planes.values.filter { $0.alignment == .vertical }
            .map { ($0.id, EdgeBands($0, width: distanceThreshold)) })
        let ownerEdges = owner.map { bands[$0] }
        let surfaces = joinerSurfaces(points, ids: pointIDs, owner: owner)
        for (k, id) in ids.enumerated() {
            guard var plane = planes[id] else { continue }
            let hull = hulls[k]
            // A point on a local layer across the plane (a wall's points at table height) does not join it.
            let across: LocalSurface = plane.alignment == .horizontal ? .vertical : .horizontal
            // A point a vertical plane owns at its foot or top edge lies where it meets this
            // horizontal one (a floor point at a cabinet's foot): it extends and links this plane's
            // outline too, but only its owner fits on it. Without this, a newly found cabinet front
            // swallows the floor points along its base line, and the floor cannot grow past them.
            // A point in the middle of a wall's height (a wall beside a table top) is no junction.
            let horizontal = plane.alignment == .horizontal
            let junction = { (i: Int) in
                horizontal && owner[i] != id && ownerEdges[i]?.contains(points[i].z) == true
            }
            let band = inlierBand(id)
            let candidates = (0..<points.count).filter {
                ((free[$0] && (owner[$0] == id || owner[$0] < 0)) || junction($0)) && surfaces[$0] != across
                    && points[$0].z >= lowest
                    && abs(points[$0].dot(plane.normal) - plane.offset) < band
            }
            let planar = candidates.map { plane.planar(points[$0]) }
            var inliers: [Int] = []
            for component in PointClusters.components(planar, radius: linkRadius)
            where component.contains(where: { ConvexPolygon.distance(planar[$0], toConvex: hull) <= linkRadius }) {
                inliers += component.map { candidates[$0] }
            }
            let shared = inliers.filter(junction)
            inliers = inliers.filter { !junction($0) }
            guard inliers.count >= 3 else { continue }
            inliers.sort()
            for i in inliers { free[i] = false }
            let outline = (inliers + shared).sorted()
            let newSupport = PlaneSupport(ids: outline.map { pointIDs[$0] }, positions: outline.map { points[$0] })
            if newSupport == support[id] {
                refitCounts.skipped += 1
                continue
            }
            refitCounts.done += 1
            support[id] = newSupport
            refit(&plane, points: inliers.map { points[$0] }, covariances: inliers.map { covariances[$0] },
                  outlineOnly: shared.map { points[$0] })
            planes[id] = plane
        }

        var seenThroughRemoved: [Int] = []
        if let visible {
            recordSightLines(points, ids: pointIDs, visible: pointIDs.map { visible.contains($0) },
                             covariances: covariances, camera: cameraPosition)
            seenThroughRemoved = removeSeenThroughPlanes()
            for i in points.indices where refutedIDs.contains(pointIDs[i]) { free[i] = false }
        }
        // New planes grow from the free points seen lately (all free points when no sight lines are given).
        var seeds = visible == nil ? free : zip(free, pointIDs).map { $0 && isRecent($1) }
        if detectionGate.shouldDetect(free: (0..<points.count).filter { seeds[$0] }.map { pointIDs[$0] }) {
            let planesBefore = planes.count
            let surfaces = surfaceCache.classify(points, ids: pointIDs, indices: (0..<points.count).filter { seeds[$0] }, update: updateCount)
            if detection.contains(.horizontal) {
                detectHorizontal(points, free: &seeds, surfaces: surfaces, camera: cameraPosition, time: timestamp)
            }
            if detection.contains(.vertical) {
                detectVertical(points, free: &seeds, surfaces: surfaces, camera: cameraPosition, time: timestamp)
            }
            if planes.count > planesBefore { detectionGate.reset() }
        }
        changes.removed = seenThroughRemoved + merge() + removeCrossingPlanes()
        classify()
        for id in planes.keys.sorted() {
            if let p = planes[id], before[id] != p { changes.planes.append(p) }
        }
        return changes
    }

    // MARK: Fitting

    /// Weighted least-squares refit on `points` (normal orientation kept), then the convex
    /// boundary. Each point is weighted by the inverse of its variance along the plane normal,
    /// `1 / (nᵀ Σ n + σ₀²)`: triangulated points far away or seen with little parallax count less.
    /// `outlineOnly` points (shared with a plane of the other orientation) widen the boundary but
    /// do not enter the fit.
    private func refit(_ plane: inout DetectedPlane, points: [Vector3], covariances: [Matrix3], outlineOnly: [Vector3] = []) {
        let n0 = plane.normal
        let weights = covariances.map { 1 / (n0.dot($0 * n0) + minimumPointSigma * minimumPointSigma) }
        let total = weights.reduce(0, +)
        let c = zip(points, weights).reduce(Vector3.zero) { $0 + $1.0 * $1.1 } / total
        if plane.alignment == .horizontal {
            plane.offset = plane.normal.z * c.z  // n = (0, 0, ±1): offset = ±weighted mean height
        } else if let n = Self.verticalNormal(points, weights: weights, centroid: c) {
            plane.normal = n.dot(plane.normal) < 0 ? -n : n
            plane.offset = plane.normal.dot(c)
        }
        plane.inlierCount = points.count
        let former = retired[plane.id] ?? []
        plane.boundary = ConvexPolygon.hull((points + outlineOnly + former).map(plane.planar)).map(plane.spatial)
    }

    /// Horizontal unit normal of the vertical plane best fitting `points`: the direction of least
    /// variance of their (x, y) positions (closed-form 2×2 symmetric eigenvector).
    static func verticalNormal(_ points: [Vector3], weights: [Double]? = nil, centroid c: Vector3) -> Vector3? {
        var sxx = 0.0, sxy = 0.0, syy = 0.0
        for (k, p) in points.enumerated() {
            let w = weights?[k] ?? 1
            let dx = p.x - c.x, dy = p.y - c.y
            sxx += w * dx * dx; sxy += w * dx * dy; syy += w * dy * dy
        }
        // Principal axis angle θ = ½·atan2(2sxy, sxx − syy); the normal is perpendicular to it.
        guard sxx + syy > 1e-12 else { return nil }
        let theta = 0.5 * atan2(2 * sxy, sxx - syy)
        return Vector3(-sin(theta), cos(theta), 0)
    }

    private mutating func newPlane(_ alignment: PlaneAlignment, normal: Vector3, indices points: [Int], of points0: [Vector3],
                                   time: Double) -> DetectedPlane {
        var plane = DetectedPlane(id: nextID, alignment: alignment, normal: normal, offset: 0, boundary: [],
                                  inlierCount: 0, classification: .none, firstSeen: time)
        nextID += 1
        refit(&plane, points: points.map { points0[$0] }, covariances: points.map { covariances[$0] })
        support[plane.id] = PlaneSupport(ids: points.map { currentIDs[$0] }, positions: points.map { points0[$0] })
        return plane
    }

    // MARK: Detection

    private mutating func detectHorizontal(_ points: [Vector3], free: inout [Bool], surfaces: [LocalSurface],
                                           camera: Vector3, time: Double) {
        var excluded = Set<Int>()
        // Sorted by height once: each pass's pool is a subset, filtered in that order.
        let byHeight = (0..<points.count).filter { free[$0] && surfaces[$0] != .vertical }
            .sorted { points[$0].z != points[$1].z ? points[$0].z < points[$1].z : $0 < $1 }
        for _ in 0..<8 {
            // Points on a local vertical layer (a wall's) may not seed a horizontal slab.
            let pool = (0..<points.count).filter { free[$0] && !excluded.contains($0) && surfaces[$0] != .vertical }
            guard pool.count >= minimumPoints else { return }
            let sorted = byHeight.filter { free[$0] && !excluded.contains($0) }
            var best = (count: 0, start: 0, end: 0)
            var j = 0
            for i in 0..<sorted.count {
                while j < sorted.count, points[sorted[j]].z - points[sorted[i]].z <= 2 * distanceThreshold { j += 1 }
                if j - i > best.count { best = (j - i, i, j) }
            }
            guard best.count >= minimumPoints else { return }
            let window = Array(sorted[best.start..<best.end])
            let h = window.map { points[$0].z }.reduce(0, +) / Double(window.count)
            let inliers = pool.filter { abs(points[$0].z - h) < distanceThreshold }
            let planar = inliers.map { Vector2(points[$0].x, points[$0].y) }
            let cluster = PointClusters.components(planar, radius: linkRadius).first ?? []
            let members = cluster.map { inliers[$0] }.sorted()
            let area = abs(ConvexPolygon.signedArea(ConvexPolygon.hull(members.map { Vector2(points[$0].x, points[$0].y) })))
            let normalZ: Double = camera.z >= h ? 1 : -1
            let shadowing = planes.values.filter { p in
                // A slab just above or below a known plane over the same area is that plane's
                // noise (or a rug on a floor), not a new surface.
                p.alignment == .horizontal && p.normal.z == normalZ && abs(p.offset - normalZ * h) < duplicateSeparation
                    && members.contains { ConvexPolygon.distance(p.planar(points[$0]), toConvex: p.planarBoundary) <= linkRadius }
            }
            let layered = LocalSurfaces.supports(members, surfaces, .horizontal)
            if members.count >= minimumPoints, area >= minimumArea, normalZ > 0,
               let upper = shadowing.first, shadowing.count == 1, upper.classification != .floor,
               upper.offset - h >= layerSeparation, let core = coreArea(of: upper), core < 0.5 * area,
               layered || isLayer(members, of: points, under: upper, surfaces: surfaces) {
                // A surface found under a plane that was fitted first on a smaller object lying on
                // it (a book on a table): objects rest on surfaces, so the plane moves down to the
                // lower layer and the object's points are left to it as noise. (A table top's
                // edge, a thin strip just under it, covers far less than the top and does not.)
                var moved = upper
                moved.offset = h
                moved.boundary = upper.planarBoundary.map(moved.spatial)
                planes[upper.id] = moved
                support[upper.id] = nil
                for i in members { free[i] = false }
            } else if members.count >= minimumPoints, area >= minimumArea, shadowing.isEmpty, layered {
                let normal = Vector3(0, 0, normalZ)
                let plane = newPlane(.horizontal, normal: normal, indices: members, of: points, time: time)
                planes[plane.id] = plane
                for i in members { free[i] = false }
            } else {
                for i in window { excluded.insert(i) }
            }
        }
    }

    /// Whether the slab `members`, found under the upward plane `upper`, is a lower layer of the
    /// surface `upper` stands for, by a weaker test than a new plane's
    /// (``LocalSurfaces/supports(_:_:_:)``): `upper` already vouches for a surface there, and the
    /// slab only says at which height it lies. A table top's neighbourhoods hold the book, the
    /// mug and the top's edge, and a phone's noisy points leave most of them without a verdict
    /// ("unknown"), so a real table slab can fail the majority test. It passes this one when its
    /// points lean horizontal (half of ``minimumPoints`` on horizontal layers, more than on
    /// vertical ones) and `upper` lies on it: the centre of `upper`'s boundary is inside the
    /// slab's outline (a book on a table; not a cabinet top beside it).
    private func isLayer(_ members: [Int], of points: [Vector3], under upper: DetectedPlane, surfaces: [LocalSurface]) -> Bool {
        guard LocalSurfaces.leans(members, surfaces, towards: .horizontal, atLeast: minimumPoints / 2),
              !upper.boundary.isEmpty else { return false }
        let slab = ConvexPolygon.hull(members.map { upper.planar(points[$0]) })
        let centre = upper.planarBoundary.reduce(Vector2.zero, +) / Double(upper.boundary.count)
        return ConvexPolygon.distance(centre, toConvex: slab) == 0
    }

    private mutating func nextRandom(_ n: Int) -> Int {
        // SplitMix64 (Steele et al. 2014): deterministic and well mixed.
        rng &+= 0x9E37_79B9_7F4A_7C15
        var z = rng
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(n))
    }

    private mutating func detectVertical(_ points: [Vector3], free: inout [Bool], surfaces: [LocalSurface],
                                         camera: Vector3, time: Double) {
        var excluded = Set<Int>()
        for _ in 0..<6 {
            // Points on a local horizontal layer (a floor's, a table's) may not seed a wall.
            let pool = (0..<points.count).filter { free[$0] && surfaces[$0] != .horizontal && !excluded.contains($0) }
            guard pool.count >= minimumVerticalPoints else { return }
            // Score on at most ~1500 points (a fixed stride) to bound the cost.
            let stride = max(1, pool.count / 1500)
            let sample = Swift.stride(from: 0, to: pool.count, by: stride).map { pool[$0] }
            // The sample's horizontal coordinates packed four at a time: the score below is the
            // detector's innermost loop (200 hypotheses × up to 1500 points). A vertical normal has
            // no z, so x and y decide the distance.
            let (xs, ys) = Self.packed(sample.map { Vector2(points[$0].x, points[$0].y) })
            var best: (count: Int, normal: Vector3, offset: Double)?
            for _ in 0..<ransacIterations {
                let a = points[pool[nextRandom(pool.count)]], b = points[pool[nextRandom(pool.count)]]
                let d = Vector2(b.x - a.x, b.y - a.y)
                let length = d.norm
                guard length > 0.1, length < 4 else { continue }
                let n = Vector3(-d.y / length, d.x / length, 0)
                let offset = n.dot(a)
                let count = Self.countWithin(distanceThreshold, ofLine: n.x, n.y, offset, xs: xs, ys: ys)
                if count > best?.count ?? 0 { best = (count, n, offset) }
            }
            guard let best, best.count * stride >= minimumVerticalPoints else { return }
            var inliers = pool.filter { abs(points[$0].dot(best.normal) - best.offset) < distanceThreshold }
            let c = inliers.map { points[$0] }.reduce(Vector3.zero, +) / Double(max(inliers.count, 1))
            guard var n = Self.verticalNormal(inliers.map { points[$0] }, centroid: c) else { return }
            if n.dot(camera - c) < 0 { n = -n }
            inliers = pool.filter { abs(points[$0].dot(n) - n.dot(c)) < distanceThreshold }
            let (e1, _) = ConvexPolygon.basis(ofPlaneWithNormal: n)
            let planar = inliers.map { Vector2(points[$0].dot(e1), points[$0].z) }
            let cluster = PointClusters.components(planar, radius: linkRadius).first ?? []
            let members = cluster.map { inliers[$0] }.sorted()
            let zs = members.map { points[$0].z }
            let height = (zs.max() ?? 0) - (zs.min() ?? 0)
            let area = abs(ConvexPolygon.signedArea(ConvexPolygon.hull(members.map { Vector2(points[$0].dot(e1), points[$0].z) })))
            // A vertical plane must rise: a line of floor points is not a wall.
            guard members.count >= minimumVerticalPoints, area >= minimumArea, height >= 0.15 else { return }
            // A consensus of scattered points (clutter, slices through other surfaces) is not a
            // wall: set its points aside for this pass and look for the next one.
            guard LocalSurfaces.supports(members, surfaces, .vertical) else {
                excluded.formUnion(members)
                continue
            }
            // Two real surfaces do not cross: a candidate within a few degrees of a wall that passes
            // through it inside both extents joins points of that wall to points of something in
            // front of it (a bookshelf 18 cm out at one end: a 5° "wall").
            guard !crossesWall(normal: n, offset: n.dot(c), members: members.map { points[$0] }) else {
                excluded.formUnion(members)
                continue
            }
            let plane = newPlane(.vertical, normal: n, indices: members, of: points, time: time)
            planes[plane.id] = plane
            for i in members { free[i] = false }
        }
    }

    /// The x and y coordinates of `points` in groups of four, the last group padded with NaN
    /// (which is within no distance of any line).
    static func packed(_ points: [Vector2]) -> (xs: [SIMD4<Double>], ys: [SIMD4<Double>]) {
        var xs: [SIMD4<Double>] = [], ys: [SIMD4<Double>] = []
        xs.reserveCapacity((points.count + 3) / 4)
        ys.reserveCapacity((points.count + 3) / 4)
        for start in Swift.stride(from: 0, to: points.count, by: 4) {
            var x = SIMD4<Double>(repeating: .nan), y = x
            for k in 0..<min(4, points.count - start) {
                x[k] = points[start + k].x
                y[k] = points[start + k].y
            }
            xs.append(x)
            ys.append(y)
        }
        return (xs, ys)
    }

    /// Points of ``packed(_:)`` closer than `threshold` to the line `nx·x + ny·y = offset`,
    /// counted four lanes at a time.
    static func countWithin(_ threshold: Double, ofLine nx: Double, _ ny: Double, _ offset: Double,
                            xs: [SIMD4<Double>], ys: [SIMD4<Double>]) -> Int {
        var hits = SIMD4<Double>.zero
        for k in 0..<min(xs.count, ys.count) {
            let d = xs[k] * nx + ys[k] * ny - offset
            hits = hits.replacing(with: hits + 1, where: (d .< threshold) .& (d .> -threshold))
        }
        return Int(hits.sum())
    }

    // MARK: Merging and classification

    private mutating func merge() -> [Int] {
        var removed: [Int] = []
        let ids = planes.keys.sorted()
        for (k, a) in ids.enumerated() {
            for b in ids[(k + 1)...] {
                guard var pa = planes[a], let pb = planes[b], pa.alignment == pb.alignment else { continue }
                let cosine = pa.normal.dot(pb.normal)
                guard cosine > cos(10 * Double.pi / 180) else { continue }
                // Each plane's centre lies on the other (two fits of one surface), and no corner
                // strays far: a small tilt between two fits of a long wall must not keep them
                // apart as two anchors, a parallel surface a few centimetres away must.
                // Walls get more room: a tracked camera's wall fits scatter by a few centimetres, and
                // a lower shelf must stay apart from the floor.
                let (centres, corners) = pa.alignment == .vertical ? (0.08, 0.15) : (0.05, 0.10)
                let sameEquation = Self.separation(pa, pb).map { $0.centres < centres && $0.corners < corners } ?? false
                // Two fits of one long wall that drift tilted apart by a few degrees fail the corner
                // test; they are one surface when a single plane explains both sets of points.
                let joint = !sameEquation && pa.alignment == .vertical ? jointVerticalFit(a, b) : nil
                guard sameEquation || joint != nil else { continue }
                let hullA = pa.planarBoundary
                let hullB = pb.planarBoundary.map { pa.planar(pb.spatial($0)) }
                let touching = pb.boundary.contains { ConvexPolygon.distance(pa.planar($0), toConvex: hullA) <= linkRadius }
                    || pa.boundary.contains { ConvexPolygon.distance(pa.planar($0), toConvex: hullB) <= linkRadius }
                guard touching else { continue }
                let wa = Double(pa.inlierCount), wb = Double(pb.inlierCount)
                if let joint {
                    pa.normal = joint.normal.dot(pa.normal) < 0 ? -joint.normal : joint.normal
                    pa.offset = pa.normal.dot(joint.centroid)
                    inlierBands[a] = max(joint.band, inlierBand(a), inlierBand(b))
                } else {
                    pa.offset = (pa.offset * wa + pb.normal.dot(pa.normal) * pb.offset * wb) / (wa + wb)
                }
                pa.inlierCount += pb.inlierCount
                pa.boundary = ConvexPolygon.hull((pa.boundary + pb.boundary).map(pa.planar)).map(pa.spatial)
                pa.firstSeen = min(pa.firstSeen, pb.firstSeen)
                planes[a] = pa
                absorbSupport(of: b, into: a)
                planes[b] = nil
                removed.append(b)
            }
        }
        return removed
    }

    /// Removes each vertical plane that crosses a larger one (more inliers) within
    /// ``crossingAngle`` inside both extents (``crossesWall(normal:offset:members:)``): two real
    /// surfaces do not cross, and a refit can turn a plane found beside a wall into one that does
    /// (the 180 s hand-held walk grew an 8° "wall" through the left wall, 6 m², IoU 0.39). Its
    /// anchor is removed, as a merged-away one is.
    private mutating func removeCrossingPlanes() -> [Int] {
        var removed: [Int] = []
        let vertical = planes.values.filter { $0.alignment == .vertical }.sorted { ($0.inlierCount, $0.id) < ($1.inlierCount, $1.id) }
        for candidate in vertical.map(\.id) {
            guard let p = planes[candidate] else { continue }
            let larger = planes.values.filter { $0.id != p.id && $0.inlierCount > p.inlierCount }
            guard crossesWall(normal: p.normal, offset: p.offset, members: p.boundary, among: larger) else { continue }
            forget(planeID: p.id)
            removed.append(p.id)
        }
        return removed
    }

    /// Height of the floor (m, W): the lowest upward-facing plane of at least ``minimumFloorArea``
    /// at least 1 m below the mean camera height; nil before one is found.
    var floorLevel: Double? {
        let cameraHeight = cameraHeightSum / Double(max(updateCount, 1))
        return planes.values.filter {
            $0.alignment == .horizontal && $0.normal.z > 0 && cameraHeight - $0.offset > 1.0 && $0.area >= minimumFloorArea
        }.map(\.offset).min()
    }

    /// Floor: the lowest upward-facing plane of at least ``minimumFloorArea`` at least 1 m below
    /// the mean camera height (and any plane within ``floorTolerance`` of its height); table:
    /// upward-facing, 0.3–1.3 m above the floor; ceiling: downward-facing, above the mean camera
    /// height; wall: vertical; otherwise none. A low shelf or step a few centimetres above the
    /// floor is none: it is neither the floor's height nor large enough to define the floor.
    private mutating func classify() {
        let cameraHeight = cameraHeightSum / Double(max(updateCount, 1))
        let floorLevel = self.floorLevel
        for id in planes.keys {
            guard var p = planes[id] else { continue }
            if p.alignment == .vertical {
                p.classification = .wall
            } else if p.normal.z < 0 {
                p.classification = -p.offset > cameraHeight ? .ceiling : .none
            } else if let floorLevel, p.offset < floorLevel + floorTolerance {
                p.classification = .floor
            } else if let floorLevel, p.offset - floorLevel >= 0.3, p.offset - floorLevel <= 1.3 {
                p.classification = .table
            } else {
                p.classification = .none
            }
            planes[id] = p
        }
    }
}
