import Foundation
import Testing
import ParallaxImaging
@testable import ParallaxDatasets

/// Streams that are each readable but do not fit together, and images that validation used to
/// pass because it read only their headers (issue 13).
@Suite struct DatasetConsistencyTests {
    private static let png = Data((try? PNG.encode(.gray8(GrayImage(width: 64, height: 48, fill: 9)))) ?? [])

    /// Camera rows at 20 Hz from `start` ns, shifted by `offsetNs`.
    private func rows(_ count: Int, offsetNs: Int64 = 0, start: Int64 = 1_000_000_000) -> [String] {
        (0..<count).map { let t = start + Int64($0) * 50_000_000 + offsetNs; return "\(t),\(t).png" }
    }

    /// Writes a dataset (20 frames, 200 IMU samples over the same second unless given) and
    /// returns it opened, together with its folder for cleanup.
    private func dataset(cam0: [String]? = nil, cam1: [String]? = nil, imu: [String] = Fixtures.imuRows(200),
                         groundTruth: [String]? = nil, cameraYAML: String = Fixtures.cameraYAML,
                         imageBytes: Data = png, policy: ReadPolicy = .strict,
                         _ name: String = #function) throws -> (EuRoCDataset, URL) {
        let root = try Fixtures.writeDataset(at: Fixtures.temporaryFolder(name), cam0: cam0 ?? rows(20), cam1: cam1,
                                             imu: imu, groundTruth: groundTruth, cameraYAML: cameraYAML,
                                             imageBytes: imageBytes)
        do { return (try EuRoCDataset(url: root, policy: policy), root) } catch {
            try? FileManager.default.removeItem(at: root)
            throw error
        }
    }

    private func message(_ body: () throws -> Void) -> String? {
        do { try body(); return nil } catch { return "\(error)" }
    }

    // MARK: Stereo

    @Test func aGoodStereoDatasetHasNoWarnings() throws {
        let (d, root) = try dataset(cam1: rows(20))
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try d.checkTimelines(stereo: true).isEmpty)
        #expect(try d.validate().warnings.isEmpty)
    }

    @Test func cam1AtCam0sPositionIsAnError() throws {
        // The fixture moves cam1 only when it finds cam0's translation; this one it leaves alone.
        let yaml = Fixtures.cameraYAML.replacingOccurrences(of: "1.0, 0.0, 0.0, -0.01,", with: "1.0, 0.0, 0.0, -0.02,")
        let error = message { _ = try dataset(cam1: rows(20), cameraYAML: yaml) }
        #expect(error == "mav0/cam1/sensor.yaml: field 'T_BS' puts cam1 0.0000 mm from cam0 (the stereo baseline "
                + "must be at least 1.0 mm); is it a copy of cam0's?")
    }

    @Test func cam1StampsThreeMillisecondsOffAreAnError() throws {
        let (d, root) = try dataset(cam1: rows(20, offsetNs: 3_000_000))
        defer { try? FileManager.default.removeItem(at: root) }
        let expected = "mav0/cam1/data.csv: no cam1 timestamp equals a cam0 timestamp (median offset +3.000 ms); "
            + "stereo frames pair by equal stamps: fix the stamps or replay with --mono"
        #expect(message { _ = try d.checkTimelines(stereo: true) } == expected)
        #expect(message { try d.validate() } == expected)
        // Mono tracking does not need cam1 at all.
        #expect(try d.checkTimelines(stereo: false).isEmpty)
    }

    @Test func cam1WithHalfTheRowsIsAnError() throws {
        let (d, root) = try dataset(cam1: rows(20).enumerated().filter { $0.offset % 2 == 0 }.map(\.element))
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(message { _ = try d.checkTimelines(stereo: true) }
                == "mav0/cam1/data.csv: 10 of 30 frames have no partner (cam0 20 rows, cam1 10, 10 pairs, median "
                + "offset of the unpaired n/a); more than 10 % unpaired: fix the recording or replay with --mono")
    }

    @Test func aFewUnpairedFramesAreAWarningWithACount() throws {
        var cam1 = rows(20)
        cam1.remove(at: 7)
        let (d, root) = try dataset(cam1: cam1)
        defer { try? FileManager.default.removeItem(at: root) }
        let warnings = try d.checkTimelines(stereo: true)
        #expect(warnings.count == 1)
        #expect(warnings.first?.hasPrefix("stereo: 1 of 39 frames have no partner (cam0 20 rows, cam1 19, 19 pairs") == true)
        #expect(try d.validate().warnings == warnings)
    }

    @Test func aMissingCam1ImageIsAnErrorOrCountedWhenLenient() throws {
        let (d, root) = try dataset(cam1: rows(20))
        defer { try? FileManager.default.removeItem(at: root) }
        let missing = root.appendingPathComponent("mav0/cam1/data/1100000000.png")
        try FileManager.default.removeItem(at: missing)
        #expect(message { _ = try d.checkTimelines(stereo: true) }
                == "mav0/cam1/data.csv:4: image file 'mav0/cam1/data/1100000000.png' does not exist")
        let lenient = try EuRoCDataset(url: root, policy: .lenient)
        let warnings = try lenient.checkTimelines(stereo: true)
        #expect(warnings.first?.hasPrefix("stereo: 1 of 39 frames have no partner") == true)
    }

    @Test func cam1ImagesWithHalfTheRowsFailValidation() throws {
        let (d, root) = try dataset(cam1: rows(20))
        defer { try? FileManager.default.removeItem(at: root) }
        let half = try PNG.encode(.gray8(GrayImage(width: 64, height: 24, fill: 1)))
        try Data(half).write(to: root.appendingPathComponent("mav0/cam1/data/1000000000.png"))
        #expect(message { try d.validate() }
                == "mav0/cam1/data/1000000000.png: image is 64x24 but the cam1 calibration (its sensor.yaml or camchain resolution) is 64x48")
    }

    // MARK: Camera and IMU time ranges

    @Test func imuThatDoesNotOverlapTheCameraIsAnError() throws {
        let imu = (0..<200).map { "\(5_000_000_000 + Int64($0) * 5_000_000),0.01,-0.02,0.03,9.81,0.1,-0.2" }
        let (d, root) = try dataset(imu: imu)
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(message { _ = try d.checkTimelines(stereo: false) }
                == "mav0/imu0/data.csv: IMU time range 5.000…5.995 s does not overlap cam0's 1.000…1.950 s; "
                + "the two sensors must share a clock")
    }

    @Test func anHourLongIMUGapIsAnError() throws {
        var imu = Fixtures.imuRows(200)
        imu.append("\(1_995_000_000 + 3_600_000_000_000),0.01,-0.02,0.03,9.81,0.1,-0.2")
        let (d, root) = try dataset(imu: imu)
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(message { try d.validate() }
                == "mav0/imu0/data.csv: the IMU stops for 3600.000 s after t = 1995000000 ns (at most 1.000 s is accepted)")
    }

    @Test func aLongCameraGapIsAnError() throws {
        // 10 s of IMU without a break; the camera stops for 10.05 s.
        let imu = (0..<2200).map { "\(1_000_000_000 + Int64($0) * 5_000_000),0.01,-0.02,0.03,9.81,0.1,-0.2" }
        let (d, root) = try dataset(cam0: rows(20) + rows(2, start: 12_000_000_000), imu: imu)
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(message { _ = try d.checkTimelines(stereo: false) }
                == "mav0/cam0/data.csv: no frame for 10.050 s after t = 1950000000 ns (at most 10.000 s is accepted)")
    }

    @Test func imuStartingLateOrEndingEarlyIsAWarningThenAnError() throws {
        // The IMU starts 0.2 s late: the first 4 of 20 frames cannot be tracked.
        let late = (40..<200).map { "\(1_000_000_000 + Int64($0) * 5_000_000),0.01,-0.02,0.03,9.81,0.1,-0.2" }
        let (d, root) = try dataset(imu: late)
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try d.checkTimelines(stereo: false)
                == ["cam0/imu0: 4 of 20 cam0 frames lie outside the IMU's time range 1.200…1.995 s (4 before, 0 after); "
                    + "they are not tracked"])
        // The IMU ends after 0.3 s: 13 of 20 frames are lost, more than half.
        let (d2, root2) = try dataset(imu: Fixtures.imuRows(60))
        defer { try? FileManager.default.removeItem(at: root2) }
        #expect(message { _ = try d2.checkTimelines(stereo: false) }
                == "mav0/imu0/data.csv: 14 of 20 cam0 frames lie outside the IMU's time range 1.000…1.295 s "
                + "(0 before, 14 after); more than 50 % of the frames cannot be tracked")
    }

    // MARK: Images: validation decodes them

    @Test(arguments: [("truncated", 0), ("no IEND", 1), ("corrupted pixel data", 2)])
    func damagedImagesFailValidation(damage: String, kind: Int) throws {
        var bytes = [UInt8](Self.png)
        switch kind {
        case 0: bytes = Array(bytes.prefix(bytes.count - 30))
        case 1: bytes = Array(bytes.prefix(bytes.count - 12))
        default: bytes[bytes.count - 20] ^= 0x5a
        }
        let (d, root) = try dataset(cam0: rows(3), imu: Fixtures.imuRows(40))
        defer { try? FileManager.default.removeItem(at: root) }
        try Data(bytes).write(to: root.appendingPathComponent("mav0/cam0/data/1050000000.png"))
        let error = message { try d.validate() } ?? "validated"
        #expect(error.hasPrefix("mav0/cam0/data/1050000000.png: cannot decode image:"), "\(damage): \(error)")
    }

    @Test func imagesThatAreNotEightBitGreyAreCountedInAWarning() throws {
        let (d, root) = try dataset(cam0: rows(4), imu: Fixtures.imuRows(40))
        defer { try? FileManager.default.removeItem(at: root) }
        let data = root.appendingPathComponent("mav0/cam0/data")
        try Data(PNG.encode(.rgb8(RGBImage(width: 64, height: 48, fill: RGB8(r: 1, g: 2, b: 3)))))
            .write(to: data.appendingPathComponent("1000000000.png"))
        try Data(PNG.encode(.gray16(Gray16Image(width: 64, height: 48, fill: 700))))
            .write(to: data.appendingPathComponent("1050000000.png"))
        try Data(PNG.encode(.gray16(Gray16Image(width: 64, height: 48, fill: 9))))
            .write(to: data.appendingPathComponent("1100000000.png"))
        #expect(try d.validate().warnings
                == ["cam0: 3 of 4 images are not 8-bit grey (2 16-bit grey, 1 8-bit RGB); the tracker converts them "
                    + "to 8-bit grey on every load"])
    }

    @Test func oneBitImagesAreNamed() {
        var tally = ImageFormatTally()
        tally.add(PNGInfo(width: 8, height: 8, bitDepth: 1, channels: 1, colorType: 0))
        tally.add(PNGInfo(width: 8, height: 8, bitDepth: 8, channels: 1, colorType: 0))
        tally.add(PNGInfo(width: 8, height: 8, bitDepth: 8, channels: 1, colorType: 3))
        #expect(tally.warning(camera: "cam0") == "cam0: 2 of 3 images are not 8-bit grey (1 1-bit grey, 1 8-bit palette); "
                + "the tracker converts them to 8-bit grey on every load")
    }

    // MARK: Ground truth

    @Test func headerOnlyGroundTruthIsAnError() throws {
        let (d, root) = try dataset(cam0: rows(3), imu: Fixtures.imuRows(40), groundTruth: [])
        defer { try? FileManager.default.removeItem(at: root) }
        let expected = "mav0/state_groundtruth_estimate0/data.csv: has 0 usable ground-truth rows; at least 2 are needed"
        #expect(message { _ = try d.groundTruth() } == expected)
        #expect(message { _ = try GroundTruthPoses(dataset: d) } == expected)
        #expect(message { try d.validate() } == expected)
    }
}
