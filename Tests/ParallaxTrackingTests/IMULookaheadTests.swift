import ParallaxDatasets
import ParallaxMath
import Testing
@testable import ParallaxTracking

/// ``IMULookaheadIterator``: a frame comes out only after the IMU sample that passes its stamp plus
/// the lead; frames keep their order, nothing is lost, and the end of the stream releases them.
@Suite("IMU lookahead before each frame")
struct IMULookaheadTests {
    /// Events in stamp order: IMU every 5 ms for 60 ms, frames at 10 and 35 ms.
    final class Events: SensorEventIterator {
        var events: [ReplayEvent]
        init(_ events: [ReplayEvent]) { self.events = events }
        func next() throws -> ReplayEvent? { events.isEmpty ? nil : events.removeFirst() }
        var unpairedFrames: Int { 0 }
        var diagnostics: ReadDiagnostics { ReadDiagnostics() }
    }

    static func imu(_ ms: Int64) -> ReplayEvent {
        .imu(IMUSample(timestampNs: ms * 1_000_000, angularVelocity: .zero, acceleration: Vector3(0, 0, 9.81)))
    }
    static func frame(_ ms: Int64) -> ReplayEvent { .frame(FrameEvent(timestampNs: ms * 1_000_000, cam0: nil, cam1: nil)) }

    static func stream(lead: Double, stopAt end: Int64 = 60) throws -> [Int64] {
        var events: [ReplayEvent] = []
        for ms in stride(from: Int64(0), through: end, by: 5) {
            if ms == 10 || ms == 35 { events.append(frame(ms)) }
            events.append(imu(ms))
        }
        // Source order puts a frame before the IMU sample of the same stamp (as above).
        let it = IMULookaheadIterator(Events(events)) { lead }
        var out: [Int64] = []
        while let e = try it.next() {
            switch e {
            case .frame(let f): out.append(-f.timestampNs / 1_000_000)   // frames as negative ms
            default: out.append(e.timestampNs / 1_000_000)
            }
        }
        return out
    }

    @Test("with a 12 ms lead each frame follows the first sample at or after its stamp + 12 ms")
    func holdsFrames() throws {
        let out = try Self.stream(lead: 0.012)
        #expect(out == [0, 5, 10, 15, 20, 25, -10, 30, 35, 40, 45, 50, -35, 55, 60])
    }

    @Test("without a lead a frame waits only for the sample at its own stamp")
    func zeroLead() throws {
        #expect(try Self.stream(lead: 0) == [0, 5, 10, -10, 15, 20, 25, 30, 35, -35, 40, 45, 50, 55, 60])
    }

    @Test("the end of the stream releases frames the IMU never passed")
    func endReleases() throws {
        #expect(try Self.stream(lead: 0.03, stopAt: 40) == [0, 5, 10, 15, 20, 25, 30, 35, 40, -10, -35])
    }
}
