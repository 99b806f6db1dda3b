import CFuzzDriver
import FuzzSupport
import ParallaxSceneGraph

// Fuzzes the scene JSON reader (syntax positions, structure, numbers, references). The input is
// scene.json in a scratch folder whose assets/ holds a copy of Scenes/assets, so references
// like the shipped scenes' parse further; the scene may reference nothing outside that folder.

private let scratch = ScratchFolder.withSceneAssets("scene", in: "assets")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScene(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let url = scratch.write(FuzzInput.bytes(data, size), to: "scene.json")
    _ = try? Scene.load(contentsOf: url)
    return 0
}

/// The entry point SwiftPM links as `main`: libFuzzer's driver with this target's callback.
@_cdecl("FuzzScene_main")
public func fuzzSceneMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    pxfuzz_run(argc, argv, fuzzScene)
}
