import Foundation
import ParallaxImaging
import ParallaxMath
import Testing
@testable import ParallaxDatasets

@Suite("Live source: order, late, duplicate and out-of-order samples, full queues")
struct LiveSourceTests {
    static func calibrations(stereo: Bool = false) throws -> ([CameraCalibration], IMUCalibration) {
        let cam = try CameraCalibration(yamlText: Fixtures.cameraYAML, name: "cam0", file: "cam0.yaml")
        var cam1 = cam
        cam1.name = "cam1"
        let imu = try IMUCalibration(yamlText: Fixtures.imuYAML, name: "imu0", file: "imu0.yaml")
        return (stereo ? [cam, cam1] : [cam], imu)
    }

    static func imu(_ ms: Int64) -> IMUSample {
        IMUSample(timestampNs: ms * 1_000_000, angularVelocity: Vector3(0, 0, 0.1), acceleration: Vector3(0, 0, 9.81))
    }

    static let image = GrayImage(width: 64, height: 48, fill: 7)

    static func make(_ policy: LiveSourcePolicy, stereo: Bool = false) throws -> LiveSource {
        let (cams, imu) = try calibrations(stereo: stereo)
        return try LiveSource(cameras: cams, imu: imu, policy: policy)
    }

    /// Each event as "i<ms>" or "f<ms>[01]" (the cameras present).
    static func names(_ source: LiveSource) throws -> [String] {
        try SampleData.events(source.makeEvents()).map { e -> String in
            switch e {
            case .imu(let s): "i\(s.timestampNs / 1_000_000)"
            case .frame(let f): "f\(f.timestampNs / 1_000_000)" + (f.cam0 != nil ? "0" : "") + (f.cam1 != nil ? "1" : "")
            case .groundTruth: "g"
            }
        }
    }

    @Test func outOfOrderSamplesWithinTheWindowAreSorted() throws {
        let s = try Self.make(LiveSourcePolicy(reorderWindowNs: 20_000_000), stereo: true)
        // The image at 10 ms arrives before the IMU samples up to 10 ms, cam1 after a later IMU sample.
        try s.append(camera: 0, timestampNs: 10_000_000, image: Self.image)
        for ms: Int64 in [0, 5, 10, 15] { try s.append(imu: Self.imu(ms)) }
        try s.append(camera: 1, timestampNs: 10_000_000, image: Self.image)
        try s.append(imu: Self.imu(12))  // older than 15: reordered
        s.finish()
        #expect(try Self.names(s) == ["i0", "i5", "i10", "f1001", "i12", "i15"])
        #expect(s.statistics.reordered == 1 && s.statistics.accepted == 7 && s.statistics.unpairedFrames == 0)
    }

    @Test func lateAndDuplicateSamplesAreDropped() throws {
        let s = try Self.make(LiveSourcePolicy(reorderWindowNs: 0))
        #expect(try s.append(imu: Self.imu(0)) == .accepted)
        #expect(try s.append(imu: Self.imu(5)) == .accepted)
        #expect(try s.append(imu: Self.imu(5)) == .droppedDuplicate)
        #expect(try s.append(imu: Self.imu(3)) == .droppedLate)  // 5 ms already released (no window)
        #expect(try s.append(camera: 0, timestampNs: 5_000_000, image: Self.image) == .accepted)  // frame after IMU at 5
        #expect(try s.append(camera: 0, timestampNs: 5_000_000, image: Self.image) == .droppedDuplicate)
        #expect(try s.append(imu: Self.imu(5)) == .droppedDuplicate)
        s.finish()
        #expect(try Self.names(s) == ["i0", "i5", "f50"])
        let st = s.statistics
        #expect(st.late == 1 && st.duplicates == 3 && st.accepted == 3)
    }

    @Test func aLonelyStereoImageIsDeliveredAloneAndCounted() throws {
        let s = try Self.make(LiveSourcePolicy(reorderWindowNs: 1_000_000), stereo: true)
        try s.append(camera: 0, timestampNs: 10_000_000, image: Self.image)
        try s.append(imu: Self.imu(20))  // releases the frame at 10 ms without its partner
        #expect(try s.append(camera: 1, timestampNs: 10_000_000, image: Self.image) == .droppedLate)
        s.finish()
        #expect(try Self.names(s) == ["f100", "i20"])
        #expect(s.statistics.unpairedFrames == 1)
    }

    @Test func droppingPolicyDiscardsTheOldestFrameAndKeepsIMU() throws {
        let s = try Self.make(LiveSourcePolicy(capacity: 4, overflow: .dropOldestFrame, reorderWindowNs: 0))
        try s.append(imu: Self.imu(0))
        try s.append(camera: 0, timestampNs: 1_000_000, image: Self.image)
        try s.append(imu: Self.imu(2))
        try s.append(camera: 0, timestampNs: 3_000_000, image: Self.image)
        try s.append(imu: Self.imu(4))  // full: the frame at 1 ms goes
        try s.append(imu: Self.imu(5))  // full: the frame at 3 ms goes
        try s.append(imu: Self.imu(6))  // full, no frame left: the oldest event (IMU at 0) goes
        s.finish()
        #expect(try Self.names(s) == ["i2", "i4", "i5", "i6"])
        #expect(s.statistics.droppedForSpace == 3)
    }

    @Test func blockingPolicyMakesTheProducerWaitAndLosesNothing() throws {
        let s = try Self.make(LiveSourcePolicy(capacity: 3, overflow: .block, reorderWindowNs: 0))
        let count = 200
        // The producer runs ahead on its own thread; with capacity 3 it must wait for the consumer.
        let producer = Thread {
            for i in 0..<count {
                let ms = Int64(i)
                _ = i % 10 == 0 ? try? s.append(camera: 0, timestampNs: ms * 1_000_000 + 1, image: Self.image)
                    : try? s.append(imu: Self.imu(ms))
            }
            s.finish()
        }
        producer.start()
        // Nobody consumes yet: the producer must stop at the fourth sample and wait.
        let deadline = ContinuousClock.now + .seconds(30)
        while s.statistics.waits == 0 && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(s.statistics.waits > 0 && s.statistics.accepted == 3)
        let names = try Self.names(s)
        #expect(names.count == count)
        #expect(s.statistics.droppedForSpace == 0 && s.statistics.accepted == count)
    }

    @Test func badInputIsRefusedWithAMessage() throws {
        let s = try Self.make(.init())
        let wrongSize = GrayImage(width: 10, height: 10, fill: 0)
        let e = #expect(throws: LiveSource.Failure.self) { try s.append(camera: 0, timestampNs: 1, image: wrongSize) }
        #expect(e?.description.contains("10x10") == true)
        #expect(throws: LiveSource.Failure.self) { try s.append(camera: 1, timestampNs: 1, image: Self.image) }
        let nan = IMUSample(timestampNs: 1, angularVelocity: Vector3(.nan, 0, 0), acceleration: .zero)
        #expect(throws: LiveSource.Failure.self) { try s.append(imu: nan) }
        _ = try s.makeEvents()
        #expect(throws: LiveSource.Failure.self) { try s.makeEvents() }
        s.finish()
        #expect(throws: LiveSource.Failure.self) { try s.append(imu: Self.imu(1)) }
    }

    @Test func timeWindowIsRelativeToTheFirstSample() throws {
        let s = try Self.make(LiveSourcePolicy(reorderWindowNs: 0))
        for ms: Int64 in stride(from: 1000, through: 1100, by: 10) { try s.append(imu: Self.imu(ms)) }
        s.finish()
        let events = try SampleData.events(s.makeEvents(from: 0.02, to: 0.05, includeGroundTruth: false))
        #expect(events.map { $0.timestampNs / 1_000_000 } == [1020, 1030, 1040, 1050])
    }
}
