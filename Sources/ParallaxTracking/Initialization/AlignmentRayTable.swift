import Foundation
import ParallaxMath

/// The rays of one visual–inertial alignment attempt, laid out once for the searches that score
/// hundreds of candidate answers against them (``VisualInertialAlignment/refineAngular(_:rays:magnitude:disparityOffsetSigma:iterations:)``
/// and ``VisualInertialAlignment/refineAlongWeakestDirection(_:h:rays:magnitude:)``).
///
/// A solve builds it once, hands it to both searches and scores its answer with it. A search
/// evaluates the angular error about 500 times; built from `[[Ray]]` on every call, each call
/// allocated a centre array per feature and rebuilt every ray's projector `I − d dᵀ`, and those
/// searches were half of a start's tracking time (single frames of 100–300 ms while a mono start
/// waited for its alignment). Here the bearings, their projectors
/// and the IMU-known centre terms sit in flat arrays and one scratch buffer holds the centres.
/// The arithmetic is the same, in the same order, as
/// ``VisualInertialAlignment/triangulate(_:centres:reweightings:)``: the answers are bit-identical
/// (`AlignmentRayTableTests`).
struct AlignmentRayTable {
    private let directions: [Vector3]
    /// `I − d dᵀ` of each bearing (the midpoint triangulation's normal-equation block).
    private let projectors: [Matrix3]
    private let knownCentres: [Vector3]
    private let times: [Double]
    /// Each bearing's turn per unit of the pair's disparity offset (zero for cam0).
    private let disparityDirections: [Vector3]
    /// Exclusive end of each feature's rays in the flat arrays.
    private let featureEnds: [Int]
    private let longestFeature: Int

    /// Rays in all features.
    var rayCount: Int { directions.count }
    /// Whether any ray is cam1's (it turns with the pair's disparity offset).
    var hasSecondCameraRays: Bool { disparityDirections.contains { $0 != .zero } }

    init(_ rays: [[VisualInertialAlignment.Ray]]) {
        var d: [Vector3] = [], p: [Matrix3] = [], k: [Vector3] = [], t: [Double] = [], s: [Vector3] = []
        var ends: [Int] = []
        let total = rays.reduce(0) { $0 + $1.count }
        d.reserveCapacity(total); p.reserveCapacity(total); k.reserveCapacity(total)
        t.reserveCapacity(total); s.reserveCapacity(total); ends.reserveCapacity(rays.count)
        let identity = Matrix3.identity
        for feature in rays {
            for ray in feature {
                d.append(ray.d)
                p.append(identity - Matrix3.outer(ray.d, ray.d))
                k.append(ray.k)
                t.append(ray.t)
                s.append(ray.s)
            }
            ends.append(d.count)
        }
        directions = d; projectors = p; knownCentres = k; times = t; disparityDirections = s
        featureEnds = ends
        longestFeature = rays.map(\.count).max() ?? 0
    }

    /// RMS angle (rad), for θ = [v₀, g₀], between each ray and the direction from its camera centre
    /// to its feature triangulated with two angular reweightings of the midpoint triangulation,
    /// each angle capped at `cap` (∞ without rays). `disparityOffset` turns cam1's bearings by
    /// the pair's offset first (``VisualInertialAlignment/disparityOffsetSigma``).
    func angularError(_ theta: [Double], cap: Double = 0.01, disparityOffset: Double = 0) -> Double {
        let v0 = Vector3(theta[0], theta[1], theta[2]), g0 = Vector3(theta[3], theta[4], theta[5])
        let identity = Matrix3.identity
        let offset = disparityOffset != 0
        var centres = [Vector3](repeating: .zero, count: longestFeature)
        var bearings = [Vector3](repeating: .zero, count: offset ? longestFeature : 0)
        var blocks = [Matrix3](repeating: .zero, count: offset ? longestFeature : 0)
        var sum = 0.0, count = 0.0
        var start = 0
        for end in featureEnds {
            defer { start = end }
            let n = end - start
            for i in 0..<n {
                let r = start + i, t = times[r]
                centres[i] = knownCentres[r] + v0 * t + g0 * (0.5 * t * t)
                if offset {
                    let d = (directions[r] + disparityDirections[r] * disparityOffset).normalized
                    bearings[i] = d
                    blocks[i] = identity - Matrix3.outer(d, d)
                }
            }
            // Midpoint least squares, then two passes weighting each ray by 1/‖X − c‖².
            var x: Vector3?
            for _ in 0...2 {
                // Matrix3's `*`, `+=` written out column by column (the same operations in the
                // same order; the operators were not inlined here and cost a call each).
                var a0 = Vector3.zero, a1 = Vector3.zero, a2 = Vector3.zero, rhs = Vector3.zero
                for i in 0..<n {
                    let c = centres[i]
                    let w = x.map { 1 / max(0.01, ($0 - c).squaredNorm) } ?? 1
                    let p = offset ? blocks[i] : projectors[start + i]
                    let m0 = p.columns.0 * w, m1 = p.columns.1 * w, m2 = p.columns.2 * w
                    a0 = a0 + m0; a1 = a1 + m1; a2 = a2 + m2
                    rhs += m0 * c.x + m1 * c.y + m2 * c.z
                }
                guard let ai = Matrix3(columns: a0, a1, a2).inverse else { break }
                x = ai * rhs
            }
            guard let x else { continue }
            for i in 0..<n {
                let u = x - centres[i], d = offset ? bearings[i] : directions[start + i]
                // Truncated at `cap` (a point behind a camera counts as the cap): a few features
                // that triangulate badly must not decide the search.
                let cosine = u.dot(d) / max(1e-12, u.norm)
                let angle = cosine > 0 ? min(cap, acos(min(1, cosine))) : cap
                sum += angle * angle
                count += 1
            }
        }
        return count > 0 ? (sum / count).squareRoot() : .infinity
    }
}
