import ParallaxMath
import Testing
@testable import ParallaxTracking

/// The depth doubt a reported feature point carries for the camera motion between its views
/// (`TrackedFeaturePoint.motionDepthSigma`): the filter's covariance of the baseline, and the time
/// the filter held its velocity at zero by assumption.
@Suite("Motion depth σ of reported points")
struct MotionDepthSigmaTests {
    /// A view from a camera at `(x, 0, 0)` (identity rig) taken when the filter's held time was `held`.
    static func view(frame: Int, x: Double, held: Double, stereo: Bool = false) -> FeaturePointHistory.View {
        let o = Observation(frame: frame, left: Vector2(0, 0), right: stereo ? Vector2(0.01, 0) : nil)
        return .init(observation: o, pose: (.identity, Vector3(x, 0, 0)), heldTime: held)
    }

    @Test("The relative covariance of two clones is Σbb + Σaa − Σab − Σba of their position blocks")
    func relativeCovariance() {
        let s = EstimatorTestSupport.state(clones: 4, seed: 3)
        let m = s.relativePositionCovariance(1, 3)
        let pa = s.cloneColumn(1) + 3, pb = s.cloneColumn(3) + 3
        for i in 0..<3 {
            for j in 0..<3 {
                let expected = s.cov(pb + i, pb + j) + s.cov(pa + i, pa + j) - s.cov(pa + i, pb + j) - s.cov(pb + i, pa + j)
                #expect(abs(m[i, j] - expected) < 1e-15)
            }
        }
        // Of a clone with itself: nothing.
        #expect(s.relativePositionCovariance(2, 2).frobeniusNorm < 1e-15)
    }

    /// A point 2 m ahead seen over a 5 cm baseline across the ray, with one second of held velocity
    /// between the views and nothing else uncertain: σ = range · drift · held / baseline.
    @Test("A held stretch between the views gives range · drift · held / baseline")
    func heldStretch() {
        var s = EstimatorTestSupport.state(clones: 2, seed: 5)
        s.covariance = [Double](repeating: 0, count: s.dimension * s.dimension)
        let views = [Self.view(frame: 1, x: 0, held: 0.5), Self.view(frame: 2, x: 0.05, held: 1.5)]
        let point = Vector3(0.05, 0, 2)
        let sigma = EstimatorCore.motionDepthSigma(point, views: views, window: [1, 2], cloneIndex: [1: 0, 2: 1],
                                                   state: s, heldDrift: 0.05)
        #expect(abs(sigma - 2 * 0.05 * 1.0 / 0.05) < 1e-9)
        // The same views with the velocity measured throughout: no doubt.
        let measured = [Self.view(frame: 1, x: 0, held: 1.5), Self.view(frame: 2, x: 0.05, held: 1.5)]
        #expect(EstimatorCore.motionDepthSigma(point, views: measured, window: [1, 2], cloneIndex: [1: 0, 2: 1],
                                               state: s, heldDrift: 0.05) == 0)
    }

    /// Without held time the doubt is the filter's: its covariance of the baseline, across the ray.
    @Test("Measured motion leaves the filter's covariance of the baseline across the ray")
    func filterCovariance() {
        let s = EstimatorTestSupport.state(clones: 3, seed: 7)
        let views = [Self.view(frame: 1, x: 0, held: 0), Self.view(frame: 3, x: 0.1, held: 0)]
        let point = Vector3(0.1, 0, 3)
        let sigma = EstimatorCore.motionDepthSigma(point, views: views, window: [1, 3], cloneIndex: [1: 0, 3: 2],
                                                   state: s, heldDrift: 0.05)
        // The ray is +z, the baseline +x: the x-x entry of the relative covariance.
        let variance = s.relativePositionCovariance(0, 2)[0, 0]
        #expect(abs(sigma - 3 * variance.squareRoot() / 0.1) < 1e-9)
        // Views outside the window (frozen) give no filter covariance, only their held time.
        #expect(EstimatorCore.motionDepthSigma(point, views: views, window: [], cloneIndex: [:], state: s, heldDrift: 0.05) == 0)
    }

    @Test("Stereo views and single views carry no motion doubt")
    func stereoAndSingle() {
        let s = EstimatorTestSupport.state(clones: 2, seed: 9)
        let point = Vector3(0, 0, 2)
        let stereo = [Self.view(frame: 1, x: 0, held: 0, stereo: true), Self.view(frame: 2, x: 0.05, held: 3, stereo: true)]
        #expect(EstimatorCore.motionDepthSigma(point, views: stereo, window: [1, 2], cloneIndex: [1: 0, 2: 1],
                                               state: s, heldDrift: 0.05) == 0)
        #expect(EstimatorCore.motionDepthSigma(point, views: [Self.view(frame: 1, x: 0, held: 0)], window: [1],
                                               cloneIndex: [1: 0], state: s, heldDrift: 0.05) == 0)
    }
}
