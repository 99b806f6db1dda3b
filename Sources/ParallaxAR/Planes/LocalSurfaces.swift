import Foundation
import ParallaxMath

/// The orientation of the surface a map point lies on, judged from its neighbours alone.
enum LocalSurface: Equatable {
    /// The neighbours spread in a thin horizontal layer (a floor, a table top).
    case horizontal
    /// The neighbours spread in a thin vertical layer (a wall, a cabinet side).
    case vertical
    /// Enough neighbours, but no thin layer (clutter, an edge, a corner) or a slanted one.
    case unknown
    /// Too few neighbours for a verdict (a sparsely mapped surface), or not examined.
    case sparse
}

/// Local surface orientation of map points by principal component analysis of each point's
/// neighbourhood (the normal is the direction of least spread; cf. Hoppe et al. 1992, "Surface
/// reconstruction from unorganized points"; Rabbani et al. 2006, normal-based region growing).
///
/// Why: plane detection searches one free parameter (a height) or two (a vertical line) over
/// all free points. Without this check, the points at one height on every wall (or along one line
/// across the floor and the table) add up to a consensus of their own, and a phantom horizontal
/// slab cutting the walls or a phantom wall cutting the floor is detected. Points whose neighbours
/// say "vertical surface" may not seed a horizontal plane, and the other way round.
enum LocalSurfaces {
    /// Neighbourhood radius (m): a few landmark voxels (4 cm) on either side.
    static let radius = 0.3
    /// Neighbours (including the point) needed for a verdict.
    static let minimumNeighbours = 5
    /// Thinness: least over middle spread (standard deviations) below this is a layer.
    static let maximumThinness = 0.4
    /// |n · z| above which a layer is horizontal (cos 30°), below which it is vertical (sin 30°).
    static let horizontalCosine = cos(30 * Double.pi / 180), verticalCosine = sin(30 * Double.pi / 180)

    /// Share of a candidate's points with a verdict that must lie on a layer of its orientation.
    static let minimumSupport = 0.5

    /// Whether a candidate plane of orientation `kind` made of `members` (indices into `surfaces`)
    /// shows as a layer of that orientation: a real surface does around most of its points, a
    /// phantom (one height through clutter and several walls, one line through boxes and books)
    /// does not. Points too sparsely mapped for a verdict count neither way (plain plaster walls,
    /// short sessions): the test only rejects where the map is dense enough to tell.
    static func supports(_ members: [Int], _ surfaces: [LocalSurface], _ kind: LocalSurface) -> Bool {
        var matching = 0, judged = 0
        for i in members where surfaces[i] != .sparse {
            judged += 1
            if surfaces[i] == kind { matching += 1 }
        }
        return Double(matching) >= minimumSupport * Double(judged)
    }

    /// Whether `members` lean towards `kind`: at least `count` of them lie on a layer of that
    /// orientation, and more than on layers of the other one. A weaker test than
    /// ``supports(_:_:_:)``, for where another plane already vouches for the surface.
    static func leans(_ members: [Int], _ surfaces: [LocalSurface], towards kind: LocalSurface, atLeast count: Int) -> Bool {
        let other: LocalSurface = kind == .horizontal ? .vertical : .horizontal
        let matching = members.filter { surfaces[$0] == kind }.count
        return matching >= count && matching > members.filter { surfaces[$0] == other }.count
    }

    /// The verdict for `points[i]` for each `i` in `indices` (others: `.sparse`), neighbours
    /// drawn from all `points`.
    static func classify(_ points: [Vector3], indices: [Int]) -> [LocalSurface] {
        var result = [LocalSurface](repeating: .sparse, count: points.count)
        guard !indices.isEmpty else { return result }
        let grid = NeighbourGrid(points)
        for i in indices { result[i] = grid.verdict(of: i, in: points) }
        return result
    }

    /// The orientation of the thin layer whose scatter matrix (the sum of the outer products of
    /// its points' offsets from their mean) is `scatter`, if they form one: the least spread
    /// (closed-form eigenvalues, ``ParallaxMath/Matrix3/symmetricEigenvalues``) is small beside the
    /// middle one, and its direction is the layer's normal.
    static func verdict(scatter: Matrix3) -> LocalSurface {
        let spread = scatter.symmetricEigenvalues
        // Eigenvalues of a scatter matrix are variances (times n): compare standard deviations.
        guard spread.y > 0, (abs(spread.z) / spread.y).squareRoot() < maximumThinness,
              let normal = scatter.symmetricEigenvector(for: spread.z) else { return .unknown }
        let up = abs(normal.z)
        if up > horizontalCosine { return .horizontal }
        if up < verticalCosine { return .vertical }
        return .unknown
    }
}

/// Points binned in cubic cells of ``LocalSurfaces/radius``: a point's neighbours lie in the
/// 3 × 3 × 3 cells around its own.
struct NeighbourGrid {
    private(set) var cells: [SIMD3<Int>: [Int]] = [:]

    init(_ points: [Vector3]) {
        for (i, p) in points.enumerated() { cells[Self.cell(p), default: []].append(i) }
    }

    static func cell(_ p: Vector3) -> SIMD3<Int> {
        let r = LocalSurfaces.radius
        return SIMD3(Int((p.x / r).rounded(.down)), Int((p.y / r).rounded(.down)), Int((p.z / r).rounded(.down)))
    }

    /// Calls `body` with the index of each point in the cells around `cell` (itself included),
    /// cell by cell, in a fixed order.
    @inline(__always)
    func forEachIndex(around cell: SIMD3<Int>, _ body: (Int) -> Void) {
        for dx in -1...1 {
            for dy in -1...1 {
                for dz in -1...1 {
                    guard let members = cells[cell &+ SIMD3(dx, dy, dz)] else { continue }
                    for i in members { body(i) }
                }
            }
        }
    }

    /// ``LocalSurfaces/verdict(scatter:)`` of `points[i]` from its neighbours within the radius,
    /// in one pass over the cells without gathering them (this runs for thousands of points per
    /// plane update): the scatter is `Σ d dᵀ − n m mᵀ` over the offsets `d = q − p` from the point
    /// itself, whose mean is `m`. Offsets are at most the radius (0.3 m), so the subtraction
    /// loses nothing that matters beside the centimetre-thick layers it tells apart.
    func verdict(of i: Int, in points: [Vector3]) -> LocalSurface {
        let p = points[i], r2 = LocalSurfaces.radius * LocalSurfaces.radius
        var count = 0
        var sum = Vector3.zero
        var xx = 0.0, xy = 0.0, xz = 0.0, yy = 0.0, yz = 0.0, zz = 0.0
        forEachIndex(around: Self.cell(p)) { j in
            let d = points[j] - p
            guard d.squaredNorm <= r2 else { return }
            count += 1
            sum = sum + d
            xx += d.x * d.x; xy += d.x * d.y; xz += d.x * d.z
            yy += d.y * d.y; yz += d.y * d.z; zz += d.z * d.z
        }
        guard count >= LocalSurfaces.minimumNeighbours else { return .sparse }
        let m = sum / Double(count), n = Double(count)
        let scatter = Matrix3(rows: Vector3(xx - n * m.x * m.x, xy - n * m.x * m.y, xz - n * m.x * m.z),
                              Vector3(xy - n * m.x * m.y, yy - n * m.y * m.y, yz - n * m.y * m.z),
                              Vector3(xz - n * m.x * m.z, yz - n * m.y * m.z, zz - n * m.z * m.z))
        return LocalSurfaces.verdict(scatter: scatter)
    }
}

/// Local-surface verdicts kept from one update to the next: a verdict depends only on the points
/// within ``LocalSurfaces/radius``, so it stays valid while no point within that radius of its
/// point arrived, moved or left. Only the part of the map the camera sees changes per frame,
/// so most free points keep their verdict, and plane detection's cost stops growing with the
/// number of unassigned points. With ``moveTolerance`` 0 the answers are exactly those of
/// ``LocalSurfaces/classify(_:indices:)``.
struct LocalSurfaceCache {
    /// A point counts as moved once it is this far (m) from where it was when the verdicts around
    /// it were last renewed. The tracker refines every visible point a little each frame, and
    /// each tiny move cleared every verdict within 0.9 m (27 cells of 0.3 m) on a full map: the
    /// verdicts near the camera were recomputed each frame, the plane tracker's largest cost.
    /// A few millimetres in a 0.3 m neighbourhood cannot change a layer's orientation; the moves
    /// add up until they pass this and clear the verdicts.
    var moveTolerance = 0.005
    private var positions: [UInt64: Vector3] = [:]
    private var verdicts: [UInt64: LocalSurface] = [:]
    /// The grid of the points of update ``syncedUpdate``, when the cache was last brought up to date.
    private var grid = NeighbourGrid([])
    private var syncedUpdate: Int?

    /// The verdicts for `indices` (others `.sparse`), as ``LocalSurfaces/classify(_:indices:)``.
    /// `update` names the map state: calls with the same token share one grid and one invalidation
    /// pass (a plane-tracker update asks twice, for joiners and for detection). Changes between two
    /// calls are found by comparing positions, so updates without a call cost nothing.
    mutating func classify(_ points: [Vector3], ids: [UInt64], indices: [Int], update: Int) -> [LocalSurface] {
        var result = [LocalSurface](repeating: .sparse, count: points.count)
        guard !indices.isEmpty else { return result }
        if syncedUpdate != update {
            grid = NeighbourGrid(points)
            invalidate(points, ids: ids)
            syncedUpdate = update
        }
        for i in indices {
            if let known = verdicts[ids[i]] {
                result[i] = known
            } else {
                result[i] = grid.verdict(of: i, in: points)
                verdicts[ids[i]] = result[i]
            }
        }
        return result
    }

    /// Drops the verdicts of every point near a point that arrived, moved or left since the last
    /// call: within the radius of its old or new position. A verdict depends on nothing further
    /// away (up to the moves under ``moveTolerance`` it ignores anyway); clearing whole cells
    /// around each change (27 cubes of 0.3 m, six times the ball's volume) renewed far more.
    private mutating func invalidate(_ points: [Vector3], ids: [UInt64]) {
        var changed: [Vector3] = []
        var present = [UInt64: Vector3]()
        present.reserveCapacity(points.count)
        let tolerance2 = moveTolerance * moveTolerance
        for (i, p) in points.enumerated() {
            if let old = positions[ids[i]] {
                // Unmoved, or within the tolerance: keep the reference position, so small moves add up.
                if old == p || (old - p).squaredNorm < tolerance2 { present[ids[i]] = old; continue }
                changed.append(old)
            }
            present[ids[i]] = p
            changed.append(p)
        }
        for (id, old) in positions where present[id] == nil {
            changed.append(old)
            verdicts[id] = nil
        }
        positions = present
        let r2 = LocalSurfaces.radius * LocalSurfaces.radius
        for x in changed {
            grid.forEachIndex(around: NeighbourGrid.cell(x)) { i in
                if (points[i] - x).squaredNorm <= r2 { verdicts[ids[i]] = nil }
            }
        }
    }
}

extension PlaneTracker {
    /// Local surfaces of the points that would newly join a plane (near one, `owner[i] ≥ 0`, and
    /// not among its inliers at the last refit); `.sparse` for all others. Points already in a
    /// plane's support keep their place, so the check costs only what arrives.
    mutating func joinerSurfaces(_ points: [Vector3], ids: [UInt64], owner: [Int]) -> [LocalSurface] {
        var supported = Set<UInt64>()
        for s in support.values { supported.formUnion(s.ids) }
        let joiners = points.indices.filter { owner[$0] >= 0 && !supported.contains(ids[$0]) }
        return surfaceCache.classify(points, ids: ids, indices: joiners, update: updateCount)
    }
}
