import Testing
import ParallaxMath
@testable import ParallaxTracking

/// A mono start whose alignment keeps refusing its two answers for disagreeing on gravity takes the
/// answer of the model that fits clearly better in each of the last attempts, once that model's
/// answers hold steady (``EstimatorCore/steadyAnswer(_:configuration:)``); an answer whose speed
/// is loose waits for a longer window (``EstimatorCore/isWeaklyConditioned(_:configuration:)``).
/// The figures are the attempts of simulated starts printed by a debug build (speed m/s, bias m/s²,
/// RMS ray angle mrad).
@Suite("Which alignment answer a mono start takes, and when")
struct SteadyAnswerTests {
    typealias Solution = VisualInertialAlignment.Solution
    typealias Pair = (withBias: Solution, withoutBias: Solution)

    static func solution(speed: Double, bias: Double, error: Double) -> Solution {
        Solution(gravity: Vector3(0, 0, -9.81), velocity: Vector3(speed, 0, 0), featureCount: 40, gravityRatio: 1,
                 biasAccel: Vector3(bias, 0, 0), angularError: error * 1e-3)
    }

    static func pair(_ vb: Double, _ b: Double, _ e: Double, _ v0: Double, _ e0: Double) -> Pair {
        (solution(speed: vb, bias: b, error: e), solution(speed: v0, bias: 0, error: e0))
    }

    let configuration = TrackerConfiguration(mode: .mono)

    /// Euroc V1_01 s908 from 12 s: the bias-solved answer fits twice as well each time and holds
    /// its speed (the truth 0.36–0.38 m/s).
    static let v1_01From12s: [Pair] = [pair(0.36, 0.37, 0.74, 0.96, 1.50), pair(0.35, 0.37, 0.74, 1.05, 1.63),
                                       pair(0.35, 0.36, 0.74, 1.15, 1.76)]

    /// ``v1_01From12s``: the newest bias-solved answer is taken.
    @Test("The clearly better-fitting model's steady answer is taken")
    func takesSteadyBiasAnswer() throws {
        let attempts = Self.v1_01From12s
        let taken = try #require(EstimatorCore.steadyAnswer(attempts[...], configuration: configuration))
        #expect(taken.velocity == attempts[2].withBias.velocity)
        #expect(taken.biasAccel == attempts[2].withBias.biasAccel)
    }

    /// The same with the roles swapped: the answer with the bias at zero fits better each time.
    @Test("The zero-bias model's steady answer is taken when it fits clearly better")
    func takesSteadyZeroBiasAnswer() throws {
        let attempts: [Pair] = [Self.pair(0.90, 0.30, 1.50, 1.00, 1.10), Self.pair(0.88, 0.31, 1.50, 1.02, 1.10),
                                Self.pair(0.87, 0.32, 1.52, 1.01, 1.12)]
        let taken = try #require(EstimatorCore.steadyAnswer(attempts[...], configuration: configuration))
        #expect(taken.velocity == attempts[2].withoutBias.velocity)
    }

    /// The Gore walk at 0.60–0.70 s: the bias-solved answer fits better, but only by 7–9 %, and it
    /// was 20 % too fast. No answer.
    @Test("A model that fits only a little better is not taken")
    func refusesNarrowFit() {
        let attempts: [Pair] = [Self.pair(0.88, 0.16, 1.48, 1.18, 1.60), Self.pair(0.94, 0.20, 1.43, 1.17, 1.53),
                                Self.pair(1.03, 0.22, 1.39, 1.72, 1.53)]
        #expect(EstimatorCore.steadyAnswer(attempts[...], configuration: configuration) == nil)
    }

    /// Answers that walk (a bias growing 0.28 → 0.42 m/s², or a speed changing by a third) are the
    /// window still trading bias against tilt, and fits that switch models say nothing: no answer.
    @Test("Answers that walk, or fits that switch models, are not taken")
    func refusesUnsteadyAnswers() {
        let walkingBias: [Pair] = [Self.pair(0.37, 0.28, 0.70, 0.40, 1.40), Self.pair(0.39, 0.35, 0.70, 0.43, 1.44),
                                   Self.pair(0.36, 0.42, 0.70, 0.43, 1.52)]
        #expect(EstimatorCore.steadyAnswer(walkingBias[...], configuration: configuration) == nil)
        let walkingSpeed: [Pair] = [Self.pair(0.80, 0.20, 0.50, 1.5, 1.2), Self.pair(0.95, 0.20, 0.50, 1.6, 1.2),
                                    Self.pair(1.10, 0.20, 0.50, 1.7, 1.2)]
        #expect(EstimatorCore.steadyAnswer(walkingSpeed[...], configuration: configuration) == nil)
        let switching: [Pair] = [Self.pair(0.50, 0.30, 0.50, 0.9, 1.2), Self.pair(0.50, 0.30, 1.50, 0.9, 1.0),
                                 Self.pair(0.50, 0.30, 0.50, 0.9, 1.2)]
        #expect(EstimatorCore.steadyAnswer(switching[...], configuration: configuration) == nil)
    }

    /// Fewer attempts than ``TrackerConfiguration/steadyAnswerAttempts``, or the rule turned off.
    @Test("Too few attempts, or the rule turned off, give no answer")
    func needsEnoughAttempts() {
        let attempts = Self.v1_01From12s
        #expect(EstimatorCore.steadyAnswer(attempts.prefix(2), configuration: configuration) == nil)
        var off = configuration
        off.steadyAnswerAttempts = 0
        #expect(EstimatorCore.steadyAnswer(attempts[...], configuration: off) == nil)
    }

    static func answer(speed: Double, speedSigma: Double) -> Solution {
        var a = solution(speed: speed, bias: 0, error: 0.5)
        var c = Matrix(rows: 9, cols: 9)
        for i in 0..<9 { c[i, i] = i >= 3 && i < 6 ? speedSigma * speedSigma / 3 : 1e-4 }
        a.covariance = c
        return a
    }

    /// The Gore walk from 16 s: 2.06 ± 0.40 m/s (a true 1.17) waits for a longer window; a drone's
    /// 0.94 ± 0.11 m/s does not, nor an answer near rest whose σ is under the 0.1 m/s floor
    /// (0.09 ± 0.09), nor one without a covariance.
    @Test("An answer whose speed σ is large against its speed waits for a longer window")
    func weakAnswerWaits() {
        #expect(EstimatorCore.isWeaklyConditioned(Self.answer(speed: 2.06, speedSigma: 0.40), configuration: configuration))
        #expect(!EstimatorCore.isWeaklyConditioned(Self.answer(speed: 0.94, speedSigma: 0.11), configuration: configuration))
        #expect(!EstimatorCore.isWeaklyConditioned(Self.answer(speed: 0.09, speedSigma: 0.09), configuration: configuration))
        #expect(!EstimatorCore.isWeaklyConditioned(Self.solution(speed: 2.06, bias: 0, error: 0.5), configuration: configuration))
    }
}
