import Foundation
import ParallaxMath
import Testing
@testable import ParallaxRecordings

/// Files written by the independent Python packages (`rosbags` for the bag, `mcap` for MCAP; see
/// Fixtures/make_python_fixtures.py) read back with the values the script wrote.
@Suite struct PythonFixtureTests {
    static let t0: Int64 = 1_700_000_000_000_000_000

    @Test(arguments: ["python-rosbags.bag", "python-mcap.mcap"])
    func readsWhatPythonWrote(_ name: String) throws {
        let url = RecordingFixtures.folder.appendingPathComponent(name)
        let (imu, frames, warnings) = try RecordingFixtures.readAll(url)
        #expect(warnings.isEmpty)
        #expect(imu.map(\.timestampNs) == (0..<10).map { Self.t0 + Int64($0) * 10_000_000 })
        #expect(imu.map(\.angularVelocity) == (0..<10).map { Vector3(0.5 * Double($0), -0.25, 0.125) })
        #expect(imu.map(\.acceleration) == (0..<10).map { Vector3(1, 2 + Double($0), 9.75) })
        #expect(frames.count == 1)
        #expect(frames[0].map(\.0) == [Self.t0, Self.t0 + 50_000_000])
        for (k, i) in [0, 5].enumerated() where k < frames[0].count {
            let expected = (0..<3).flatMap { y in (0..<4).map { x in UInt8((3 * x + 7 * y + i) % 256) } }
            #expect(frames[0][k].1.width == 4 && frames[0][k].1.height == 3)
            #expect(frames[0][k].1.pixels == expected)
        }
    }
}
