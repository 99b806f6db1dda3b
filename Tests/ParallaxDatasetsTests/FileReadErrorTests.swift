import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import ParallaxDatasets

/// Files that exist but cannot be read get plain reasons, not `NSCocoaErrorDomain error 256`,
/// and a FIFO or device never blocks or streams forever (issue 13).
@Suite struct FileReadErrorTests {
    private func message(_ body: () throws -> Void) -> String? {
        do { try body(); return nil } catch { return "\(error)" }
    }

    @Test func sensorYAMLThatIsADirectoryOrFIFO() throws {
        let root = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let dir = root.appendingPathComponent("sensor.yaml")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        #expect(message { _ = try IMUCalibration(contentsOf: dir, name: "imu0", file: "mav0/imu0/sensor.yaml") }
                == "mav0/imu0/sensor.yaml: cannot read file: is a directory")
        let fifo = root.appendingPathComponent("fifo.yaml")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        #expect(message { _ = try IMUCalibration(contentsOf: fifo, name: "imu0", file: "mav0/imu0/sensor.yaml") }
                == "mav0/imu0/sensor.yaml: cannot read file: not a regular file")
        let missing = root.appendingPathComponent("missing.yaml")
        #expect(message { _ = try IMUCalibration(contentsOf: missing, name: "imu0", file: "i.yaml") }
                == "i.yaml: cannot read file: no such file")
    }

    @Test(.enabled(if: getuid() != 0, "root reads files whatever their mode"))
    func unreadableSensorYAML() throws {
        let root = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let url = root.appendingPathComponent("sensor.yaml")
        try Fixtures.imuYAML.write(to: url, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: url.path)
        #expect(message { _ = try IMUCalibration(contentsOf: url, name: "imu0", file: "i.yaml") }
                == "i.yaml: cannot read file: permission denied")
    }

    @Test func dataCSVThatIsADirectory() throws {
        let root = try Fixtures.writeDataset(at: Fixtures.temporaryFolder())
        defer { try? FileManager.default.removeItem(at: root) }
        let csv = root.appendingPathComponent("mav0/imu0/data.csv")
        try FileManager.default.removeItem(at: csv)
        try FileManager.default.createDirectory(at: csv, withIntermediateDirectories: true)
        #expect(message { _ = try EuRoCDataset(url: root).imuSamples() }
                == "mav0/imu0/data.csv: cannot read file: is a directory")
    }

    @Test func trajectoryThatIsADirectory() throws {
        let root = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(message { _ = try Trajectory.read(contentsOf: root) } == "\(root.path): cannot read file: is a directory")
    }
}
