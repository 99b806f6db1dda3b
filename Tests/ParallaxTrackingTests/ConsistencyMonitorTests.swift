import Foundation
import ParallaxDatasets
import ParallaxMath
import Testing
@testable import ParallaxTracking

/// A filter that is confidently wrong must notice it from the images (its χ² gate rejecting most
/// tracks, or zero-velocity updates rejected while the image stands still), report
/// `limited(relocalizing)`, reset and come back — not keep reporting `normal`.
@Suite("VIO consistency monitor", .serialized)
struct ConsistencyMonitorTests {
    /// Replays `events` through `vio`, corrupting the filter state just before frame `frame`
    /// (1-based); returns the tracking states and the body positions.
    static func replay(_ vio: VisualInertialOdometry, _ events: DatasetReplay.Iterator, corruptingAt frame: Int,
                       _ corrupt: (inout FilterState) -> Void) throws -> (states: [TrackingState], positions: [Vector3]) {
        var frameIndex = 0
        var states: [TrackingState] = [], positions: [Vector3] = []
        while let event = try events.next() {
            switch event {
            case .imu(let s):
                vio.process(imu: s)
            case .frame(let f):
                frameIndex += 1
                if frameIndex == frame, var s = vio.core.state {
                    corrupt(&s)
                    vio.core.state = s
                }
                let result = try vio.process(frame: f)
                states.append(result.trackingState)
                if let t = result.T_world_body {
                    #expect(t.translation.isFinite)
                    positions.append(t.translation)
                }
            default: break
            }
        }
        return (states, positions)
    }

    /// Checks detection within `frames` of the corruption, a relocalizing spell, and `normal` at the end.
    static func expectDetectedAndRecovered(_ states: [TrackingState], corruptedAt frame: Int, within frames: Int,
                                           label: String) {
        let after = Array(states.dropFirst(frame - 1))
        let firstLimited = after.firstIndex { $0 != .normal }
        print("\(label): first limited state \(firstLimited.map(String.init) ?? "never") frames after the corruption; "
              + "limited frames after it \(after.filter { $0 != .normal }.count)/\(after.count)")
        #expect(firstLimited.map { $0 < frames } == true)
        #expect(after.contains(.limited(.relocalizing)))
        #expect(states.suffix(10).allSatisfy { $0 == .normal }, "last states: \(states.suffix(10))")
    }

    @Test("at rest: a velocity the images contradict is caught by the rejected zero-velocity updates", .needsEuRoCSnippet)
    func corruptedStateAtRest() throws {
        let data = try #require(try SnippetTests.dataset())
        let vio = try VisualInertialOdometry(dataset: data, mode: .stereo)
        // 0.5 m/s of velocity the drone (at rest) does not have, with an unchanged covariance.
        let (states, positions) = try Self.replay(vio, data.replay().makeIterator(), corruptingAt: 30) {
            $0.velocity += Vector3(0.5, 0, 0)
        }
        Self.expectDetectedAndRecovered(states, corruptedAt: 30, within: 10, label: "consistency at rest")
        // The reset keeps the position: the drone ends near where it rests.
        let first = try #require(positions.first), last = try #require(positions.last)
        #expect((last - first).norm < 0.05, "ended \((last - first).norm) m from the start")
    }

    @Test("in flight: a tilt the covariance does not allow is caught by the χ² gate", .needsSharedTrajectories)
    func corruptedStateInFlight() throws {
        let (simulated, name) = try TrackingFixtures.simulated(trajectory: "euroc_V1_01_easy")
        let dataset = try #require(simulated, "\(name)")
        let vio = try VisualInertialOdometry(dataset: dataset, mode: .mono)
        // 5° of tilt: gravity leaks 0.86 m/s² into the horizontal acceleration.
        let (states, _) = try Self.replay(vio, dataset.replay(from: 8, to: 16).makeIterator(), corruptingAt: 60) {
            $0.rotation = SO3.exp(Vector3(0.087, 0, 0)) * $0.rotation
        }
        Self.expectDetectedAndRecovered(states, corruptedAt: 60, within: 20, label: "consistency in flight")
    }
}
