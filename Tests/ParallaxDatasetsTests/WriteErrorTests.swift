import Foundation
import Testing
import ParallaxMath
@testable import ParallaxDatasets

/// Write failures read in plain words, not as `NSCocoaErrorDomain error 4/512` (issue 13).
@Suite struct WriteErrorTests {
    private let trajectory = Trajectory(poses: [TrajectoryPose(time: 1, T_world_body: .identity)])

    private func message(_ body: () throws -> Void) -> String? {
        do { try body(); return nil } catch { return "\(error)" }
    }

    @Test func aMissingFolderIsNamed() {
        let url = URL(fileURLWithPath: "/nonexistent-parallax/sub/out.txt")
        #expect(message { try TUMTrajectory.write(trajectory, to: url) }
                == "\(url.path): cannot write the file (folder /nonexistent-parallax/sub does not exist)")
        #expect(message { try EuRoCTrajectory.write(trajectory, to: url) }
                == "\(url.path): cannot write the file (folder /nonexistent-parallax/sub does not exist)")
    }

    @Test func aFileInPlaceOfTheFolderIsNamed() throws {
        let file = try Fixtures.temporaryFolder().appendingPathComponent("plain")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        try Data("x".utf8).write(to: file)
        let url = file.appendingPathComponent("out.txt")
        #expect(message { try TUMTrajectory.write(trajectory, to: url) }
                == "\(url.path): cannot write the file (\(file.path) is not a folder)")
    }

    @Test func aFolderInPlaceOfTheFileIsNamed() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(message { try TUMTrajectory.write(trajectory, to: folder) }
                == "\(folder.path): cannot write the file (is a directory)")
    }
}
