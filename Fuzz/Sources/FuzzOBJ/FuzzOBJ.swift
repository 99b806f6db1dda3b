import CFuzzDriver
import FuzzSupport
import ParallaxSceneGraph

// Fuzzes the OBJ and MTL readers. One input carries both files: the text before the first line
// "%%MTL" is model.obj, the rest is m.mtl (which the OBJ may pull in with `mtllib m.mtl`).

private let scratch = ScratchFolder.withSceneAssets("obj", in: ".")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOBJ(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let (obj, mtl) = FuzzInput.split(FuzzInput.bytes(data, size), at: "\n%%MTL\n")
    scratch.write(mtl, to: "m.mtl")
    let url = scratch.write(obj, to: "model.obj")
    _ = try? OBJLoader.load(contentsOf: url)
    return 0
}

/// The entry point SwiftPM links as `main`: libFuzzer's driver with this target's callback.
@_cdecl("FuzzOBJ_main")
public func fuzzOBJMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    pxfuzz_run(argc, argv, fuzzOBJ)
}
