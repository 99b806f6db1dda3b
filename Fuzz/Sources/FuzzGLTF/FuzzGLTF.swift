import CFuzzDriver
import FuzzSupport
import ParallaxSceneGraph

// Fuzzes the glTF 2.0 loader: JSON .gltf and binary .glb (chosen by the input's magic),
// accessors, buffer views, node transforms, materials and references inside the folder.

private let scratch = ScratchFolder.withSceneAssets("gltf", in: ".")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGLTF(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput.bytes(data, size)
    let isBinary = bytes.starts(with: Array("glTF".utf8))
    let url = scratch.write(bytes, to: isBinary ? "model.glb" : "model.gltf")
    _ = try? GLTFLoader.load(contentsOf: url)
    return 0
}

/// The entry point SwiftPM links as `main`: libFuzzer's driver with this target's callback.
@_cdecl("FuzzGLTF_main")
public func fuzzGLTFMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    pxfuzz_run(argc, argv, fuzzGLTF)
}
