import Foundation
import ParallaxDatasets
import ParallaxImaging
import ParallaxMath
import ParallaxTracking
import Testing

/// Damaged input must degrade the tracking state, then recover — never crash or produce NaNs.
@Suite("VIO robustness to damaged input", .serialized)
struct RobustnessTests {
    enum Damage: String, CaseIterable { case blankFrames, droppedFrames, imuGap, duplicateTimestamps }

    @Test("degrade and recover", .needsEuRoCSnippet, arguments: Damage.allCases)
    func damaged(_ damage: Damage) throws {
        let data = try #require(try SnippetTests.dataset())
        let vio = try VisualInertialOdometry(dataset: data, mode: .stereo)
        let iterator = try data.replay().makeIterator()
        var frameIndex = 0
        var states: [TrackingState] = []
        var positions: [Vector3] = []
        var gapStart: Double?
        while let event = try iterator.next() {
            switch event {
            case .imu(let s):
                if damage == .imuGap, frameIndex >= 30, frameIndex < 40 {
                    if gapStart == nil { gapStart = s.timestamp }
                    continue                                         // 0.5 s without IMU
                }
                vio.process(imu: s)
                if damage == .duplicateTimestamps { vio.process(imu: s) }
            case .frame(let f):
                frameIndex += 1
                var result: TrackingResult
                if damage == .blankFrames, frameIndex >= 30, frameIndex < 45 {
                    let black = GrayImage(width: data.cameras[0].width, height: data.cameras[0].height, fill: 0)
                    result = try vio.process(timestamp: f.timestamp, timestampNs: f.timestampNs, image0: black, image1: black)
                    if frameIndex >= 32 { #expect(result.trackingState != .normal) }
                } else if damage == .droppedFrames, frameIndex >= 30, frameIndex < 60, frameIndex % 3 != 0 {
                    result = try vio.process(timestamp: f.timestamp, timestampNs: f.timestampNs, image0: nil, image1: nil)
                } else {
                    result = try vio.process(frame: f)
                    if damage == .duplicateTimestamps {
                        let again = try vio.process(frame: f)
                        #expect(again.T_world_body == result.T_world_body)
                    }
                }
                states.append(result.trackingState)
                if let t = result.T_world_body {
                    #expect(t.translation.isFinite)
                    positions.append(t.translation)
                }
            default: break
            }
        }
        // Recovered: the last frames are normal again, and the drone (at rest) has not drifted far.
        #expect(states.suffix(10).allSatisfy { $0 == .normal }, "last states: \(states.suffix(10))")
        let first = try #require(positions.first)
        let drift = positions.map { ($0 - first).norm }.max() ?? .infinity
        print("robustness \(damage.rawValue): max drift \(String(format: "%.4f", drift)) m, "
              + "limited frames \(states.filter { $0 != .normal }.count)/\(states.count)")
        #expect(drift < 0.10)
    }
}
