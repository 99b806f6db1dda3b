import Foundation

/// Replays a recording at its recorded pace (or `speed` times it): ``next()`` waits until an
/// event's time, measured from the first event, has come on the wall clock. Events and their
/// order are unchanged; without this wrapper recordings replay as fast as possible.
public final class PacedEventIterator: SensorEventIterator {
    private let base: any SensorEventIterator
    private let speed: Double
    private let clock = ContinuousClock()
    private var origin: (wall: ContinuousClock.Instant, dataNs: Int64)?

    /// Paces `base`; `speed` 1 is recorded pace, 2 twice as fast (must be finite and positive,
    /// else the events pass unpaced).
    public init(_ base: any SensorEventIterator, speed: Double = 1) {
        self.base = base
        self.speed = speed
    }

    /// The wrapped iterator's count.
    public var unpairedFrames: Int { base.unpairedFrames }
    /// The wrapped iterator's diagnostics.
    public var diagnostics: ReadDiagnostics { base.diagnostics }

    /// The next event, once its time has come.
    public func next() throws -> ReplayEvent? {
        guard let event = try base.next() else { return nil }
        guard speed.isFinite, speed > 0 else { return event }
        guard let origin else {
            origin = (clock.now, event.timestampNs)
            return event
        }
        let dataNs = Double(event.timestampNs &- origin.dataNs) / speed
        let due = origin.wall + .nanoseconds(Int64(max(0, min(dataNs, 9e18))))
        let wait = due - clock.now
        if wait > .zero {
            let (s, atto) = wait.components
            Thread.sleep(forTimeInterval: Double(s) + Double(atto) * 1e-18)
        }
        return event
    }
}
