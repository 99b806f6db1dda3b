import ArgumentParser
import ParallaxMapping

/// The loop-closing switches shared by the mapping evaluations (`evaluate map`, `evaluate second-session`).
struct LoopOptions: ParsableArguments {
    @Flag(help: "Turn loop closing off (relocalization only).")
    var noLoopClosure = false

    @Option(parsing: .unconditional,
            help: "Data seconds from a loop's detection to the frame its pose-graph correction is applied, optimised on the mapping thread meanwhile (0…10; 0: detection and optimisation on the tracking thread at once).")
    var loopLatency: Double = LoopClosureConfiguration().optimizationLatency

    @Option(parsing: .unconditional,
            help: "Shortest data time in seconds between two pose-graph optimisations; loops found sooner wait, their edges kept (0…60).")
    var loopInterval: Double = LoopClosureConfiguration().minimumOptimizationInterval

    @Option(parsing: .unconditional,
            help: "Prior σ in degrees on the camera's tilt when a loop's PnP is refined with roll and pitch free (0…5; 0: the tracker's tilt is held, the default). Helps where the tracker's tilt wanders and the points are near (hand-held rooms); see docs/world-maps.md.")
    var loopTiltSigma: Double = 0

    func validate() throws {
        try NumberChecks.nonNegative(loopTiltSigma, "--loop-tilt-sigma", atMost: 5, unit: "°")
        try NumberChecks.nonNegative(loopLatency, "--loop-latency", atMost: 10, unit: "s")
        try NumberChecks.nonNegative(loopInterval, "--loop-interval", atMost: 60, unit: "s")
    }

    /// Writes the switches into `settings`.
    func apply(to settings: inout LoopClosureConfiguration) {
        settings.enabled = !noLoopClosure
        settings.optimizationLatency = loopLatency
        if loopLatency == 0 { settings.detectionLatency = 0 }  // all mapping on the tracking thread
        settings.minimumOptimizationInterval = loopInterval
        settings.tiltSigma = loopTiltSigma > 0 ? loopTiltSigma * .pi / 180 : nil
    }
}
