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

    func validate() throws {
        try NumberChecks.nonNegative(loopLatency, "--loop-latency", atMost: 10, unit: "s")
        try NumberChecks.nonNegative(loopInterval, "--loop-interval", atMost: 60, unit: "s")
    }

    /// Writes the switches into `settings`.
    func apply(to settings: inout LoopClosureConfiguration) {
        settings.enabled = !noLoopClosure
        settings.optimizationLatency = loopLatency
        if loopLatency == 0 { settings.detectionLatency = 0 }  // all mapping on the tracking thread
        settings.minimumOptimizationInterval = loopInterval
    }
}
