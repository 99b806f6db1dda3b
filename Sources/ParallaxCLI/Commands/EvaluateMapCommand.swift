import ArgumentParser
import Foundation
import ParallaxDatasets
import ParallaxEvaluation
import ParallaxMapping
import ParallaxMath
import ParallaxTracking

/// `parallax evaluate map DATASET`: the world-map figures on one dataset — accuracy of the mapped
/// trajectory, recovery after a simulated blackout, tracking and mapping cost, peak memory.
struct EvaluateMapCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "map",
        abstract: "Measure relocalization and mapping (blackout recovery, jump, costs) on a dataset with ground truth.",
        discussion: """
            Runs the tracker and the world mapper over DATASET. With --blackout T the camera images \
            are black from T to T + --blackout-duration seconds (after the first frame); the report \
            says how long after the images return the session is back (normal and placed in the \
            map) and how far the position jumped against the ground truth, with the trajectory \
            aligned (posyaw) on the frames before the blackout.
            """)

    @OptionGroup var input: DatasetArgument
    @OptionGroup var cameras: CameraOptions
    @OptionGroup var range: TimeRangeOptions

    @Option(parsing: .unconditional, help: "Start of a camera blackout, seconds after the first frame.")
    var blackout: Double?

    @Option(parsing: .unconditional, help: "Length of the blackout in seconds (0.1…60).")
    var blackoutDuration: Double = 3

    @Flag(help: "Print the state of every frame around the blackout, every loop, the pose graph's edges against the truth, and the tracker's tilt and accelerometer bias against the truth (tilt NEES).")
    var verbose = false

    @OptionGroup var loops: LoopOptions

    func validate() throws {
        if let blackout { try NumberChecks.nonNegative(blackout, "--blackout", atMost: NumberChecks.maxSeconds, unit: "s") }
        try NumberChecks.positive(blackoutDuration, "--blackout-duration", atMost: 60, unit: "s")
    }

    func run() throws {
        let data = try input.open(policy: .lenient)
        let mode = try cameras.mode(for: data, named: input.dataset)
        var settings = WorldMapperConfiguration()
        loops.apply(to: &settings.loopClosure)
        settings.loopClosure.trackerMode = mode
        let mapper = WorldMapper(camera: try data.cameras[0].makeCameraModel(), configuration: settings)
        let window = blackout.map { $0...($0 + blackoutDuration) }
        let samples = try MappedReplay(dataset: data, mode: mode, blackout: window).run(mapper: mapper, from: range.from, to: range.to)
        let report = MapReport(samples: samples, mapper: mapper, blackout: window)
        print("mode \(mode.rawValue), \(samples.count) frames")
        print(try report.text(verbose: verbose))
    }
}

/// The figures of one mapped run.
struct MapReport {
    let samples: [MappedReplay.Sample]
    let mapper: WorldMapper
    let blackout: ClosedRange<Double>?

    func text(verbose: Bool) throws -> String {
        var lines: [String] = []
        var deviation: (MappedReplay.Sample) -> Double? = { _ in nil }
        let start = blackout?.lowerBound ?? .infinity
        let before = samples.filter { $0.time < start && $0.state == .normal && $0.position_world != nil && $0.truth_world != nil }
        if before.count >= 3 {
            let alignment = try TrajectoryAlignment.estimate(.posyaw, estimate: before.compactMap(\.position_world),
                                                             reference: before.compactMap(\.truth_world))
            let errors = before.compactMap { s in s.position_world.flatMap { p in s.truth_world.map { (alignment.apply(p) - $0).norm } } }
            let rmse = (errors.map { $0 * $0 }.reduce(0, +) / Double(errors.count)).squareRoot()
            lines.append(String(format: "ATE posyaw before the blackout (or whole run): %.4f m over %d frames", rmse, errors.count))
            if let blackout, let last = before.last, let p0 = last.position_world, let t0 = last.truth_world {
                let e0 = alignment.apply(p0) - t0
                deviation = { s in s.position_world.flatMap { p in s.truth_world.map { (alignment.apply(p) - $0 - e0).norm } } }
                if let back = samples.first(where: { $0.time > blackout.upperBound && $0.state == .normal && $0.output.isAligned }),
                   let p = back.position_world, let t = back.truth_world {
                    let jump = (alignment.apply(p) - t - e0).norm
                    let later = samples.filter { $0.time > back.time && $0.state == .normal }
                    let worst = later.compactMap { s in s.position_world.flatMap { p in s.truth_world.map { (alignment.apply(p) - $0 - e0).norm } } }.max() ?? 0
                    lines.append(String(format: "blackout %.1f–%.1f s: back %.2f s after images return, jump %.3f m, worst later drift from pre-blackout error %.3f m",
                                        blackout.lowerBound, blackout.upperBound, back.time - blackout.upperBound, jump, worst))
                } else {
                    lines.append("blackout: never back (normal and placed in the map) after the images returned")
                }
            }
        }
        let tracking = samples.map(\.trackingMilliseconds)
        let mapping = samples.map(\.output.milliseconds)
        func mean(_ v: [Double]) -> Double { v.isEmpty ? 0 : v.reduce(0, +) / Double(v.count) }
        lines.append(String(format: "tracking %.2f ms/frame; mapping %.2f ms/frame on average, %.1f ms per keyframe (%d), %.1f ms per relocalization attempt (%d)",
                            mean(tracking), mean(mapping), mean(mapper.keyframeMilliseconds), mapper.keyframeMilliseconds.count,
                            mean(mapper.relocalizationMilliseconds), mapper.relocalizationMilliseconds.count))
        if let a = try LoopClosureAccuracy(samples: samples, mapper: mapper) {
            func cm(_ x: Double?) -> String { x.map { String(format: "%.1f cm", $0 * 100) } ?? "n/a (several odometry segments)" }
            lines.append("ATE posyaw, \(a.frames) frames: odometry only \(cm(a.odometry)), live mapped estimate \(cm(a.live))")
            var ratio = ""
            if let made = a.keyframesOdometry, let optimized = a.keyframesOptimized, made > 0 {
                ratio = String(format: " (%.2f×: %.1f → %.1f mm)", optimized / made, made * 1000, optimized * 1000)
            }
            lines.append("ATE posyaw, \(a.keyframes) keyframes: odometry only \(cm(a.keyframesOdometry)), after the pose graph \(cm(a.keyframesOptimized))" + ratio)
        }
        let resets = zip(samples, samples.dropFirst()).filter { $0.0.odometry_world != nil && $0.1.odometry_world == nil }
        if !resets.isEmpty {
            lines.append("tracker resets (new odometry segments) at " + resets.map { String(format: "%.1f s", $0.1.time) }.joined(separator: ", "))
        }
        let graph = mapper.loopClosures.map(\.optimizationMilliseconds)
        let waited = mapper.loopClosures.map(\.waitMilliseconds).reduce(0, +) + mapper.loopWaitMilliseconds
        let where_ = mapper.configuration.loopClosure.optimizationLatency > 0 ? "mapping thread" : "tracking thread"
        lines.append(String(format: "loops: %d optimised (%d more deferred, %d already consistent; %d confirmed by a second detection), %d refused; %.1f ms per detection attempt (%d) and pose graph %.1f ms per closure (max %.1f) on the %@, tracking waited %.1f ms in all for it",
                            mapper.loopClosures.count, mapper.deferredLoops, mapper.consistentLoops, mapper.confirmedLoops, mapper.rejectedLoops.count, mean(mapper.loopMilliseconds),
                            mapper.loopMilliseconds.count, mean(graph), graph.max() ?? 0, where_, waited))
        if verbose {
            for e in mapper.loopClosures {
                lines.append(String(format: "  loop %.2f s (applied %.2f s): keyframe %d ↔ %d, %d inliers, live correction %.3f m %.2f°; %d steps, cost %.1f → %.1f",
                                    e.detectedAt - (mapper.database.keyframes.first?.timestamp ?? 0),
                                    e.timestamp - (mapper.database.keyframes.first?.timestamp ?? 0), e.oldKeyframeID, e.currentKeyframeID,
                                    e.inliers, e.liveCorrection.translation.norm, e.liveCorrection.rotation.angle * 180 / .pi,
                                    e.iterations, e.costBefore, e.costAfter))
            }
            for reason in mapper.rejectedLoops { lines.append("  refused: \(reason)") }
            lines.append(contentsOf: edgeErrorLines())
        }
        if let last = samples.last?.time, last >= 120 {  // map growth: does a revisit add keyframes?
            let perMinute = (0...Int(last / 60)).map { m in samples.filter { $0.output.addedKeyframe && Int($0.time / 60) == m }.count }
            lines.append("keyframes added per minute: " + perMinute.map(String.init).joined(separator: " "))
        }
        lines.append("map: \(mapper.database.keyframes.count) keyframes, \(mapper.database.pointCount) points; \(mapper.relocalizationCount) relocalizations")
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        lines.append("peak memory \(usage.ru_maxrss / 1024) MiB")
        if verbose, let blackout {
            for s in samples where s.time > blackout.lowerBound - 1.5 && s.time < blackout.upperBound + 3 {
                let sigma = s.positionSigma.map { String(format: "σ %.3f m", $0) } ?? "σ -"
                let moved = deviation(s).map { String(format: "off %.3f m", $0) } ?? "off -"
                lines.append(String(format: "  %.2f %@ %@ %@ aligned %@ reloc %@ %@", s.time, s.state.description, sigma, moved,
                                    s.output.isAligned ? "y" : "n", s.output.relocalized ? "y" : "n", s.output.attempt?.description ?? ""))
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Median and 90th percentile of the graph's edge errors against the truth (verbose only).
    private func edgeErrorLines() -> [String] {
        let e = PoseGraphEdgeErrors(samples: samples, mapper: mapper)
        let q = SampleStatistics.quantile
        var lines: [String] = []
        if !e.loops.isEmpty {
            lines.append(String(format: "  loop edges vs truth (%d): position %.1f/%.1f mm, yaw %.2f/%.2f°, whitened %.2f/%.2f (χ₄: 1.83/2.79) (median/p90)",
                                e.loops.count, q(e.loops.map(\.position), 0.5) * 1000, q(e.loops.map(\.position), 0.9) * 1000,
                                q(e.loops.map(\.yaw), 0.5) * 180 / .pi, q(e.loops.map(\.yaw), 0.9) * 180 / .pi,
                                q(e.loops.map(\.whitened), 0.5), q(e.loops.map(\.whitened), 0.9)))
            lines.append(String(format: "  loop edges along the optical axis: mean %.1f mm, |.| %.1f/%.1f mm; across %.1f/%.1f mm; vertical mean %.1f, |.| %.1f/%.1f mm",
                                e.loops.map(\.alongAxis).reduce(0, +) / Double(e.loops.count) * 1000,
                                q(e.loops.map { abs($0.alongAxis) }, 0.5) * 1000, q(e.loops.map { abs($0.alongAxis) }, 0.9) * 1000,
                                q(e.loops.map(\.acrossAxis), 0.5) * 1000, q(e.loops.map(\.acrossAxis), 0.9) * 1000,
                                e.loops.map(\.vertical).reduce(0, +) / Double(e.loops.count) * 1000,
                                q(e.loops.map { abs($0.vertical) }, 0.5) * 1000, q(e.loops.map { abs($0.vertical) }, 0.9) * 1000))
        }
        if !e.tilt.isEmpty {
            lines.append(String(format: "  odometry tilt error at keyframes: %.2f/%.2f°, max %.2f°", q(e.tilt, 0.5) * 180 / .pi,
                                q(e.tilt, 0.9) * 180 / .pi, (e.tilt.max() ?? 0) * 180 / .pi))
        }
        // The settled-keyframe rule against the truth: the keyframes it holds unsettled at the end
        // should be those whose tilt is really off (docs/world-maps.md).
        let unsettled = Set(mapper.database.keyframes.filter { !mapper.isSettled($0) }.map(\.id))
        if !e.tiltByKeyframe.isEmpty {
            let off = unsettled.compactMap { e.tiltByKeyframe[$0] }
            let on = e.tiltByKeyframe.filter { !unsettled.contains($0.key) }.map(\.value)
            let degrees = 180 / Double.pi
            lines.append(String(format: "  keyframes unsettled at the end: %d of %d; their tilt error median %.2f°, the settled ones' %.2f°",
                                unsettled.count, mapper.database.keyframes.count,
                                off.isEmpty ? .nan : q(off, 0.5) * degrees, on.isEmpty ? .nan : q(on, 0.5) * degrees))
        }
        // The filter's accelerometer bias against the truth: a horizontal bias error reads as a
        // tilt error of about error / g, which a gravity-aligned loop PnP turns into tilt × depth.
        let bias = samples.compactMap { s in s.accelerometerBias.flatMap { b in s.truthAccelerometerBias.map { (s.time, b - $0) } } }
        if !bias.isEmpty {
            let byFive = Self.everyFiveSeconds(bias) { $0.0 }
            lines.append(String(format: "  accelerometer bias error (estimate − truth, IMU axes): |e| %.3f/%.3f m/s² (median/p90); every 5 s: ",
                                q(bias.map(\.1.norm), 0.5), q(bias.map(\.1.norm), 0.9))
                         + byFive.map { String(format: "%.0f s (%+.3f %+.3f %+.3f)", $0.0, $0.1.x, $0.1.y, $0.1.z) }.joined(separator: ", "))
        }
        // The filter's tilt against the truth, normalised by its own covariance (NEES, χ²₂): an
        // overconfident tilt is one the visual updates can pull away without the IMU pushing back.
        let tilt = TiltConsistency(samples: samples)
        if let median = tilt.medianNEES, let over = tilt.fractionOver95 {
            let byFive = Self.everyFiveSeconds(tilt.samples) { $0.time }
            let head = String(format: "  tilt NEES (χ²₂: median 1.39, 95 %% under 5.99): median %.2f, %.0f %% over 5.99; every 5 s (error/σ °): ",
                              median, 100 * over)
            let degrees: Double = 180 / .pi
            let steps: [String] = byFive.map { String(format: "%.0f s %.2f/%.2f", $0.time, $0.error * degrees, $0.sigma * degrees) }
            lines.append(head + steps.joined(separator: ", "))
        }
        if !e.odometry.isEmpty {
            let length = e.odometry.map(\.length)
            lines.append(String(format: "  odometry edges vs truth (%d, length %.0f/%.0f mm): position %.2f/%.2f mm, yaw %.3f/%.3f° (median/p90)",
                                e.odometry.count, q(length, 0.5) * 1000, q(length, 0.9) * 1000,
                                q(e.odometry.map(\.error), 0.5) * 1000, q(e.odometry.map(\.error), 0.9) * 1000,
                                q(e.odometry.map(\.yawError), 0.5) * 180 / .pi, q(e.odometry.map(\.yawError), 0.9) * 180 / .pi))
        }
        return lines
    }

    /// The first of `items` (in time order) at or after 0, 5, 10 … s: a short time line for a report.
    static func everyFiveSeconds<T>(_ items: [T], time: (T) -> Double) -> [T] {
        guard let last = items.last.map(time) else { return [] }
        return stride(from: 0.0, through: last, by: 5).compactMap { t in items.first { time($0) >= t } }
    }
}
