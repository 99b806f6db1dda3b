import Foundation
import Testing
import ParallaxImaging
@testable import ParallaxDatasets

/// Recordings that used to read as a success although they hold nothing usable (issue 13).
@Suite struct DatasetSilentSuccessTests {
    private let png = Data((try? PNG.encode(.gray8(GrayImage(width: 64, height: 48, fill: 0)))) ?? [])

    // 30 IMU samples (1.000…1.145 s) cover the three frames (1.00, 1.05, 1.10 s); validation
    // checks that the IMU spans the frames.
    private func validateError(cam0: [String] = Fixtures.cameraRows(), imu: [String] = Fixtures.imuRows(30),
                               _ name: String = #function) throws -> String? {
        let root = try Fixtures.writeDataset(at: Fixtures.temporaryFolder(name), cam0: cam0, imu: imu, imageBytes: png)
        defer { try? FileManager.default.removeItem(at: root) }
        do { try EuRoCDataset(url: root).validate(); return nil } catch { return "\(error)" }
    }

    @Test func aGoodSmallDatasetValidates() throws {
        #expect(try validateError() == nil)
    }

    @Test func emptyHeaderOnlyOrOneRowCameraCSVIsAnError() throws {
        #expect(try validateError(cam0: []) == "mav0/cam0/data.csv: has 0 usable camera frame rows; at least 2 are needed")
        #expect(try validateError(cam0: Fixtures.cameraRows(1))
                == "mav0/cam0/data.csv: has 1 usable camera frame rows; at least 2 are needed")
    }

    @Test func emptyIMUCSVIsAnError() throws {
        #expect(try validateError(imu: []) == "mav0/imu0/data.csv: has 0 usable IMU sample rows; at least 2 are needed")
    }

    @Test func absurdIMUValuesNameFileAndLine() throws {
        var rows = Fixtures.imuRows()
        rows[3] = "1015000000,0.01,-0.02,0.03,1e308,0.1,-0.2"
        #expect(try validateError(imu: rows)
                == "mav0/imu0/data.csv:5: acceleration magnitude 1e+308 m/s² exceeds 1000.0 m/s²")
        rows = Fixtures.imuRows()
        rows[0] = "1000000000,250,-0.02,0.03,9.81,0.1,-0.2"
        let gyro = try validateError(imu: rows) ?? ""
        #expect(gyro.hasPrefix("mav0/imu0/data.csv:2: angular velocity magnitude 250.0"))
        #expect(gyro.hasSuffix("rad/s exceeds 100.0 rad/s"))
    }
}

/// A camera row may name only an image inside `camN/data` (issue 13).
@Suite struct CameraFilenameEscapeTests {
    @Test(arguments: ["../../sensor.yaml", "/etc/passwd", "sub/../../x.png"])
    func filenameOutsideTheDataFolderIsRefused(filename: String) throws {
        let root = try Fixtures.writeDataset(at: Fixtures.temporaryFolder("escape"), cam0: ["1000000000,\(filename)"])
        defer { try? FileManager.default.removeItem(at: root) }
        #expect { try EuRoCDataset(url: root).cameraFrames(0) } throws: {
            "\($0)" == "mav0/cam0/data.csv:2: column 2 (filename) '\(filename)' must name a file inside mav0/cam0/data"
        }
    }
}
