import Foundation
import ParallaxMath

/// Multi-view triangulation: linear least squares on rays, then Gauss–Newton on the
/// normalised reprojection error (the MSCKF's feature estimate, Mourikis & Roumeliotis 2007 §III-C,
/// solved here directly in world coordinates, which is well conditioned once parallax is checked).
enum Triangulation {
    /// Returns the world point, or nil when parallax is too small, the point is behind a camera,
    /// or the fit is poor. `poses[k]` is the body pose of observation k's clone.
    static func triangulate(_ obs: [Observation], poses: [(Matrix3, Vector3)], rig: CameraRig,
                            iterations: Int = 5, minParallax: Double = 0.01, maxErrorNormalized: Double = 0.01)
        -> Vector3? {
        let rays = Self.rays(obs, poses: poses, rig: rig)
        guard rays.count >= 2 else { return nil }
        // Linear: minimise Σ ‖(I − b bᵀ)(X − c)‖².
        var a = Matrix3.zero, rhs = Vector3.zero
        var bearings: [Vector3] = []
        for (r, c, z) in rays {
            let b = (r * Vector3(z.x, z.y, 1)).normalized
            bearings.append(b)
            let m = Matrix3.identity - Matrix3.outer(b, b)
            a = a + m
            rhs += m * c
        }
        // Parallax (plus a baseline-free check).
        let maxAngle = parallax(bearings)
        let sameCentre = rays.allSatisfy { ($0.1 - rays[0].1).norm < 1e-6 }
        guard !sameCentre, maxAngle >= minParallax || rays.count > obs.count, let inv = a.inverse else { return nil }
        var x = inv * rhs
        guard x.isFinite else { return nil }
        // Gauss–Newton on normalised reprojection errors.
        for _ in 0..<iterations {
            var h = Matrix3.zero, g = Vector3.zero
            for (r, c, z) in rays {
                let pc = r.transpose * (x - c)
                guard pc.z > 1e-3 else { return nil }
                let iz = 1 / pc.z
                let e = Vector2(z.x - pc.x * iz, z.y - pc.y * iz)
                let (j0, j1) = projectionJacobian(pc, R_world_cam: r)
                h = h + Matrix3.outer(j0, j0) + Matrix3.outer(j1, j1)
                g += j0 * e.x + j1 * e.y
            }
            guard let hi = h.inverse else { return nil }
            let dx = hi * g
            x += dx
            if dx.norm < 1e-6 * max(1, x.norm) { break }
        }
        // Validity: in front of every camera, not absurdly far, small residuals.
        var maxErr = 0.0
        for (r, c, z) in rays {
            let pc = r.transpose * (x - c)
            guard pc.z > 0.1, pc.z < 60 else { return nil }
            let e = Vector2(z.x - pc.x / pc.z, z.y - pc.y / pc.z)
            maxErr = max(maxErr, e.norm)
        }
        guard x.isFinite, maxErr <= maxErrorNormalized else { return nil }
        return x
    }

    /// First-order covariance (m²) of a triangulated point `x` from its rays' geometry: σ² H⁻¹, H
    /// the Gauss–Newton information of the normalised reprojection errors at `x` (the same
    /// Jacobians as ``triangulate(_:poses:rig:iterations:minParallax:maxErrorNormalized:)``), for an
    /// image noise of `sigmaNormalized` (pixels / focal length) on every ray and exact poses. A
    /// point seen over a short baseline comes out long along its viewing direction.
    static func pointCovariance(_ x: Vector3, _ obs: [Observation], poses: [(Matrix3, Vector3)], rig: CameraRig,
                                sigmaNormalized: Double) -> Matrix3? {
        var h = Matrix3.zero
        for (r, c, _) in rays(obs, poses: poses, rig: rig) {
            let pc = r.transpose * (x - c)
            guard pc.z > 1e-3 else { return nil }
            let (j0, j1) = projectionJacobian(pc, R_world_cam: r)
            h = h + Matrix3.outer(j0, j0) + Matrix3.outer(j1, j1)
        }
        return h.inverse.map { $0 * (sigmaNormalized * sigmaNormalized) }
    }

    /// The rays of a track: (R_world_cam, camera centre in the world, normalised coordinates), cam0's
    /// for every observation and cam1's where the stereo match passed.
    static func rays(_ obs: [Observation], poses: [(Matrix3, Vector3)], rig: CameraRig) -> [(Matrix3, Vector3, Vector2)] {
        var rays: [(Matrix3, Vector3, Vector2)] = []
        rays.reserveCapacity(obs.count * 2)
        for (k, o) in obs.enumerated() {
            let (r0, p0) = rig.cameraPose(0, bodyRotation: poses[k].0, bodyPosition: poses[k].1)
            rays.append((r0, p0, o.left))
            if let rn = o.right, rig.hasRight {
                let (r1, p1) = rig.cameraPose(1, bodyRotation: poses[k].0, bodyPosition: poses[k].1)
                rays.append((r1, p1, rn))
            }
        }
        return rays
    }

    /// Rows of ∂(x/z, y/z)/∂X for a world point X seen at `pc` in a camera turned by `R_world_cam`
    /// (the projection's derivative times R_world_camᵀ).
    static func projectionJacobian(_ pc: Vector3, R_world_cam r: Matrix3) -> (Vector3, Vector3) {
        let iz = 1 / pc.z
        let rt = r.transpose
        return ((rt.row(0) - rt.row(2) * (pc.x * iz)) * iz, (rt.row(1) - rt.row(2) * (pc.y * iz)) * iz)
    }

    /// Parallax of unit bearings in one frame: the largest angle (rad) between the first and any
    /// other. The single definition behind the triangulation floor and the updater's low-parallax
    /// weighting.
    static func parallax(_ bearings: [Vector3]) -> Double {
        guard let first = bearings.first else { return 0 }
        var largest = 0.0
        for b in bearings.dropFirst() { largest = max(largest, acos(min(1, max(-1, first.dot(b))))) }
        return largest
    }

    /// ``parallax(_:)`` of cam0's rays only: observation k seen from body pose `poses[k]`.
    static func leftParallax(_ obs: [Observation], poses: [(Matrix3, Vector3)], rig: CameraRig) -> Double {
        parallax(obs.indices.map { k in
            let (r, _) = rig.cameraPose(0, bodyRotation: poses[k].0, bodyPosition: poses[k].1)
            return (r * Vector3(obs[k].left.x, obs[k].left.y, 1)).normalized
        })
    }

    /// ``triangulate(_:poses:rig:iterations:minParallax:maxErrorNormalized:)`` with outlier removal.
    ///
    /// 1. Stereo consistency: a right match one texture period off along the epipolar line passes
    ///    the front-end's checks and, seeded from the previous frame, stays wrong for the whole
    ///    track. When any ray exceeds `outlierNormalized`, the right rays are checked against the
    ///    left-only point and those that disagree are dropped.
    /// 2. Then, while the worst ray still exceeds the bound, it is dropped (a right observation
    ///    alone, or the whole observation for a left ray), up to a quarter of the observations.
    ///
    /// `obs` and `poses` are trimmed to what was kept. Returns nil when the kept rays do not
    /// triangulate within `maxErrorNormalized`.
    static func triangulateRobust(_ obs: inout [Observation], poses: inout [(Matrix3, Vector3)], rig: CameraRig,
                                  maxErrorNormalized: Double, outlierNormalized: Double) -> Vector3? {
        func worstRay(_ x: Vector3, _ obs: [Observation]) -> (error: Double, index: Int, camera: Int) {
            var worst = (error: 0.0, index: -1, camera: 0)
            for (k, o) in obs.enumerated() {
                for camera in (o.right != nil && rig.hasRight) ? [0, 1] : [0] {
                    let (r, c) = rig.cameraPose(camera, bodyRotation: poses[k].0, bodyPosition: poses[k].1)
                    let p = r.transpose * (x - c)
                    let z = camera == 0 ? o.left : o.right!
                    let e = p.z > 1e-6 ? (z - Vector2(p.x / p.z, p.y / p.z)).norm : .infinity
                    if e > worst.error { worst = (e, k, camera) }
                }
            }
            return worst
        }
        guard var x = triangulate(obs, poses: poses, rig: rig, maxErrorNormalized: .infinity) else { return nil }
        if rig.hasRight, worstRay(x, obs).error > outlierNormalized, obs.contains(where: { $0.right != nil }) {
            let leftOnly = obs.map { Observation(frame: $0.frame, left: $0.left, right: nil) }
            if let xl = triangulate(leftOnly, poses: poses, rig: rig, maxErrorNormalized: outlierNormalized) {
                var changed = false
                for k in obs.indices {
                    guard let rn = obs[k].right else { continue }
                    let (r, c) = rig.cameraPose(1, bodyRotation: poses[k].0, bodyPosition: poses[k].1)
                    let p = r.transpose * (xl - c)
                    if p.z <= 1e-6 || (rn - Vector2(p.x / p.z, p.y / p.z)).norm > outlierNormalized {
                        obs[k].right = nil
                        changed = true
                    }
                }
                if changed {
                    guard let again = triangulate(obs, poses: poses, rig: rig, maxErrorNormalized: .infinity) else { return nil }
                    x = again
                }
            }
        }
        let budget = max(1, obs.count / 4)
        for _ in 0..<budget {
            let worst = worstRay(x, obs)
            guard worst.error > outlierNormalized, worst.index >= 0 else { break }
            if worst.camera == 1 {
                obs[worst.index].right = nil
            } else {
                obs.remove(at: worst.index)
                poses.remove(at: worst.index)
            }
            guard obs.count >= 2, let again = triangulate(obs, poses: poses, rig: rig, maxErrorNormalized: .infinity)
            else { return nil }
            x = again
        }
        guard worstRay(x, obs).error <= maxErrorNormalized else { return nil }
        return x
    }
}
