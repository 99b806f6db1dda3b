import CFuzzDriver
import FuzzSupport
import ParallaxImaging

// Fuzzes the PNG reader: the IHDR check, the libpng wall and the direct zlib path, with and
// without checksums (replay skips them, so corrupt data must fail cleanly without them too).

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNG(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput.bytes(data, size)
    _ = try? PNG.parseHeader(bytes, name: "fuzz.png")
    for checksums in [PNGChecksumPolicy.verify, .skip] {
        if let image = try? PNG.decode(bytes, name: "fuzz.png", checksums: checksums) {
            // What replay does with every frame.
            _ = image.toGray8()
        }
    }
    return 0
}

/// The entry point SwiftPM links as `main`: libFuzzer's driver with this target's callback.
@_cdecl("FuzzPNG_main")
public func fuzzPNGMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    pxfuzz_run(argc, argv, fuzzPNG)
}
