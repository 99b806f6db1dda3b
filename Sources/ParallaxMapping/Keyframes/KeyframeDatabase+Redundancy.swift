import Foundation
import ParallaxMath

/// When the map already holds what a view sees, whatever pose it is seen from: the content test
/// beside the pose test of ``KeyframeDatabase/covering(_:distance:angle:where:)``.
///
/// The pose test alone lets a map grow with time wherever the camera keeps looking around: near
/// a place it asks for a keyframe within 10 cm *and* 10° of the view, and a person walking round
/// a table while glancing over it keeps making new combinations of the two. On the 300 s hand-held
/// room walk of `parallax bench ar-session` the greedy pose rule applied to the *true* poses asks
/// for 576 keyframes, 40 of them in the last 30 s — the walk, not drift.
/// ORB-SLAM bounds its map by content instead: it culls a keyframe when 90 % of its map points
/// are seen by at least three other keyframes at the same or a finer scale (Mur-Artal, Montiel &
/// Tardós, IEEE T-RO 2015, §VI-E). Here a like question is asked before a keyframe is made, which
/// leaves the pose graph and its records untouched: the view is redundant when most of the points
/// a keyframe made there would keep already lie in several keyframes that saw them from a similar
/// direction and distance (so that their descriptors would match).
///
/// Measured with `parallax evaluate map` (stop 72; 58 mono and 18 stereo simulations of hand-held
/// walks and flights, and the 60–120 s revisit runs of issue 16): keyframes up to 52 % fewer on
/// the sets that revisit (rpng_table_03 60 s: 157 → 101; MH_01 120 s mono 257 → 208), none fewer
/// on the 13 that do not. Live ATE summed 71.0 → 70.8 cm mono and 16.8 → 16.9 cm stereo, no set
/// more than 1 mm worse but MH_01 120 s mono (2.9 → 3.3 cm; a second seed 1.7 → 1.8 cm).
/// On the 300 s room walk keyframes per minute went from
/// 161 127 110 102 89 to 144 58 62 32 24. Other settings tried: one observer at 80 % within 60°
/// grew alike (129 56 53 35 23) with mono live 71.2 cm and keyframes after the pose graph
/// 66.9 cm (65.8 with these); the stricter 2 observers at 90 % within 30° and 3 cm
/// hardly changed the growth (589 → 568 keyframes at 300 s), because a keyframe keeps only the
/// corners it can describe and a revisit's view holds many points only one keyframe has.
public struct ViewRedundancy: Sendable, Equatable {
    /// A view point counts as held when at least this many keyframes hold it; 0 turns the test off.
    public var observers = 2
    /// The view is redundant when at least this fraction of its points is held.
    public var fraction = 0.7
    /// A keyframe's point is the view's point when within this distance (m) of it.
    public var pointTolerance = 0.04
    /// … and seen from a direction within this angle (rad) of the view's …
    public var viewAngle = 45.0 * Double.pi / 180
    /// … at a depth within this ratio of the view's (either way): oriented BRIEF is described at
    /// one scale, so a point seen from twice as far is a different patch.
    public var depthRatio = 1.5

    /// Creates the defaults.
    public init() {}
}

extension KeyframeDatabase {
    /// The fraction of `points_world` (a view's points, seen from `T_world_camera`) that at least
    /// `rule.observers` keyframes hold in the sense of ``ViewRedundancy``; 0 for no points.
    /// `isIncluded`, when given, limits the keyframes asked to those it accepts.
    /// Cost: one pass over the map's points against a hash grid of the view's points.
    public func heldFraction(of points_world: [Vector3], seenFrom T_world_camera: RigidTransform, rule: ViewRedundancy,
                             where isIncluded: ((Keyframe) -> Bool)? = nil) -> Double {
        guard rule.observers > 0, !points_world.isEmpty, rule.pointTolerance > 0 else { return 0 }
        let centre = T_world_camera.translation
        let cell = rule.pointTolerance
        let cosView = cos(rule.viewAngle)
        var grid: [SIMD3<Int>: [Int]] = [:]
        var lower = Vector3(repeating: .infinity), upper = Vector3(repeating: -.infinity)
        // Each view point sits in its own cell and the 26 around it, so a map point looks in one cell.
        for (i, p) in points_world.enumerated() where Self.gridable(p, size: cell) {
            let c = Self.cell(of: p, size: cell)
            for dx in -1...1 { for dy in -1...1 { for dz in -1...1 { grid[c &+ SIMD3(dx, dy, dz), default: []].append(i) } } }
            lower = pointwiseMin(lower, p)
            upper = pointwiseMax(upper, p)
        }
        lower -= Vector3(repeating: cell)
        upper += Vector3(repeating: cell)
        // Per view point: how many keyframes hold it, and the last keyframe counted (each counts once).
        var holders = [Int](repeating: 0, count: points_world.count)
        var lastHolder = [Int](repeating: -1, count: points_world.count)
        for (slot, k) in keyframes.enumerated() where isIncluded?(k) != false {
            let kCentre = k.T_world_camera.translation
            for q in k.points {
                let Q = q.position_world
                guard all(Q .>= lower), all(Q .<= upper), Self.gridable(Q, size: cell) else { continue }
                guard let near = grid[Self.cell(of: Q, size: cell)] else { continue }
                for i in near where lastHolder[i] != slot {
                    let P = points_world[i]
                    guard (P - Q).squaredNorm <= cell * cell else { continue }
                    let viewRay = P - centre, keyRay = Q - kCentre
                    let dv = viewRay.norm, dk = keyRay.norm
                    guard dv > 0, dk > 0, viewRay.dot(keyRay) >= cosView * dv * dk,
                          max(dv, dk) <= rule.depthRatio * min(dv, dk) else { continue }
                    lastHolder[i] = slot
                    holders[i] += 1
                }
            }
        }
        let held = holders.reduce(0) { $0 + ($1 >= rule.observers ? 1 : 0) }
        return Double(held) / Double(points_world.count)
    }

    /// Whether `p`'s grid cell is an integer (a loaded map's points come from a file).
    private static func gridable(_ p: Vector3, size: Double) -> Bool {
        let m = max(abs(p.x), abs(p.y), abs(p.z))
        return m.isFinite && m / size < 1e12
    }

    private static func cell(of p: Vector3, size: Double) -> SIMD3<Int> {
        SIMD3(Int((p.x / size).rounded(.down)), Int((p.y / size).rounded(.down)), Int((p.z / size).rounded(.down)))
    }
}
