import ParallaxMath
import Testing
@testable import ParallaxTracking

/// ``StateHelper`` against dense references: the EKF update against an explicit
/// `K = P Hᵀ S⁻¹` solve, cloning and marginalisation as row/column bookkeeping.
@Suite("State helper")
struct StateHelperTests {
    typealias Support = EstimatorTestSupport

    /// The textbook update with ParallaxMath's general matrices: returns (P⁺, δx).
    static func reference(_ s: FilterState, h: [Double], columns: Range<Int>, r: [Double], variance: Double)
        throws -> (Matrix, [Double]) {
        let n = s.dimension, m = r.count, w = columns.count
        let p = Matrix(rows: n, cols: n, elements: s.covariance)
        var hFull = Matrix(rows: m, cols: n)
        for i in 0..<m { for a in 0..<w { hFull[i, columns.lowerBound + a] = h[i * w + a] } }
        let pht = p * hFull.transpose
        let sMatrix = hFull * pht + Matrix(diagonal: [Double](repeating: variance, count: m))
        let gain = try Cholesky(sMatrix).solve(pht.transpose).transpose   // K = P Hᵀ S⁻¹ (S symmetric)
        let dx = gain * r
        return (p - gain * sMatrix * gain.transpose, dx)
    }

    static func expectClose(_ a: [Double], _ b: [Double], tolerance: Double) {
        #expect(a.count == b.count)
        let worst = zip(a, b).map { abs($0 - $1) }.max() ?? 0
        #expect(worst <= tolerance, "largest difference \(worst)")
    }

    /// A time offset held at zero variance (a stated offset after a mono start in motion) keeps its
    /// value and its zero row through an update; released, it has its prior on the diagonal and
    /// nothing else, and the next update moves it.
    @Test("A held time offset stays through an update; released, it takes its prior and moves")
    func heldTimeOffsetRelease() throws {
        let nav = NavigationState(timestamp: 1, T_world_body: .identity, velocity: Vector3(0.8, 0, 0))
        let prior = TrackerConfiguration.InitialUncertainty(tilt: 0.02, yaw: 1e-3, position: 1e-3, velocity: 0.1,
                                                            gyroBias: 0.01, accelBias: 0.2)
        var s = FilterState(navigation: nav, uncertainty: prior, timeOffset: 0.01, timeOffsetSigma: 0)
        StateHelper.augmentClone(&s, frame: 1)
        #expect(s.isHealthy)
        let n = s.dimension, c = s.timeOffsetColumn
        // One measurement on velocity x and the offset (a ray moved by velocity × offset).
        let columns = FilterState.Block.velocity..<(c + 1)
        var h = [Double](repeating: 0, count: columns.count)
        h[0] = 1
        h[c - columns.lowerBound] = 0.8
        var held = s
        #expect(StateHelper.update(&held, jacobian: h, columns: columns, residual: [0.05], noiseVariance: 1e-4))
        #expect(held.timeOffset == 0.01)
        #expect(held.velocity.x != s.velocity.x, "the velocity takes the whole residual")
        for i in 0..<n { #expect(held.covariance[c * n + i] == 0 && held.covariance[i * n + c] == 0) }

        StateHelper.releaseTimeOffset(&held, sigma: 0.005)
        #expect(held.covariance[c * n + c] == 0.005 * 0.005)
        for i in 0..<n where i != c { #expect(held.covariance[c * n + i] == 0 && held.covariance[i * n + c] == 0) }
        var released = held
        #expect(StateHelper.update(&released, jacobian: h, columns: columns, residual: [0.05], noiseVariance: 1e-4))
        #expect(released.timeOffset != 0.01, "a released offset takes part in the update")
    }

    @Test("Dense update matches P − K S Kᵀ and δx = K r")
    func denseUpdate() throws {
        let s = Support.state(clones: 3, seed: 1)
        var rng = Support.Numbers(seed: 2)
        let columns = 16..<34, m = 7
        let h = (0..<(m * columns.count)).map { _ in rng.next() }
        let r = (0..<m).map { _ in 0.01 * rng.next() }
        let (pRef, dxRef) = try Self.reference(s, h: h, columns: columns, r: r, variance: 1e-4)
        var updated = s
        #expect(StateHelper.update(&updated, jacobian: h, columns: columns, residual: r, noiseVariance: 1e-4))
        Self.expectClose(updated.covariance, pRef.elements, tolerance: 1e-12)
        Self.expectClose(Support.errorState(from: s, to: updated), dxRef, tolerance: 1e-10)
        // Exactly symmetric.
        let n = updated.dimension
        for i in 0..<n { for j in 0..<i { #expect(updated.covariance[i * n + j] == updated.covariance[j * n + i]) } }
    }

    /// The consider update against the Joseph form with the considered rows of the gain zeroed,
    /// P⁺ = (I − K_s H) P (I − K_s H)ᵀ + K_s R K_sᵀ, δx = K_s r, which holds for any gain.
    @Test("Consider update: Joseph form with the considered gain rows zeroed; those entries stay")
    func considerUpdate() throws {
        let s = Support.state(clones: 2, seed: 5)
        var rng = Support.Numbers(seed: 6)
        let n = s.dimension, columns = FilterState.Block.velocity..<(FilterState.Block.velocity + 3)
        let considered = FilterState.Block.gyroBias..<(FilterState.Block.accelBias + 3)
        let r = (0..<3).map { _ in 0.05 * rng.next() }, variance = 0.05 * 0.05
        let p = Matrix(rows: n, cols: n, elements: s.covariance)
        var h = Matrix(rows: 3, cols: n)
        for a in 0..<3 { h[a, columns.lowerBound + a] = 1 }
        let sMatrix = h * p * h.transpose + Matrix(diagonal: [variance, variance, variance])
        var gain = try Cholesky(sMatrix).solve((p * h.transpose).transpose).transpose
        for i in considered { for a in 0..<3 { gain[i, a] = 0 } }
        let ikh = Matrix(diagonal: [Double](repeating: 1, count: n)) - gain * h
        let pRef = ikh * p * ikh.transpose + gain * Matrix(diagonal: [variance, variance, variance]) * gain.transpose
        let dxRef = gain * r

        var updated = s
        #expect(StateHelper.update(&updated, jacobian: [1, 0, 0, 0, 1, 0, 0, 0, 1], columns: columns, residual: r,
                                   noiseVariance: variance, considered: considered))
        Self.expectClose(updated.covariance, pRef.elements, tolerance: 1e-12)
        let dx = Support.errorState(from: s, to: updated)
        Self.expectClose(dx, dxRef, tolerance: 1e-10)
        #expect(updated.biasGyro == s.biasGyro && updated.biasAccel == s.biasAccel)
        for i in considered { for j in considered { #expect(updated.covariance[i * n + j] == s.covariance[i * n + j]) } }
        // The velocity still moved, and its variance shrank.
        #expect(dx[columns.lowerBound..<columns.upperBound].contains { abs($0) > 1e-6 })
        #expect(updated.covariance[columns.lowerBound * (n + 1)] < s.covariance[columns.lowerBound * (n + 1)])
    }

    @Test("Upper-triangular Jacobians: same numbers as the dense path, and as the reference")
    func upperTriangularUpdate() throws {
        let s = Support.state(clones: 2, seed: 3)
        var rng = Support.Numbers(seed: 4)
        let columns = 16..<28, w = 12
        var h = [Double](repeating: 0, count: w * w)
        for i in 0..<w { for a in i..<w { h[i * w + a] = rng.next() + (a == i ? 2 : 0) } }
        let r = (0..<w).map { _ in 0.01 * rng.next() }
        var dense = s, upper = s
        StateHelper.update(&dense, jacobian: h, columns: columns, residual: r, noiseVariance: 1e-4)
        StateHelper.update(&upper, jacobian: h, columns: columns, residual: r, noiseVariance: 1e-4,
                           structure: .upperTriangular)
        #expect(dense.covariance == upper.covariance)
        #expect(dense.position == upper.position)
        let (pRef, _) = try Self.reference(s, h: h, columns: columns, r: r, variance: 1e-4)
        Self.expectClose(upper.covariance, pRef.elements, tolerance: 1e-12)
    }

    @Test("A clone copies the IMU pose rows; marginalising deletes exactly its rows and columns")
    func cloneAndMarginalize() {
        // A fixed time offset (no variance, no correlation): the clone is a plain copy.
        var s = Support.state(clones: 2, seed: 5)
        let n = s.dimension
        for i in 0..<n { s.covariance[i * n + s.timeOffsetColumn] = 0; s.covariance[s.timeOffsetColumn * n + i] = 0 }
        var a = s
        StateHelper.augmentClone(&a, frame: 9)
        let m = a.dimension
        #expect(m == n + 6)
        #expect(a.clones.last?.frame == 9)
        #expect(a.clones.last?.rotation == s.rotation && a.clones.last?.position == s.position)
        #expect(a.clones.last?.rotationFE == s.rotation && a.clones.last?.positionFE == s.position)
        for i in 0..<n { for j in 0..<n { #expect(a.covariance[i * m + j] == s.covariance[i * n + j]) } }
        for k in 0..<6 {
            for j in 0..<n { #expect(a.covariance[(n + k) * m + j] == s.covariance[k * n + j]) }
            for l in 0..<6 { #expect(a.covariance[(n + k) * m + n + l] == s.covariance[k * n + l]) }
        }
        // Marginalise the middle clone (frame 2): its six rows and columns go.
        var b = a
        StateHelper.marginalizeClone(&b, at: 1)
        #expect(b.clones.map(\.frame) == [1, 9])
        let middle = a.cloneColumn(1)
        let kept = Array(0..<middle) + Array((middle + 6)..<m)
        #expect(b.dimension == kept.count)
        for (i, oi) in kept.enumerated() {
            for (j, oj) in kept.enumerated() { #expect(b.covariance[i * b.dimension + j] == a.covariance[oi * m + oj]) }
        }
    }

    @Test("A clone's covariance is J P Jᵀ with the time-offset column J = [ω_world; v]")
    func cloneCarriesTimeOffsetJacobian() {
        let s = Support.state(clones: 1, seed: 8)
        let n = s.dimension, m = n + 6, td = s.timeOffsetColumn
        let w = Vector3(0.3, -0.2, 0.5)
        var a = s
        StateHelper.augmentClone(&a, frame: 7, angularVelocityWorld: w)
        // Reference: J (m × n) maps the old error state to [old; clone].
        var j = Matrix(rows: m, cols: n)
        for i in 0..<n { j[i, i] = 1 }
        let jt = [w.x, w.y, w.z, s.velocity.x, s.velocity.y, s.velocity.z]
        for k in 0..<6 { j[n + k, k] = 1; j[n + k, td] = jt[k] }
        let reference = j * Matrix(rows: n, cols: n, elements: s.covariance) * j.transpose
        Self.expectClose(a.covariance, reference.elements, tolerance: 1e-15)
    }

    @Test("Zero-velocity update: accepted near rest and matches the reference; rejected when sure of motion")
    func zeroVelocityUpdate() throws {
        var s = Support.state(clones: 1, seed: 6)
        s.velocity = Vector3(0.003, -0.002, 0.001)
        var updated = s
        #expect(ZeroVelocityUpdater(sigma: 0.01).update(&updated))
        let h: [Double] = [1, 0, 0, 0, 1, 0, 0, 0, 1]
        let (pRef, dxRef) = try StateHelperTests.reference(s, h: h, columns: 6..<9, r: [-0.003, 0.002, -0.001],
                                                           variance: 1e-4)
        Self.expectClose(updated.covariance, pRef.elements, tolerance: 1e-12)
        Self.expectClose(Support.errorState(from: s, to: updated), dxRef, tolerance: 1e-10)
        #expect(updated.velocity.norm < s.velocity.norm)

        // A filter certain (σ 1 mm/s) of 1 m/s does not accept "still".
        var moving = Support.state(clones: 0, seed: 7)
        moving.velocity = Vector3(1, 0, 0)
        let n = moving.dimension
        for i in 6..<9 { for j in 0..<n where j != i { moving.covariance[i * n + j] = 0; moving.covariance[j * n + i] = 0 } }
        for i in 6..<9 { moving.covariance[i * n + i] = 1e-6 }
        let before = moving
        #expect(!ZeroVelocityUpdater(sigma: 0.01).update(&moving))
        #expect(moving.covariance == before.covariance && moving.velocity == before.velocity)
    }
}
