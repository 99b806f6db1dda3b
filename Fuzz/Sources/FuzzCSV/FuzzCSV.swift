import CFuzzDriver
import FuzzSupport
import Foundation
import ParallaxDatasets
import ParallaxImaging

// Fuzzes the EuRoC CSV readers (LineReader, CSVRow, RecordStream and the row parsers of every
// stream): the input becomes each data.csv of a small dataset whose calibration is fixed, which
// is then validated strictly and leniently and summarised like `parallax info`.

private let dataset: URL = {
    let scratch = ScratchFolder("csv")
    let camera = """
        %YAML:1.0
        sensor_type: camera
        T_BS:
          cols: 4
          rows: 4
          data: [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0]
        rate_hz: 20
        resolution: [16, 8]
        camera_model: pinhole
        intrinsics: [20.0, 20.0, 8.0, 4.0]
        distortion_model: radial-tangential
        distortion_coefficients: [0.0, 0.0, 0.0, 0.0]
        """
    scratch.write(camera, to: "mav0/cam0/sensor.yaml")
    // The bundled sample's IMU calibration.
    let imu = ScratchFolder.repository.appendingPathComponent("Datasets/sample/mav0/imu0/sensor.yaml")
    scratch.write((try? [UInt8](Data(contentsOf: imu))) ?? [], to: "mav0/imu0/sensor.yaml")
    // Rows may name "a.png" (a valid image) or anything else (missing: a clear error).
    let png = (try? PNG.encode(.gray8(GrayImage(width: 16, height: 8, fill: 7)))) ?? []
    scratch.write(png, to: "mav0/cam0/data/a.png")
    return scratch.url
}()

/// The dataset opened once per policy (opening parses the YAML files, which the input never changes).
private let opened: [EuRoCDataset] = [ReadPolicy.strict, .lenient].compactMap { try? EuRoCDataset(url: dataset, policy: $0) }

private let files = ["cam0/data.csv", "imu0/data.csv", "state_groundtruth_estimate0/data.csv", "leica0/data.csv"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSV(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput.bytes(data, size)
    for file in files {
        FileManager.default.createFile(atPath: dataset.appendingPathComponent("mav0/\(file)").path,
                                       contents: Data(input))
    }
    for d in opened {
        _ = try? d.validate()
        _ = try? DatasetSummary(d)
    }
    return 0
}

/// The entry point SwiftPM links as `main`: libFuzzer's driver with this target's callback.
@_cdecl("FuzzCSV_main")
public func fuzzCSVMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    pxfuzz_run(argc, argv, fuzzCSV)
}
