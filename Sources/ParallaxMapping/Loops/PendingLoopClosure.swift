import Dispatch
import Foundation

/// A pose-graph optimisation running off the tracking thread (VINS-Mono runs its pose graph in a
/// thread of its own for the same reason: a loop over hundreds of keyframes costs tenths of a
/// second, several frame periods).
///
/// The graph is built on the tracking thread (a copy of the keyframes' 4-DoF poses and the edges,
/// cheap) and optimised on a background queue. Its result is handed back at a fixed data time,
/// ``applyAt`` (the detecting frame's time plus ``LoopClosureConfiguration/optimizationLatency``),
/// not whenever the thread happens to finish: replay stays deterministic, frame for frame, on any
/// machine. If the optimisation is still running at that frame, tracking waits for it, and the wait
/// is reported (``LoopClosureEvent/waitMilliseconds``); at camera rate on two cores it finishes
/// well before.
final class PendingLoopClosure: @unchecked Sendable {
    /// What the optimisation gives back.
    struct Result {
        /// Optimised 4-DoF camera poses by keyframe id.
        var poses: [Int: YawPose]
        /// Gauss–Newton steps, and the cost before and after.
        var iterations: Int, costBefore: Double, costAfter: Double
        /// CPU milliseconds the background thread spent.
        var milliseconds: Double
    }

    /// Frame time (s) of the detection.
    let detectedAt: Double
    /// Frame time (s) from which the result is applied.
    let applyAt: Double
    /// The revisited keyframe and the latest keyframe of the current segment (the loop edge's ends).
    let oldKeyframeID: Int, latestKeyframeID: Int
    /// PnP inliers of the loop.
    let inliers: Int

    private let finished = DispatchSemaphore(value: 0)
    private var result: Result?
    private static let queue = DispatchQueue(label: "parallax.pose-graph", qos: .utility)

    /// Starts optimising `graph` (nodes in the order of `ids`) in the background.
    init(graph: PoseGraph, ids: [Int], iterations: Int, detectedAt: Double, applyAt: Double,
         oldKeyframeID: Int, latestKeyframeID: Int, inliers: Int) {
        self.detectedAt = detectedAt
        self.applyAt = applyAt
        self.oldKeyframeID = oldKeyframeID
        self.latestKeyframeID = latestKeyframeID
        self.inliers = inliers
        Self.queue.async { [self] in
            let t0 = threadMilliseconds()
            var g = graph
            let before = g.cost()
            let steps = g.optimize(iterations: iterations)
            var poses: [Int: YawPose] = [:]
            for (n, id) in ids.enumerated() { poses[id] = g.nodes[n] }
            result = Result(poses: poses, iterations: steps, costBefore: before, costAfter: g.cost(),
                            milliseconds: threadMilliseconds() - t0)
            finished.signal()
        }
    }

    /// Blocks until the optimisation is done; its result and the wall-clock milliseconds waited.
    func wait() -> (result: Result, waitedMilliseconds: Double) {
        let t0 = DispatchTime.now().uptimeNanoseconds
        finished.wait()
        finished.signal()  // a second wait returns at once
        let waited = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6
        // The semaphore orders the background write before this read.
        guard let result else { return (Result(poses: [:], iterations: 0, costBefore: 0, costAfter: 0, milliseconds: 0), waited) }
        return (result, waited)
    }
}
