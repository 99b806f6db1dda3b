import Foundation
import Testing
@testable import ParallaxDatasets

/// One test per kind of bad input: each writes a small broken dataset and checks the error's
/// kind and that its message names the file and line.
@Suite("EuRoC reader: bad input")
struct DatasetBadInputTests {
    private func imuError(_ rows: [String], _ name: String = #function) throws -> DatasetError? {
        let root = try Fixtures.writeDataset(at: Fixtures.temporaryFolder(name), imu: rows)
        defer { try? FileManager.default.removeItem(at: root) }
        let d = try EuRoCDataset(url: root)
        do { _ = try d.imuSamples(); return nil } catch let e as DatasetError { return e }
    }

    @Test func missingMav0Folder() throws {
        let root = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        #expect { try EuRoCDataset(url: root) } throws: {
            ($0 as? DatasetError)?.kind == .layout && "\($0)".contains("no 'mav0' folder")
        }
    }

    @Test func missingIMUFolder() throws {
        let root = try Fixtures.writeDataset(at: Fixtures.temporaryFolder())
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.removeItem(at: root.appendingPathComponent("mav0/imu0/data.csv"))
        #expect { try EuRoCDataset(url: root) } throws: { "\($0)" == "mav0/imu0/data.csv: file is missing" }
    }

    @Test func badCalibrationNamesFile() throws {
        let yaml = Fixtures.cameraYAML.replacingOccurrences(of: "resolution: [64, 48]", with: "resolution: [64]")
        let root = try Fixtures.writeDataset(at: Fixtures.temporaryFolder(), cameraYAML: yaml)
        defer { try? FileManager.default.removeItem(at: root) }
        #expect { try EuRoCDataset(url: root) } throws: {
            "\($0)" == "mav0/cam0/sensor.yaml: field 'resolution' must have 2 numbers, found 1"
        }
    }

    @Test func wrongColumnCount() throws {
        var rows = Fixtures.imuRows()
        rows[3] = "1015000000,0.01,-0.02,0.03,9.81,0.1"
        let e = try #require(try imuError(rows))
        #expect(e.kind == .columnCount)
        // Line 1 is the header, so row index 3 is line 5.
        #expect(e.description == "mav0/imu0/data.csv:5: IMU row must have 7 columns, found 6")
    }

    @Test func malformedNumber() throws {
        var rows = Fixtures.imuRows()
        rows[2] = "1010000000,0.01,abc,0.03,9.81,0.1,-0.2"
        let e = try #require(try imuError(rows))
        #expect(e.kind == .malformedRow)
        #expect(e.description == "mav0/imu0/data.csv:4: column 3 (w_RS_S_y) must be a number, found 'abc'")
    }

    @Test func malformedTimestamp() throws {
        var rows = Fixtures.imuRows()
        rows[0] = "1.0e9,0.01,0.02,0.03,9.81,0.1,-0.2"
        let e = try #require(try imuError(rows))
        #expect(e.kind == .malformedRow && e.line == 2)
    }

    @Test func nanAndInfinity() throws {
        var rows = Fixtures.imuRows()
        rows[1] = "1005000000,0.01,-0.02,nan,9.81,0.1,-0.2"
        let e = try #require(try imuError(rows))
        #expect(e.kind == .nonFinite)
        #expect(e.description == "mav0/imu0/data.csv:3: column 4 (w_RS_S_z) is not finite ('nan')")
        rows[1] = "1005000000,0.01,-0.02,0.0,inf,0.1,-0.2"
        #expect(try imuError(rows)?.kind == .nonFinite)
    }

    @Test func duplicateTimestamp() throws {
        var rows = Fixtures.imuRows()
        rows[4] = rows[3]
        let e = try #require(try imuError(rows))
        #expect(e.kind == .duplicateTimestamp && e.line == 6)
    }

    @Test func nonMonotonicTimestamp() throws {
        var rows = Fixtures.imuRows()
        rows.swapAt(5, 6)
        let e = try #require(try imuError(rows))
        #expect(e.kind == .nonMonotonic && e.line == 8)
        #expect(e.message.contains("earlier than the previous row's"))
    }

    @Test func lenientPolicySkipsAndCounts() throws {
        var rows = Fixtures.imuRows()
        rows[4] = rows[3]
        rows[6] = "1030000000,0.01,x,0.03,9.81,0.1,-0.2"
        let root = try Fixtures.writeDataset(at: Fixtures.temporaryFolder(), imu: rows)
        defer { try? FileManager.default.removeItem(at: root) }
        let stream = try EuRoCDataset(url: root, policy: .lenient).imuStream()
        var n = 0
        while try stream.next() != nil { n += 1 }
        #expect(n == 8)
        #expect(stream.diagnostics.skippedRows == 2)
        #expect(stream.diagnostics.messages.first?.hasPrefix("mav0/imu0/data.csv:6:") == true)
    }

    @Test func missingImageFile() throws {
        let root = try Fixtures.writeDataset(at: Fixtures.temporaryFolder())
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.removeItem(at: root.appendingPathComponent("mav0/cam0/data/1050000000.png"))
        #expect { try EuRoCDataset(url: root).cameraFrames(0) } throws: {
            "\($0)" == "mav0/cam0/data.csv:3: image file 'mav0/cam0/data/1050000000.png' does not exist"
        }
    }

    @Test(.needsRealSnippet) func imageSizeDisagreesWithResolution() throws {
        let real = Fixtures.realSnippetURL
        // A real 752×480 PNG where sensor.yaml promises 64×48.
        let bytes = try Data(contentsOf: real.appendingPathComponent("mav0/cam0/data/1403715273262142976.png"))
        let root = try Fixtures.writeDataset(at: Fixtures.temporaryFolder(), imageBytes: bytes)
        defer { try? FileManager.default.removeItem(at: root) }
        let d = try EuRoCDataset(url: root)
        let frame = try #require(try d.cameraFrames(0).first)
        let expected = "mav0/cam0/data/1000000000.png: image is 752x480 but the cam0 calibration (its sensor.yaml or camchain resolution) is 64x48"
        #expect { try frame.loadImage() } throws: { "\($0)" == expected }
        #expect { try d.validate() } throws: { "\($0)" == expected }
    }

    @Test func undecodableImage() throws {
        let root = try Fixtures.writeDataset(at: Fixtures.temporaryFolder(), imageBytes: Data("not a png".utf8))
        defer { try? FileManager.default.removeItem(at: root) }
        let d = try EuRoCDataset(url: root)
        #expect { try d.validate() } throws: { ($0 as? DatasetError)?.kind == .badImage }
    }

    @Test func groundTruthQuaternionAndColumns() throws {
        let good = "1000000000,1,2,3,1,0,0,0,0,0,0,0,0,0,0,0,0"
        let badNorm = "1050000000,1,2,3,2,0,0,0,0,0,0,0,0,0,0,0,0"
        let root = try Fixtures.writeDataset(at: Fixtures.temporaryFolder(), groundTruth: [good, badNorm, "1100000000,1,2"])
        defer { try? FileManager.default.removeItem(at: root) }
        #expect { try EuRoCDataset(url: root).groundTruth() } throws: {
            "\($0)" == "mav0/state_groundtruth_estimate0/data.csv:3: quaternion q_RS has norm 2.0, expected 1"
        }
    }

    @Test func tumVIStyleSpacesAndEquidistantRead() throws {
        let rows = Fixtures.imuRows(3).map { $0.replacingOccurrences(of: ",", with: ", ") }
        let cams = Fixtures.cameraRows(2).map { $0.replacingOccurrences(of: ",", with: ", ") }
        let yaml = Fixtures.cameraYAML.replacingOccurrences(of: "radial-tangential", with: "equidistant")
        let root = try Fixtures.writeDataset(at: Fixtures.temporaryFolder(), cam0: cams, imu: rows, cameraYAML: yaml)
        defer { try? FileManager.default.removeItem(at: root) }
        let d = try EuRoCDataset(url: root)
        #expect(try d.imuSamples().count == 3)
        #expect(try d.cameraFrames(0).map(\.filename) == ["1000000000.png", "1050000000.png"])
        if case .equidistant = d.cameras[0].distortion {} else { Issue.record("expected equidistant") }
    }
}
