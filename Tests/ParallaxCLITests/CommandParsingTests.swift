import ArgumentParser
import Testing
@testable import ParallaxCLI

/// Every command parsed in-process: defaults, the shared option groups, the `evaluate` group and
/// the former command names.
@Suite("parallax command parsing")
struct CommandParsingTests {
    @Test("info: dataset and flags")
    func info() throws {
        let c = try Parsing.command(["info", "ds"], as: InfoCommand.self)
        #expect(c.input.dataset == "ds" && !c.json && !c.lenient && !c.validate)
        #expect(try Parsing.command(["info", "ds", "--json", "--lenient"], as: InfoCommand.self).lenient)
    }

    @Test("replay: defaults, shared groups and AR options")
    func replay() throws {
        let c = try Parsing.command(["replay", "ds"], as: ReplayCommand.self)
        #expect(c.input.dataset == "ds")
        #expect(c.cameras.cameras == nil)
        #expect(c.range.from == nil && c.range.to == nil)
        #expect(c.ar.poses.poseSource.rawValue == "tracking")
        #expect(c.ar.every == 1 && !c.ar.isRequested)
        let d = try Parsing.command(["replay", "ds", "--mono", "--from", "1.5", "--to", "3", "--planes",
                                     "--pose-source", "groundtruth"], as: ReplayCommand.self)
        #expect(d.cameras.cameras == .mono && d.range.from == 1.5 && d.range.to == 3)
        #expect(d.ar.poses.poseSource.rawValue == "groundtruth" && d.ar.isRequested)
    }

    @Test("replay: --mono and --stereo exclude each other")
    func replayCameraConflict() throws {
        let failure = try #require(Parsing.failure(["replay", "ds", "--mono", "--stereo"]))
        #expect(failure.message.contains("--mono") && failure.message.contains("--stereo"), "\(failure.message)")
        #expect(failure.exitCode == Parsing.usageExitCode)
    }

    @Test("replay: a world-map replay writes its trajectory and refuses the outputs it does not write")
    func replayMapRefusesOtherOutputs() throws {
        #expect(try Parsing.command(["replay", "ds", "--save-map", "m.map"], as: ReplayCommand.self).map.isRequested)
        #expect(try Parsing.command(["replay", "ds", "--load-map", "m.map", "--trajectory", "t.txt"], as: ReplayCommand.self).trajectory == "t.txt")
        for extra in [["--export", "f.jsonl"], ["--planes"]] {
            let failure = try #require(Parsing.failure(["replay", "ds", "--load-map", "m.map"] + extra))
            #expect(failure.message.contains(extra[0]) && failure.message.contains("--load-map"), "\(failure.message)")
            #expect(failure.exitCode == Parsing.usageExitCode)
        }
    }

    @Test("hittest: pose source default, points and types")
    func hittest() throws {
        let c = try Parsing.command(["hittest", "ds", "--time", "2", "--point", "0.5,0.5"], as: HitTestCommand.self)
        #expect(c.time == 2 && c.points == ["0.5,0.5"])
        #expect(c.poses.poseSource.rawValue == "tracking")
        #expect(c.types == nil)
        let d = try Parsing.command(["hittest", "ds", "--time", "0", "--point", "0,1", "--point", "1 0",
                                     "--types", "featurePoint,existingPlane", "--source", "groundtruth"],
                                    as: HitTestCommand.self)
        #expect(d.points.count == 2)
        #expect(d.types?.set.rawValue == 0b1001)
        #expect(d.poses.poseSource.rawValue == "groundtruth", "the former spelling --source still works")
    }

    @Test("evaluate: trajectory is the default subcommand")
    func evaluateDefault() throws {
        let c = try Parsing.command(["evaluate", "est.txt", "gt.txt"], as: EvaluateTrajectoryCommand.self)
        #expect(c.estimate == "est.txt" && c.groundTruth == "gt.txt")
        #expect(c.align.rawValue == "posyaw" && c.maxDiff == 0.01 && c.offset == 0 && c.rpeDelta == 1)
        #expect(c.rpeUnit.rawValue == "m" && !c.rpeAllPairs && !c.json && c.plot == nil)
        let d = try Parsing.command(["evaluate", "trajectory", "e", "g", "--align", "sim3", "--offset", "-0.25"],
                                    as: EvaluateTrajectoryCommand.self)
        #expect(d.align.rawValue == "sim3" && d.offset == -0.25)
    }

    @Test("evaluate planes, light and frontend, also under their former names")
    func evaluateGroup() throws {
        let planes = try Parsing.command(["evaluate", "planes", "ds"], as: EvaluatePlanesCommand.self)
        #expect(planes.poses.poseSource.rawValue == "tracking" && planes.to == nil)
        let former = try Parsing.command(["evaluate-planes", "ds", "--until", "4", "--source", "groundtruth"],
                                         as: EvaluatePlanesCommand.self)
        #expect(former.to == 4 && former.poses.poseSource.rawValue == "groundtruth")
        let light = try Parsing.command(["evaluate", "light", "ds", "--max-frames", "10"], as: EvaluateLightCommand.self)
        #expect(light.maxFrames == 10 && !light.json && !light.series)
        #expect(try Parsing.command(["evaluate-light", "ds"], as: EvaluateLightCommand.self).maxFrames == nil)
        let frontend = try Parsing.command(["evaluate", "frontend", "ds"], as: EvaluateFrontEndCommand.self)
        #expect(frontend.window == 11 && frontend.cameras.cameras == nil && frontend.range.from == nil)
        let formerFrontend = try Parsing.command(["evaluate-frontend", "ds", "--stereo", "--to", "1"],
                                                 as: EvaluateFrontEndCommand.self)
        #expect(formerFrontend.cameras.cameras == .stereo && formerFrontend.range.to == 1)
    }

    @Test("simulate: defaults and the motion preset")
    func simulate() throws {
        let c = try Parsing.command(["simulate", "-o", "out"], as: SimulateCommand.self)
        #expect(c.scene == "Scenes/room.json" && c.motion.rawValue == "handheld" && c.duration == 30)
        #expect(c.rateIMU == 200 && c.rateCam == 20 && c.imageNoise == 2 && c.seed == 1 && !c.stereo)
        let d = try Parsing.command(["simulate", "-o", "out", "--motion", "fast-rotation", "--duration", "5"],
                                    as: SimulateCommand.self)
        #expect(d.motion.rawValue == "fast-rotation" && d.duration == 5)
        let bad = try #require(Parsing.failure(["simulate", "-o", "out", "--motion", "cartwheel"]))
        #expect(bad.message.contains("--motion") && bad.message.contains("handheld"), "\(bad.message)")
        // A negative time shift is a value, written either way.
        for args in [["--time-offset-ms", "-30"], ["--time-offset-ms=-30"]] {
            let e = try Parsing.command(["simulate", "-o", "out"] + args, as: SimulateCommand.self)
            #expect(e.sensor.timeOffsetMs == -30)
        }
    }

    @Test("render and view share the image options; --egl-platform is an enum")
    func renderAndView() throws {
        let r = try Parsing.command(["render", "scene.json", "-o", "out.png"], as: RenderCommand.self)
        #expect(r.image.size == "1280x720" && r.image.samples == 4 && r.eglPlatform.choice == .auto && !r.noShadows)
        #expect(try Parsing.command(["render", "s", "-o", "o", "--egl-platform", "surfaceless"], as: RenderCommand.self)
            .eglPlatform.choice == .surfaceless)
        let bad = try #require(Parsing.failure(["render", "s", "-o", "o", "--egl-platform", "wayland"]))
        #expect(bad.message.contains("--egl-platform"), "\(bad.message)")
        let v = try Parsing.command(["view", "scene.json", "--size", "320x200"], as: ViewCommand.self)
        #expect(v.image.size == "320x200" && v.frames == nil && v.screenshot == nil)
    }

    @Test("bench subcommands parse with their defaults")
    func bench() throws {
        let render = try Parsing.command(["bench", "render"], as: BenchRenderCommand.self)
        #expect(render.frames == 10 && render.triangles == 250_000 && render.image.samples == 4)
        let frontend = try Parsing.command(["bench", "frontend", "ds", "--mono"], as: BenchFrontEndCommand.self)
        #expect(frontend.repetitions == 3 && frontend.maxFrames == nil && frontend.cameras.cameras == .mono)
        let tracking = try Parsing.command(["bench", "tracking", "ds", "--from", "1"], as: BenchTrackingCommand.self)
        #expect(tracking.range.from == 1)
        #expect(try Parsing.command(["bench", "simulate"], as: BenchSimulateCommand.self).frames == 40)
        let memory = try Parsing.command(["bench", "replay-memory"], as: BenchReplayCommand.self)
        #expect(memory.shortSeconds == 10 && memory.longSeconds == 600 && memory.replayOnly == nil)
    }

    @Test("help lists the evaluate group and hides internal options")
    func help() {
        let root = Parallax.helpMessage()
        #expect(root.contains("evaluate") && !root.contains("evaluate-planes"))
        let evaluate = Parallax.helpMessage(for: EvaluateCommand.self)
        for name in ["trajectory (default)", "planes", "light", "frontend"] {
            #expect(evaluate.contains(name), "\(evaluate)")
        }
        #expect(!Parallax.helpMessage(for: BenchReplayCommand.self).contains("replay-only"))
        #expect(Parallax.helpMessage(for: HitTestCommand.self).contains("--pose-source"))
    }
}
