import Foundation
import ParallaxMath

/// The session's 3D point map for plane detection, bounded in size so a long session costs no
/// more per frame than a short one.
///
/// Points arrive each frame from the pose source (stable ids, refined positions). Two rules keep
/// the map small:
/// - **Spatial**: one point per cubic voxel of ``voxelSize``. A new point whose voxel already
///   holds another is dropped when that occupant was seen in the same frame (both are live; keeping
///   the older one avoids flicker), and replaces it otherwise (the newer triangulation is current).
/// - **Size**: above ``capacity`` points, the least recently seen tenth is evicted at once
///   (amortised; ties by id, so the map stays deterministic).
///
/// Plane boundaries are accumulated by ``PlaneTracker``, so evicting a point does not shrink a
/// plane that has already been seen.
struct LandmarkMap {
    private struct Entry {
        var point: MapPoint
        var voxel: SIMD3<Int32>
        var lastSeen: Int
    }

    /// Edge of the voxels holding one point each (m).
    let voxelSize: Double
    /// Most points kept.
    let capacity: Int

    private var entries: [UInt64: Entry] = [:]
    private var occupant: [SIMD3<Int32>: UInt64] = [:]
    private var frame = 0
    private var sortedCache: [MapPoint]?
    /// Incremented whenever a point is added, moved (≥ 1 mm) or removed: a cheap change test.
    private(set) var revision = 0

    /// An empty map.
    init(voxelSize: Double = 0.04, capacity: Int = 4000) {
        self.voxelSize = voxelSize
        self.capacity = capacity
    }

    /// Points held now.
    var count: Int { entries.count }

    /// Number of the latest ``insert(_:)`` (one per frame; 0 before the first).
    var frameNumber: Int { frame }

    /// All points, by id (a fresh array only after a change).
    mutating func points() -> [MapPoint] {
        if let sortedCache { return sortedCache }
        let sorted = entries.keys.sorted().compactMap { entries[$0]?.point }
        sortedCache = sorted
        return sorted
    }

    /// Merges one frame's points.
    mutating func insert(_ observed: [MapPoint]) {
        frame += 1
        for p in observed.sorted(by: { $0.id < $1.id }) where p.position.isFinite {
            let voxel = voxel(of: p.position)
            if var e = entries[p.id] {
                let moved = (e.point.position - p.position).norm >= 1e-3
                e.lastSeen = frame
                if e.voxel != voxel {
                    if occupant[e.voxel] == p.id { occupant[e.voxel] = nil }
                    if let other = occupant[voxel], other != p.id { remove(other) }
                    occupant[voxel] = p.id
                    e.voxel = voxel
                }
                e.point = p
                entries[p.id] = e
                if moved { changed() }
                continue
            }
            if let other = occupant[voxel] {
                if entries[other]?.lastSeen == frame { continue }
                remove(other)
            }
            entries[p.id] = Entry(point: p, voxel: voxel, lastSeen: frame)
            occupant[voxel] = p.id
            changed()
        }
        if entries.count > capacity { evictStale() }
    }

    /// Moves every point by the rigid transform `correction` gives for its position (a loop
    /// closure's correction of the map near it); covariances turn with it. Points that land in
    /// one voxel keep the most recently seen (ties: the lower id), as ``insert(_:)`` would.
    /// With `seenSince`, only points last seen at that ``frameNumber`` or later move (a segment
    /// re-placed in the map moves the points it gave, not older ones).
    mutating func move(by correction: (Vector3) -> RigidTransform, seenSince first: Int = 0) {
        guard !entries.isEmpty else { return }
        occupant = [:]
        let ids = entries.keys.sorted()
        for id in ids {
            guard var e = entries[id], e.lastSeen >= first else { continue }
            let T = correction(e.point.position)
            let R = T.rotationMatrix
            e.point.position = T * e.point.position
            e.point.covariance = R * e.point.covariance * R.transpose
            e.voxel = voxel(of: e.point.position)
            entries[id] = e
        }
        for id in ids {
            guard let e = entries[id] else { continue }
            if let other = occupant[e.voxel], let o = entries[other], o.lastSeen >= e.lastSeen {
                entries[id] = nil
                continue
            } else if let other = occupant[e.voxel] {
                entries[other] = nil
            }
            occupant[e.voxel] = id
        }
        changed()
    }

    /// Empties the map.
    mutating func removeAll() {
        entries = [:]
        occupant = [:]
        changed()
    }

    private mutating func evictStale() {
        let excess = entries.count - capacity + capacity / 10
        let oldest = entries.sorted { $0.value.lastSeen != $1.value.lastSeen ? $0.value.lastSeen < $1.value.lastSeen : $0.key < $1.key }
        for (id, _) in oldest.prefix(excess) { remove(id) }
    }

    private mutating func remove(_ id: UInt64) {
        guard let e = entries.removeValue(forKey: id) else { return }
        if occupant[e.voxel] == id { occupant[e.voxel] = nil }
        changed()
    }

    private mutating func changed() {
        revision &+= 1
        sortedCache = nil
    }

    private func voxel(of p: Vector3) -> SIMD3<Int32> {
        func cell(_ x: Double) -> Int32 { Int32(max(-2e9, min(2e9, (x / voxelSize).rounded(.down)))) }
        return SIMD3(cell(p.x), cell(p.y), cell(p.z))
    }
}
