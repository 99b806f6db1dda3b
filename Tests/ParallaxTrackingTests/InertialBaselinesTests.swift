import Foundation
import ParallaxMath
import Testing
@testable import ParallaxTracking

/// Baselines predicted from the IMU for the start's timing solve (``InertialBaselines``), and the
/// timing solve that uses them among far points, where free per-pair baselines take up the turn a
/// time shift causes.
@Suite("Baselines from the IMU for the start's timing")
struct InertialBaselinesTests {
    typealias Motion = VisualInertialAlignmentTests.Motion
    static let rig = VisualInertialAlignmentTests.rig

    /// With the true velocity and gravity (body frame at the window's start) every predicted
    /// baseline points where cam0 of the pair's second frame lies, seen from the first.
    @Test("the true velocity and gravity predict each pair's camera baseline")
    func predictsTheCameraBaselines() throws {
        var motion = Motion()
        motion.wobble = Vector3(0.15, -0.1, 0.2)
        let (_, samples) = VisualInertialAlignmentTests.data(motion: motion, duration: 1.0, stereo: false)
        let times = [(0.1, 0.4), (0.3, 0.6), (0.55, 0.85), (0.7, 1.0)]
        let model = try #require(InertialBaselines(times: times.map { (from: $0.0, to: $0.1) }, samples: samples[...],
                                                   bias: .zero, noise: .zero, rig: Self.rig))
        let r0 = motion.rotation(0.1)
        let truth = InertialBaselines.Motion(velocity: r0.transpose * motion.velocity(0.1),
                                             gravity: r0.transpose * VisualInertialAlignmentTests.gravity)
        for (k, (from, to)) in times.enumerated() {
            let (ri, ci) = Self.rig.cameraPose(0, bodyRotation: motion.rotation(from), bodyPosition: motion.position(from))
            let (_, cj) = Self.rig.cameraPose(0, bodyRotation: motion.rotation(to), bodyPosition: motion.position(to))
            let expected = ri.transpose * (cj - ci)
            let predicted = model.pairs[k].baseline(truth)
            // 1 kHz samples integrated piecewise: millimetre-level against a 0.2 m baseline.
            #expect((predicted - expected).norm < 1e-3 * max(1, expected.norm / 0.1))
            // Rows read 8 ms before and 6 ms after the frame times (a rolling shutter's top and
            // bottom rows): the camera centres at those read times, to first order in the delays.
            let (firstDelay, secondDelay) = (-0.008, 0.006)
            let (_, ciRow) = Self.rig.cameraPose(0, bodyRotation: motion.rotation(from + firstDelay),
                                                 bodyPosition: motion.position(from + firstDelay))
            let (_, cjRow) = Self.rig.cameraPose(0, bodyRotation: motion.rotation(to + secondDelay),
                                                 bodyPosition: motion.position(to + secondDelay))
            let rows = model.pairs[k].rowBaseline(truth, firstDelay: firstDelay, secondDelay: secondDelay)
            #expect((rows.baseline - ri.transpose * (cjRow - ciRow)).norm < 1.5e-3)
        }
        // Gravity's first guess: minus the mean specific force, off by the mean acceleration.
        #expect((model.gravityGuess - truth.gravity).norm < 1.0)
    }

    /// Free baselines would line up with the truth: the velocity solved from them is the true one.
    @Test("the velocity the true baseline directions line up with is the true velocity")
    func velocityFromDirections() throws {
        // A drone's gentle bob (0.7 m/s² at most): gravity's guess, minus the mean specific force,
        // is then off by the window's mean acceleration, about 0.25 m/s².
        var motion = Motion()
        motion.amplitude = Vector3(0.01, 0.015, 0.005)
        let (_, samples) = VisualInertialAlignmentTests.data(motion: motion, duration: 1.0, stereo: false)
        let times = stride(from: 0.0, through: 0.7, by: 0.1).map { (from: $0, to: $0 + 0.3) }
        let model = try #require(InertialBaselines(times: times, samples: samples[...], bias: .zero, noise: .zero, rig: Self.rig))
        let directions = times.map { from, to -> Vector3 in
            let (ri, ci) = Self.rig.cameraPose(0, bodyRotation: motion.rotation(from), bodyPosition: motion.position(from))
            let (_, cj) = Self.rig.cameraPose(0, bodyRotation: motion.rotation(to), bodyPosition: motion.position(to))
            return (ri.transpose * (cj - ci)).normalized * (from > 0.3 ? -1 : 1)   // the sign is free
        }
        let solved = try #require(model.motion(lineUpWith: directions))
        let truth = motion.rotation(0).transpose * motion.velocity(0)
        // Gravity is held at its guess: a few cm/s of velocity.
        print("velocity from directions: \((solved.velocity - truth).norm) m/s off, gravity guess \((model.gravityGuess - motion.rotation(0).transpose * VisualInertialAlignmentTests.gravity).norm) m/s² off")
        #expect((solved.velocity - truth).norm < 0.1)
    }

    /// A drone among a hall's far points: 0.3–0.4 m/s past points 8–20 m away, turning slowly with
    /// a changing rate, read 10 ms late with an unstated 20 ms readout and 0.3 px of bearing noise.
    static func farPointsSolve(inertialBaselines: Bool) -> GyroBiasFromImages.TimeShift? {
        var motion = Motion()
        motion.omega = Vector3(0.05, -0.1, 0.08)
        motion.v0 = Vector3(0.3, -0.15, 0.05)
        motion.a0 = Vector3(0.1, 0.05, -0.05)
        motion.amplitude = Vector3(0.01, 0.015, 0.01)
        motion.wobble = Vector3(0.03, -0.02, 0.04)
        let lineDelay = 0.02 / 480
        let (frames, samples) = VisualInertialAlignmentTests.data(motion: motion, duration: 1.0, stereo: false,
                                                                  bearingNoise: 0.3 / 458, lineDelay: lineDelay,
                                                                  depths: 8...20)
        let late = 0.01
        let stamped = frames.map { VisualInertialAlignment.Frame(time: $0.time - late, observations: $0.observations,
                                                                 rowOffsets: $0.rowOffsets) }
        var solver = GyroBiasFromImages(rig: Self.rig)
        solver.inertialBaselines = inertialBaselines
        return solver.solveTimeShift(frames: stamped, samples: samples[...], noise: .zero, bias: .zero, maximumShift: 0.03,
                                     priorSigma: 0.005, lineDelayPriorSigma: 0.02 / 480)
    }

    @Test("among far points the shift and the readout come out right")
    func farPoints() throws {
        let found = try #require(Self.farPointsSolve(inertialBaselines: true))
        let free = Self.farPointsSolve(inertialBaselines: false)
        print(String(format: "far points: shift %.2f ± %.2f ms, readout %.2f ± %.2f ms (10, 20 true); free baselines: %.2f ms, %.2f ms",
                     found.shift * 1e3, found.sigma * 1e3, found.lineDelay * 480e3, found.lineDelaySigma * 480e3,
                     (free?.shift ?? .nan) * 1e3, (free?.lineDelay ?? .nan) * 480e3))
        #expect(abs(found.shift - 0.01) < 1e-3)
        #expect(abs(found.lineDelay * 480 - 0.02) < 3e-3)
    }
}
