import Foundation
import ParallaxMath

/// The inliers of a plane at its last refit: ids and positions (W), by id.
struct PlaneSupport: Equatable {
    /// Point ids, ascending.
    var ids: [UInt64]
    /// Their positions, in the same order.
    var positions: [Vector3]
}

/// Decides whether new-plane detection is worth running this update: only when at least
/// ``minimumNewPoints`` unassigned points arrived since the last attempt, or every
/// ``maximumSkippedUpdates`` updates (refined positions may tip a candidate over its thresholds).
/// Detection (a 1D consensus and a RANSAC over the free points) is the tracker's largest cost.
struct DetectionGate {
    /// New free points that trigger a detection attempt.
    var minimumNewPoints = 8
    /// Updates after which an attempt runs regardless.
    var maximumSkippedUpdates = 10
    private var lastPool: Set<UInt64> = []
    private var skipped = 0

    /// True when detection should run on `free` (ids of unassigned points); records the attempt.
    mutating func shouldDetect(free: [UInt64]) -> Bool {
        let fresh = free.reduce(0) { $0 + (lastPool.contains($1) ? 0 : 1) }
        guard fresh >= minimumNewPoints || skipped >= maximumSkippedUpdates else {
            skipped += 1
            return false
        }
        lastPool = Set(free)
        skipped = 0
        return true
    }

    /// Forgets the last pool (after a detection changed the planes).
    mutating func reset() { lastPool = [] }
}

extension PlaneTracker {
    /// Records the points seen in this update for ``isRecent(_:)``; forgets those not seen within
    /// the ``detectionWindow`` now and then, so the record stays the size of the recent view.
    mutating func noteSightings(_ visible: Set<UInt64>?) {
        guard let visible else { return }
        for id in visible { lastSeen[id] = updateCount }
        if updateCount % 50 == 0 { lastSeen = lastSeen.filter { isRecent($0.key) } }
    }

    /// Whether point `id` was seen within the last ``detectionWindow`` updates.
    func isRecent(_ id: UInt64) -> Bool {
        guard let seen = lastSeen[id] else { return false }
        return updateCount - seen < detectionWindow
    }

    /// Moves the positions of each plane's former inliers that left the map (`present` holds the
    /// ids still there) into the plane's retired hull, so its boundary keeps covering them.
    mutating func retireEvicted(present: Set<UInt64>) {
        for (id, s) in support {
            guard let plane = planes[id] else { continue }
            let gone = s.ids.indices.filter { !present.contains(s.ids[$0]) }
            guard !gone.isEmpty else { continue }
            let old = retired[id] ?? []
            let planar = (old + gone.map { s.positions[$0] }).map(plane.planar)
            retired[id] = ConvexPolygon.hull(planar).map(plane.spatial)
            let kept = s.ids.indices.filter { present.contains(s.ids[$0]) }
            support[id] = PlaneSupport(ids: kept.map { s.ids[$0] }, positions: kept.map { s.positions[$0] })
        }
    }

    /// How far apart two planes of similar normal are: the larger distance of either boundary's
    /// centroid from the other plane, and the largest distance of a boundary corner from the
    /// other plane (m). Nil when a boundary is empty.
    static func separation(_ a: DetectedPlane, _ b: DetectedPlane) -> (centres: Double, corners: Double)? {
        guard !a.boundary.isEmpty, !b.boundary.isEmpty else { return nil }
        func distance(_ p: Vector3, to plane: DetectedPlane) -> Double { abs(p.dot(plane.normal) - plane.offset) }
        let ca = a.boundary.reduce(Vector3.zero, +) / Double(a.boundary.count)
        let cb = b.boundary.reduce(Vector3.zero, +) / Double(b.boundary.count)
        let corners = max(b.boundary.map { distance($0, to: a) }.max() ?? 0, a.boundary.map { distance($0, to: b) }.max() ?? 0)
        return (max(distance(ca, to: b), distance(cb, to: a)), corners)
    }

    /// The vertical plane (unit normal, a point on it) fitted to walls `a` and `b`'s support
    /// points together, and the inlier band it needs, when it explains both: at least
    /// ``jointMergeShare`` of each wall's points lie within twice ``distanceThreshold`` of it.
    /// The band is the distance from the joint plane within which 90 % of the points lie (at
    /// least ``distanceThreshold``, at most twice it). Nil otherwise, or while a support is unknown.
    ///
    /// Why: with tracked poses a wall's points form a slab a few centimetres thick, since the
    /// tracker's small drift in scale and heading places the points seen from the far end of the
    /// room apart from those seen close by. The first fit's 2.5 cm band then leaves the rest to
    /// found a second, overlapping wall tilted by a few degrees. A surface 10 cm or more in front
    /// (a shelf, a cabinet) is not explained by one plane through both and stays apart.
    func jointVerticalFit(_ a: Int, _ b: Int) -> (normal: Vector3, centroid: Vector3, band: Double)? {
        guard let pa = support[a]?.positions, let pb = support[b]?.positions, pa.count >= 3, pb.count >= 3
        else { return nil }
        let all = pa + pb
        let centroid = all.reduce(Vector3.zero, +) / Double(all.count)
        guard let normal = Self.verticalNormal(all, centroid: centroid) else { return nil }
        let limit = 2 * distanceThreshold
        let residuals = all.map { abs(($0 - centroid).dot(normal)) }
        func explained(_ r: ArraySlice<Double>) -> Bool {
            Double(r.filter { $0 < limit }.count) >= jointMergeShare * Double(r.count)
        }
        guard explained(residuals[..<pa.count]), explained(residuals[pa.count...]) else { return nil }
        let sorted = residuals.sorted()
        let band = min(limit, max(distanceThreshold, sorted[sorted.count * 9 / 10]))
        return (normal, centroid, band)
    }

    /// Horizontal area (m²) of a horizontal plane's own layer: the hull of its support points
    /// within half ``layerSeparation`` of its height; nil while its support is unknown (just
    /// after a merge, or when its last update found too few inliers).
    func coreArea(of plane: DetectedPlane) -> Double? {
        guard let positions = support[plane.id]?.positions else { return nil }
        let height = plane.offset * plane.normal.z
        let core = positions.filter { abs($0.z - height) <= layerSeparation / 2 }
        return abs(ConvexPolygon.signedArea(ConvexPolygon.hull(core.map { Vector2($0.x, $0.y) })))
    }

    /// The inlier band of plane `id` (m): ``distanceThreshold`` unless a merge widened it.
    func inlierBand(_ id: Int) -> Double { inlierBands[id] ?? distanceThreshold }

    /// After plane `b` merged into `a`: `a` inherits `b`'s retired hull; `b`'s records go.
    mutating func absorbSupport(of b: Int, into a: Int) {
        if let rb = retired[b], let pa = planes[a] {
            retired[a] = ConvexPolygon.hull(((retired[a] ?? []) + rb).map(pa.planar)).map(pa.spatial)
        }
        support[a] = nil  // forces a refit with the merged inliers next update
        support[b] = nil
        retired[b] = nil
        inlierBands[b] = nil
        seenThrough[b] = nil
    }

    /// True when a vertical candidate (unit normal `n`, `n · p = offset`, supported by `members`)
    /// lies within ``crossingAngle`` of an existing vertical plane and crosses it inside both
    /// horizontal extents (within 10 cm of the wall's ends): the ends of the candidate's extent lie
    /// on opposite sides of the wall.
    func crossesWall(normal n: Vector3, offset: Double, members: [Vector3]) -> Bool {
        crossesWall(normal: n, offset: offset, members: members, among: planes.values)
    }

    /// ``crossesWall(normal:offset:members:)`` against the vertical planes of `walls` only.
    func crossesWall(normal n: Vector3, offset: Double, members: [Vector3], among walls: some Sequence<DetectedPlane>) -> Bool {
        let (e1, _) = ConvexPolygon.basis(ofPlaneWithNormal: n)
        let along = members.map { $0.dot(e1) }
        guard let lo = along.min(), let hi = along.max() else { return false }
        let foot = n * offset
        let a = foot + e1 * (lo - foot.dot(e1)), b = foot + e1 * (hi - foot.dot(e1))
        for wall in walls where wall.alignment == .vertical && abs(wall.normal.dot(n)) > cos(crossingAngle) {
            let da = wall.normal.dot(a) - wall.offset, db = wall.normal.dot(b) - wall.offset
            guard da * db < 0 else { continue }
            let crossing = a + (b - a) * (da / (da - db))
            let (w1, _) = ConvexPolygon.basis(ofPlaneWithNormal: wall.normal)
            let extent = wall.boundary.map { $0.dot(w1) }
            guard let wlo = extent.min(), let whi = extent.max() else { continue }
            if crossing.dot(w1) >= wlo - 0.1, crossing.dot(w1) <= whi + 0.1 { return true }
        }
        return false
    }
}

/// The heights (m) near a vertical plane's lowest and highest boundary corners: where a floor,
/// table top or ceiling meets it.
struct EdgeBands {
    var bottom: Double, top: Double, width: Double

    init(_ plane: DetectedPlane, width: Double) {
        let zs = plane.boundary.map(\.z)
        bottom = zs.min() ?? 0
        top = zs.max() ?? 0
        self.width = width
    }

    /// Whether height `z` is at (or beyond) either edge.
    func contains(_ z: Double) -> Bool { z <= bottom + width || z >= top - width }
}
