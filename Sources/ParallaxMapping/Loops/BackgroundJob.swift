import Dispatch
import ParallaxDatasets

/// Mapping work run off the tracking thread whose result the tracking thread collects at a fixed
/// data time (``dueAt``), not whenever the work happens to finish: a replay then gives the same
/// result frame for frame on any machine. If the work is still running when its result is due,
/// the tracking thread waits, and ``wait()`` says how long.
///
/// All jobs share one serial queue: on the two cores this runs on, one core tracks and one maps.
final class BackgroundJob<Value>: @unchecked Sendable {
    /// Frame time (s) from which the result is collected.
    let dueAt: Double
    private let finished = DispatchSemaphore(value: 0)
    private var value: Value?
    private var cpuMilliseconds = 0.0

    /// Starts `work` on the mapping queue.
    init(dueAt: Double, work: @escaping () -> Value) {
        self.dueAt = dueAt
        let box = UncheckedBox(work)
        mappingQueue.async { [self] in
            let t0 = ThreadClock.milliseconds()
            value = box.value()
            cpuMilliseconds = ThreadClock.milliseconds() - t0
            finished.signal()
        }
    }

    /// Blocks until the work is done: its result, the CPU milliseconds it took on the mapping
    /// thread, and the wall-clock milliseconds waited here. Call once.
    func wait() -> (value: Value, cpuMilliseconds: Double, waitedMilliseconds: Double) {
        let t0 = DispatchTime.now().uptimeNanoseconds
        finished.wait()
        let waited = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6
        // The semaphore orders the background writes before these reads; `value` is set by then.
        guard let value else { preconditionFailure("BackgroundJob finished without a value") }
        return (value, cpuMilliseconds, waited)
    }
}

/// The serial queue of mapping work (loop detection, pose-graph optimisation).
private let mappingQueue = DispatchQueue(label: "parallax.mapping", qos: .utility)

/// Carries a closure over values the tracking thread no longer touches (copies made for the job).
private struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
