import CFuzzDriver
import FuzzSupport
import ParallaxDatasets

// Fuzzes the trajectory readers: TUM (`t tx ty tz qx qy qz qw`), the EuRoC CSV estimate format
// and the format detection that picks between them.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTrajectory(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = FuzzInput.text(data, size)
    _ = try? TUMTrajectory.parse(text, name: "fuzz.txt")
    _ = try? EuRoCTrajectory.parse(text, name: "fuzz.csv")
    return 0
}

/// The entry point SwiftPM links as `main`: libFuzzer's driver with this target's callback.
@_cdecl("FuzzTrajectory_main")
public func fuzzTrajectoryMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    pxfuzz_run(argc, argv, fuzzTrajectory)
}
