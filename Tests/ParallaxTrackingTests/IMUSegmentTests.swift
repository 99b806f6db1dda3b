import ParallaxMath
import Testing
@testable import ParallaxTracking

@Suite("IMU segments between readings")
struct IMUSegmentTests {
    /// Readings of a signal linear in time, f(t) = (1 + 2t, −t, 3) for both gyro and accel.
    private func linearReadings(times: [Double]) -> [IMUMeasurement] {
        times.map { t in
            let f = Vector3(1 + 2 * t, -t, 3)
            return IMUMeasurement(timestamp: t, gyro: f, accel: f)
        }
    }

    @Test("a linear signal integrates exactly, whatever the cut points")
    func linearSignalIntegratesExactly() {
        let samples = linearReadings(times: stride(from: 0.0, through: 1.0, by: 0.005).map { $0 })
        // An interval that starts and ends between readings.
        let t0 = 0.1234, t1 = 0.3456
        let segments = IMUSegment.split(samples[...], from: t0, to: t1, maxGap: 0.05)
        let total = segments.reduce(0.0) { $0 + $1.duration }
        #expect(abs(total - (t1 - t0)) < 1e-12)
        let integral = segments.reduce(Vector3.zero) { $0 + $1.gyro * $1.duration }
        // ∫ (1 + 2t) dt = t + t², ∫ −t dt = −t²/2, ∫ 3 dt = 3t.
        let exact = Vector3((t1 + t1 * t1) - (t0 + t0 * t0), -(t1 * t1 - t0 * t0) / 2, 3 * (t1 - t0))
        #expect((integral - exact).norm < 1e-12)
        #expect(segments.allSatisfy { !$0.isGap })
        // A held reading would integrate f(start of each stretch): wrong by about half a sample.
        let held = segments.reduce(Vector3.zero) { $0 + samples[$1.sampleIndex].gyro * $1.duration }
        #expect((held - exact).norm > 1e-3)
    }

    @Test("readings are held before the first and after the last one")
    func holdsEnds() {
        let samples = linearReadings(times: [1.0, 1.01, 1.02])
        let segments = IMUSegment.split(samples[...], from: 0.995, to: 1.025, maxGap: 0.05)
        let first = segments[0], last = segments[segments.count - 1]
        #expect(abs(first.duration - 0.005) < 1e-12)
        #expect(first.gyro == samples[0].gyro)
        #expect(abs(last.duration - 0.005) < 1e-12)
        #expect(last.gyro == samples[2].gyro)
        #expect(segments.allSatisfy { !$0.isGap })
    }

    @Test("a gap wider than maxGap is flagged and holds the reading before it")
    func flagsGaps() {
        let samples = linearReadings(times: [0.0, 0.005, 0.2, 0.205])
        let segments = IMUSegment.split(samples[...], from: 0.0, to: 0.205, maxGap: 0.05)
        let gaps = segments.filter(\.isGap)
        #expect(gaps.count == 1)
        #expect(abs((gaps.first?.duration ?? 0) - 0.195) < 1e-12)
        #expect(gaps.first?.gyro == samples[1].gyro)
        // Duplicated timestamps neither stall the split nor add time.
        let duplicated = linearReadings(times: [0.0, 0.005, 0.005, 0.01])
        let split = IMUSegment.split(duplicated[...], from: 0.0, to: 0.01, maxGap: 0.05)
        #expect(abs(split.reduce(0.0) { $0 + $1.duration } - 0.01) < 1e-12)
    }
}
