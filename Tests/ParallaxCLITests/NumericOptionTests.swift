import Testing
@testable import ParallaxCLI

/// Numbers from users are checked before any work starts: NaN and infinities (which once crashed
/// converting seconds to nanoseconds), negative values (which argument-parser used to read as flags)
/// and sizes beyond the documented limits all stop with a message naming the option and exit code 64.
@Suite("parallax numeric options")
struct NumericOptionTests {
    /// A rejected command line, an expected fragment of its message.
    struct Rejection: Sendable, CustomStringConvertible {
        var arguments: [String]
        var expected: String
        var description: String { arguments.joined(separator: " ") }
    }

    static let rejections: [Rejection] = [
        // Time windows and instants.
        Rejection(arguments: ["replay", "ds", "--from", "nan"], expected: "--from must be a finite number, got nan"),
        Rejection(arguments: ["replay", "ds", "--to", "inf"], expected: "--to must be a finite number, got inf"),
        Rejection(arguments: ["replay", "ds", "--from", "-1"], expected: "--from must be ≥ 0, got -1"),
        Rejection(arguments: ["replay", "ds", "--from", "3", "--to", "2"], expected: "--to must be after --from"),
        Rejection(arguments: ["replay", "ds", "--to", "1e300"], expected: "--to must be at most 1000000 s"),
        Rejection(arguments: ["replay", "ds", "--every", "0", "--render", "out"], expected: "--every must be at least 1, got 0"),
        Rejection(arguments: ["evaluate", "frontend", "ds", "--window", "1"], expected: "--window must be between 2 and 1000, got 1"),
        Rejection(arguments: ["evaluate-frontend", "ds", "--from", "-inf"], expected: "--from must be a finite number, got -inf"),
        Rejection(arguments: ["bench", "tracking", "ds", "--to", "-2"], expected: "--to must be positive, got -2"),
        Rejection(arguments: ["hittest", "ds", "--time", "nan", "--point", "0.5,0.5"], expected: "--time must be a finite number, got nan"),
        Rejection(arguments: ["hittest", "ds", "--time", "inf", "--point", "0.5,0.5"], expected: "--time must be a finite number, got inf"),
        Rejection(arguments: ["hittest", "ds", "--time", "-1", "--point", "0.5,0.5"], expected: "--time must be ≥ 0, got -1"),
        Rejection(arguments: ["evaluate-planes", "ds", "--until", "nan"], expected: "--to must be a finite number, got nan"),
        Rejection(arguments: ["evaluate", "planes", "ds", "--to", "-3"], expected: "--to must be positive, got -3"),
        // Hit-test points and types.
        Rejection(arguments: ["hittest", "ds", "--time", "1", "--point", "1.5,0.5"], expected: "--point: x and y must be in [0, 1]"),
        Rejection(arguments: ["hittest", "ds", "--time", "1", "--point", "1e300,1e300"], expected: "--point: x and y must be in [0, 1]"),
        Rejection(arguments: ["hittest", "ds", "--time", "1", "--point", "-0.2,0.5"], expected: "--point: x and y must be in [0, 1] (normalised image coordinates), got '-0.2,0.5'"),
        Rejection(arguments: ["hittest", "ds", "--time", "1", "--point", "nan,0.5"], expected: "--point: x and y must be in [0, 1]"),
        Rejection(arguments: ["hittest", "ds", "--time", "1", "--point", "0.5"], expected: "--point: expected a point 'x,y'"),
        Rejection(arguments: ["hittest", "ds", "--time", "1"], expected: "give at least one --point or a --points-file"),
        Rejection(arguments: ["hittest", "ds", "--time", "1", "--point", "0.5,0.5", "--types", ""], expected: "--types"),
        Rejection(arguments: ["hittest", "ds", "--time", "1", "--point", "0.5,0.5", "--types", "featurePoint,wall"], expected: "--types"),
        // Simulation sizes.
        Rejection(arguments: ["simulate", "-o", "x", "--duration", "inf"], expected: "--duration must be a finite number, got inf"),
        Rejection(arguments: ["simulate", "-o", "x", "--duration", "-5"], expected: "--duration must be positive, got -5"),
        Rejection(arguments: ["simulate", "-o", "x", "--duration", "1e7"], expected: "--duration must be at most 3600 s, got 10000000"),
        Rejection(arguments: ["simulate", "-o", "x", "--image-noise", "nan"], expected: "--image-noise must be a finite number, got nan"),
        Rejection(arguments: ["simulate", "-o", "x", "--image-noise", "-1"], expected: "--image-noise must be ≥ 0, got -1"),
        Rejection(arguments: ["simulate", "-o", "x", "--rate-imu", "1e9"], expected: "--rate-imu must be at most 10000 Hz, got 1000000000"),
        Rejection(arguments: ["simulate", "-o", "x", "--rate-cam", "2000", "--rate-imu", "4000"], expected: "--rate-cam must be at most 1000 Hz, got 2000"),
        Rejection(arguments: ["simulate", "-o", "x", "--rate-cam", "300"], expected: "--rate-cam (300 Hz) must not exceed --rate-imu (200 Hz)"),
        Rejection(arguments: ["simulate", "-o", "x", "--static-start", "40"], expected: "--static-start must be at most 30 s, got 40"),
        Rejection(arguments: ["simulate", "-o", "x", "--static-start", "30"], expected: "--static-start must be shorter than --duration"),
        // Trajectory evaluation.
        Rejection(arguments: ["evaluate", "e", "g", "--max-diff", "-0.1"], expected: "--max-diff must be ≥ 0, got -0.1"),
        Rejection(arguments: ["evaluate", "e", "g", "--rpe-delta", "0"], expected: "--rpe-delta must be positive, got 0"),
        Rejection(arguments: ["evaluate", "e", "g", "--offset", "nan"], expected: "--offset must be a finite number, got nan"),
        // Images and benchmarks.
        Rejection(arguments: ["render", "s", "-o", "o", "--size", "-5x10"], expected: "--size: "),
        Rejection(arguments: ["render", "s", "-o", "o", "--size", "100000x100000"], expected: "--size: "),
        Rejection(arguments: ["render", "s", "-o", "o", "--samples", "0"], expected: "--samples must be between 1 and 64, got 0"),
        Rejection(arguments: ["view", "s", "--frames", "-3"], expected: "--frames must be at least 1, got -3"),
        Rejection(arguments: ["view", "s", "--screenshot", "x.png"], expected: "--screenshot needs --frames N"),
        Rejection(arguments: ["evaluate", "light", "ds", "--max-frames", "0"], expected: "--max-frames must be at least 1, got 0"),
        Rejection(arguments: ["evaluate", "second-session", "a", "b", "--duration", "0"], expected: "--duration must be positive, got 0"),
        Rejection(arguments: ["evaluate", "second-session", "a", "b", "--start", "nan"], expected: "--start must be a finite number, got nan"),
        Rejection(arguments: ["evaluate", "second-session", "a", "b", "--map-from", "5", "--map-to", "2"], expected: "--map-to must be after --map-from"),
        Rejection(arguments: ["evaluate", "map", "ds", "--loop-tilt-sigma", "-0.5"], expected: "--loop-tilt-sigma must be ≥ 0, got -0.5"),
        Rejection(arguments: ["bench", "render", "--triangles", "-1"], expected: "--triangles must be between 8 and 20000000, got -1"),
        Rejection(arguments: ["bench", "frontend", "ds", "--repetitions", "0"], expected: "--repetitions must be between 1 and 1000, got 0"),
        Rejection(arguments: ["bench", "simulate", "--frames", "0"], expected: "--frames must be between 1 and 100000, got 0"),
        Rejection(arguments: ["bench", "replay-memory", "--long-seconds", "inf"], expected: "--long-seconds must be a finite number, got inf"),
    ]

    @Test("rejected with a message naming the option", arguments: rejections)
    func rejected(_ rejection: Rejection) throws {
        let failure = try #require(Parsing.failure(rejection.arguments), "accepted: \(rejection)")
        #expect(failure.message.contains(rejection.expected), "\(failure.message)")
        #expect(failure.message.hasPrefix("Error: "))
        #expect(failure.exitCode == Parsing.usageExitCode)
    }

    @Test("negative values are read as values where they make sense")
    func negativeValuesAccepted() throws {
        let evaluate = try Parsing.command(["evaluate", "e", "g", "--offset", "-1.5"], as: EvaluateTrajectoryCommand.self)
        #expect(evaluate.offset == -1.5)
        #expect(try Parsing.command(["simulate", "-o", "x", "--static-start", "0"], as: SimulateCommand.self).staticStart == 0)
    }

    @Test("limits are accepted up to the documented bounds")
    func boundsInclusive() throws {
        let c = try Parsing.command(["simulate", "-o", "x", "--duration", "3600", "--rate-imu", "10000", "--rate-cam", "1000",
                                     "--image-noise", "255"], as: SimulateCommand.self)
        #expect(c.duration == 3600 && c.rateIMU == 10_000 && c.rateCam == 1000)
        #expect(try Parsing.command(["hittest", "ds", "--time", "0", "--point", "1,1"], as: HitTestCommand.self).time == 0)
    }

    @Test("numbers are echoed as typed")
    func numberText() {
        #expect(NumberChecks.text(-5) == "-5")
        #expect(NumberChecks.text(0.25) == "0.25")
        #expect(NumberChecks.text(.nan) == "nan" && NumberChecks.text(-.infinity) == "-inf")
        #expect(NumberChecks.text(1e300) == "1e+300")
    }
}
