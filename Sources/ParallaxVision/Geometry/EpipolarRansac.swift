import Foundation
import ParallaxMath

/// RANSAC outlier rejection on the epipolar constraint `x₂ᵀ E x₁ = 0` between two frames,
/// on undistorted **normalised** coordinates (`(x/z, y/z)`, see ``CameraModel/undistort(_:)``).
///
/// Models, chosen by what the caller knows:
/// - **Known rotation** `R = R_cur_prev` (from the gyroscope): `E = [t]× R`, and each pair
///   gives one linear constraint on `t`: with `y = R x₁`, `x₂ · (t × y) = t · (y × x₂) = 0`,
///   so two pairs give `t ∝ (y₁ × x₂₁) × (y₂ × x₂₂)` — a 2-point minimal solver
///   (cf. Kneip, Chli & Siegwart 2011; Troiani et al. 2014).
/// - **Unknown rotation**: the normalised eight-point algorithm (Hartley 1997) with the
///   rank-2 constraint enforced, 8-point samples.
/// - **No parallax** (median rotation-compensated disparity below ``lowParallaxPixels``):
///   translation is unobservable and every `t` fits the inliers, so an epipolar test would
///   let outliers through along arbitrary epipolar lines; the rotation-only model
///   `x₂ ∝ R x₁` (R = I when unknown) is used with ``rotationOnlyThreshold`` instead.
///
/// Scoring is MSAC (Torr & Zisserman 2000): truncated squared Sampson distance. The
/// generator is reseeded with ``seed`` on each call, so results are deterministic.
public struct EpipolarRansac: Sendable {
    /// Inlier threshold on the Sampson distance, in pixels.
    public var threshold: Double
    /// Focal length (pixels) converting normalised distances to pixels.
    public var focalLength: Double
    /// Below this median rotation-compensated disparity (pixels) the rotation-only model is used.
    public var lowParallaxPixels: Double
    /// Inlier threshold of the rotation-only model (pixels).
    public var rotationOnlyThreshold: Double
    /// Iteration cap.
    public var maxIterations: Int
    /// Desired probability of drawing at least one all-inlier sample.
    public var confidence: Double
    /// RNG seed.
    public var seed: UInt64

    /// Creates the estimator; `focalLength` is usually `(fx + fy) / 2` of the camera.
    public init(focalLength: Double, threshold: Double = 1.0, lowParallaxPixels: Double = 0.5,
                rotationOnlyThreshold: Double = 2.0, maxIterations: Int = 200,
                confidence: Double = 0.995, seed: UInt64 = 0x5EED) {
        self.focalLength = focalLength
        self.threshold = threshold
        self.lowParallaxPixels = lowParallaxPixels
        self.rotationOnlyThreshold = rotationOnlyThreshold
        self.maxIterations = maxIterations
        self.confidence = confidence
        self.seed = seed
    }

    /// Returns one flag per pair: `true` for inliers. `previous[i]` and `current[i]` are
    /// normalised coordinates of the same feature in the previous and current frame.
    public func inliers(previous: [Vector2], current: [Vector2],
                        rotation R_cur_prev: Matrix3? = nil) -> [Bool] {
        precondition(previous.count == current.count, "one current point per previous point")
        let n = previous.count
        let x1 = previous.map { Vector3($0.x, $0.y, 1) }
        let x2 = current.map { Vector3($0.x, $0.y, 1) }
        let R = R_cur_prev ?? .identity
        // Rotation-compensated disparities (pixels).
        var disparity = [Double](repeating: 0, count: n)
        for i in 0..<n {
            let y = R * x1[i]
            disparity[i] = y.z > 1e-9
                ? (Vector2(y.x / y.z, y.y / y.z) - current[i]).norm * focalLength : .infinity
        }
        let minimal = R_cur_prev == nil ? 8 : 2
        if n < minimal + 1 || median(disparity) < lowParallaxPixels {
            return disparity.map { $0 < rotationOnlyThreshold }
        }
        var rng = SplitMix64(seed: seed)
        let th2 = pow(threshold / focalLength, 2)
        var bestCost = Double.infinity
        var best = [Bool](repeating: false, count: n)
        var iterations = maxIterations
        var it = 0
        var sample = [Int](repeating: 0, count: minimal)
        while it < iterations {
            it += 1
            drawSample(&sample, n, &rng)
            guard let E = R_cur_prev != nil
                ? twoPoint(x1[sample[0]], x2[sample[0]], x1[sample[1]], x2[sample[1]], R)
                : eightPoint(sample.map { x1[$0] }, sample.map { x2[$0] })
            else { continue }
            var cost = 0.0
            var count = 0
            for i in 0..<n {
                let d2 = sampson(E, x1[i], x2[i])
                if d2 < th2 { cost += d2; count += 1 } else { cost += th2 }
            }
            if cost < bestCost {
                bestCost = cost
                for i in 0..<n { best[i] = sampson(E, x1[i], x2[i]) < th2 }
                let w = Double(count) / Double(n)
                let needed = log(1 - confidence) / log(max(1 - pow(w, Double(minimal)), 1e-12))
                if needed.isFinite { iterations = min(maxIterations, max(Int(needed.rounded(.up)), 1)) }
            }
        }
        return best
    }

    /// Squared Sampson distance (normalised units) of the pair under `E`.
    @inline(__always)
    func sampson(_ E: Matrix3, _ a: Vector3, _ b: Vector3) -> Double { SampsonDistance.squared(E, a, b) }

    /// `E = [t]× R` from two pairs with known rotation; nil when degenerate.
    func twoPoint(_ a1: Vector3, _ b1: Vector3, _ a2: Vector3, _ b2: Vector3, _ R: Matrix3) -> Matrix3? {
        let c1 = (R * a1).cross(b1), c2 = (R * a2).cross(b2)
        let t = c1.cross(c2)
        let tn = t.norm
        guard tn > 1e-12 else { return nil }
        return Matrix3.skew(t / tn) * R
    }

    /// Eight-point estimate of E (as a fundamental matrix on normalised points), rank 2.
    func eightPoint(_ a: [Vector3], _ b: [Vector3]) -> Matrix3? {
        var ata = [Double](repeating: 0, count: 81)
        for k in 0..<a.count {
            let p = a[k], q = b[k]
            let row = [q.x * p.x, q.x * p.y, q.x, q.y * p.x, q.y * p.y, q.y, p.x, p.y, 1]
            for i in 0..<9 { for j in 0..<9 { ata[i * 9 + j] += row[i] * row[j] } }
        }
        // Non-finite input or no convergence: no estimate (the RANSAC draws another sample).
        guard let normal = try? SymmetricEigen(Matrix(rows: 9, cols: 9, elements: ata)) else { return nil }
        let F = Matrix3(rowMajor: normal.vector(0))
        guard F.isFinite else { return nil }
        // Rank 2: F ← F (I − v vᵀ) with v the right singular vector of the smallest σ.
        let ftf = F.transpose * F
        guard let v3 = try? SymmetricEigen(Matrix(ftf)).vector(0) else { return nil }
        let v = Vector3(v3[0], v3[1], v3[2])
        return F * (Matrix3.identity - Matrix3.outer(v, v))
    }

    private func drawSample(_ s: inout [Int], _ n: Int, _ rng: inout SplitMix64) {
        for k in 0..<s.count {
            var c: Int
            repeat { c = Int(rng.next() % UInt64(n)) } while s[0..<k].contains(c)
            s[k] = c
        }
    }
}

/// Median of a non-empty array (upper median for even counts); `0` when empty.
func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return 0 }
    let s = values.sorted()
    return s[s.count / 2]
}
