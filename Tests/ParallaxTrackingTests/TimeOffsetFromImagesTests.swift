import Foundation
import ParallaxMath
import Testing
@testable import ParallaxTracking

/// The start window's camera–IMU time offset from bearings and the gyro
/// (``GyroBiasFromImages/solveTimeShift(frames:samples:noise:bias:maximumShift:priorSigma:)``), on
/// the alignment tests' synthetic motion with a back-and-forth turn added, a turn-on gyro bias, and
/// frames stamped 4 ms late on the IMU clock (a stated `timeshift_cam_imu` 4 ms too large).
@Suite("Time offset from the start window's images")
struct TimeOffsetFromImagesTests {
    typealias Motion = VisualInertialAlignmentTests.Motion
    static let bias = GyroBiasFromImagesTests.bias

    static func solve(_ motion: Motion, late: Double, bearingNoise: Double = 0) -> GyroBiasFromImages.TimeShift? {
        let (frames, samples) = VisualInertialAlignmentTests.data(motion: motion, duration: 1.0, stereo: false,
                                                                  bearingNoise: bearingNoise)
        let stamped = frames.map { VisualInertialAlignment.Frame(time: $0.time + late, observations: $0.observations) }
        let biased = samples.map { IMUMeasurement(timestamp: $0.timestamp, gyro: $0.gyro + bias, accel: $0.accel) }
        return GyroBiasFromImages(rig: VisualInertialAlignmentTests.rig)
            .solveTimeShift(frames: stamped, samples: biased[...], noise: .zero, bias: .zero, maximumShift: 0.005, priorSigma: 0.005)
    }

    /// The same with a rolling-shutter cam0 (`lineDelay` s per row, 0: a global shutter whose rows
    /// are kept) and the line delay solved as well under a 20 ms prior.
    static func solveWithReadout(lineDelay: Double, late: Double, bearingNoise: Double = 0,
                                 motion: Motion = turning) -> GyroBiasFromImages.TimeShift? {
        let (frames, samples) = VisualInertialAlignmentTests.data(motion: motion, duration: 1.0, stereo: false,
                                                                  bearingNoise: bearingNoise, lineDelay: lineDelay)
        let stamped = frames.map { VisualInertialAlignment.Frame(time: $0.time + late, observations: $0.observations,
                                                                 rowOffsets: $0.rowOffsets) }
        let biased = samples.map { IMUMeasurement(timestamp: $0.timestamp, gyro: $0.gyro + bias, accel: $0.accel) }
        return GyroBiasFromImages(rig: VisualInertialAlignmentTests.rig)
            .solveTimeShift(frames: stamped, samples: biased[...], noise: .zero, bias: .zero, maximumShift: 0.03,
                            priorSigma: 0.005, lineDelayPriorSigma: 0.02 / 480)
    }

    static var turning: Motion {
        var m = Motion()
        m.wobble = Vector3(0.15, -0.1, 0.2)   // up to 1.6 rad/s of changing turn rate, a hand's turn
        return m
    }

    @Test("recovers the offset and the bias while the turn rate changes")
    func changingTurn() throws {
        let found = try #require(Self.solve(Self.turning, late: 0.004))
        print("time offset from images: shift \(found.shift * 1e3) ms (−4 true), σ \(found.sigma * 1e3) ms, bias error \((found.bias - Self.bias).norm * 1e3) mrad/s")
        #expect(abs(found.shift + 0.004) < 1e-4)
        #expect((found.bias - Self.bias).norm < 1e-3)
    }

    @Test("frames on time give no shift")
    func onTime() throws {
        let found = try #require(Self.solve(Self.turning, late: 0))
        #expect(abs(found.shift) < 1e-4)
    }

    @Test("bearing noise: the shift stays within its σ bound")
    func noisy() throws {
        let found = try #require(Self.solve(Self.turning, late: 0.004, bearingNoise: 0.5 / 458))
        print("time offset from images, 0.5 px noise: shift \(found.shift * 1e3) ms, σ \(found.sigma * 1e3) ms")
        #expect(abs(found.shift + 0.004) < 5e-4)
    }

    /// A 20 ms readout the calibration does not state, read 4 ms late, while the camera only turns,
    /// without bearing noise: the rows' turn is solved with the offset and the bias. What is left is
    /// the model's: each row is turned back at the frame's rate, and this wobble changes the rate by
    /// up to 18 rad/s² (0.9 mrad over the 10 ms to the top and bottom rows): 19.4 ms.
    @Test("solves an unknown rolling-shutter readout with the offset")
    func readout() throws {
        var turningOnly = Self.turning
        turningOnly.v0 = .zero
        turningOnly.a0 = .zero
        turningOnly.amplitude = .zero
        let found = try #require(Self.solveWithReadout(lineDelay: 0.02 / 480, late: 0.004, motion: turningOnly))
        let readout = found.lineDelay * 480
        print("readout from images, turning only: \(readout * 1e3) ms (20 true), σ \(found.lineDelaySigma * 480e3) ms; shift \(found.shift * 1e3) ms (−4 true)")
        #expect(abs(readout - 0.02) < 8e-4)
        #expect(abs(found.shift + 0.004) < 2e-4)
        #expect(found.lineDelay > 15 * found.lineDelaySigma)   // what the start asks before it acts
    }

    /// Moving at 0.6 m/s with 0.5 px of bearing noise: each row also sees the camera displaced by its
    /// delay, which coplanarity cannot undo without depth (up to 6 mm over 10 ms, about a pixel at
    /// 2–6 m). 18.4 ms here, against a σ of 0.13 ms: the spread the start's 15 σ allows for, and well
    /// inside what the filter's readout state then corrects.
    @Test("a moving camera's unknown readout, with bearing noise")
    func readoutWhileMoving() throws {
        let found = try #require(Self.solveWithReadout(lineDelay: 0.02 / 480, late: 0.004, bearingNoise: 0.5 / 458))
        let readout = found.lineDelay * 480
        print("readout from images, moving: \(readout * 1e3) ms (20 true), σ \(found.lineDelaySigma * 480e3) ms; shift \(found.shift * 1e3) ms (−4 true)")
        #expect(abs(readout - 0.02) < 2.5e-3)
        #expect(abs(found.shift + 0.004) < 5e-4)
        #expect(found.lineDelay > 15 * found.lineDelaySigma)
    }

    @Test("a global shutter gives no readout")
    func globalShutter() throws {
        let found = try #require(Self.solveWithReadout(lineDelay: 0, late: 0.004, bearingNoise: 0.5 / 458))
        print("readout from images, global shutter: \(found.lineDelay * 480e3) ms, σ \(found.lineDelaySigma * 480e3) ms")
        #expect(abs(found.lineDelay * 480) < 1e-3)
        #expect(abs(found.shift + 0.004) < 5e-4)
    }

    /// A steady turn commutes with a shift of the frame times: the images cannot tell the offset,
    /// and the answer stays at the prior's zero with the prior's σ.
    @Test("a steady turn does not move the offset")
    func steadyTurn() throws {
        let found = try #require(Self.solve(Motion(), late: 0.004))
        print("time offset from images, steady turn: shift \(found.shift * 1e3) ms, σ \(found.sigma * 1e3) ms")
        #expect(abs(found.shift) < 1e-4)
        #expect(found.sigma > 0.004)   // the 5 ms prior's, so the start never acts on it
    }
}
