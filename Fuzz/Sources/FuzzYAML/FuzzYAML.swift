import CFuzzDriver
import FuzzSupport
import ParallaxDatasets

// Fuzzes sensor.yaml parsing: the nesting cap, Yams, the OpenCV-YAML field readers and the
// plausibility bounds of camera and IMU calibrations.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzYAML(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = FuzzInput.text(data, size)
    if let camera = try? CameraCalibration(yamlText: text, name: "cam0", file: "cam0/sensor.yaml") {
        // What every reader of a calibration uses next.
        _ = camera.T_body_camera.inverse
    }
    _ = try? IMUCalibration(yamlText: text, name: "imu0", file: "imu0/sensor.yaml")
    return 0
}

/// The entry point SwiftPM links as `main`: libFuzzer's driver with this target's callback.
@_cdecl("FuzzYAML_main")
public func fuzzYAMLMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    pxfuzz_run(argc, argv, fuzzYAML)
}
