import CFuzzDriver
import Foundation
import FuzzSupport
import ParallaxSceneGraph

// Fuzzes the scene JSON reader (syntax positions, structure, numbers, references). The input is
// scene.json in a scratch folder whose assets/ holds a copy of Scenes/assets, so references
// like the shipped scenes' parse further; the scene may reference nothing outside that folder.

private let scratch = ScratchFolder.withSceneAssets("scene", in: "assets")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScene(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput.bytes(data, size)
    if asksForLargeProceduralTexture(bytes) { return 0 }
    let url = scratch.write(bytes, to: "scene.json")
    _ = try? Scene.load(contentsOf: url)
    return 0
}

/// Largest procedural texture edge (px) this target renders.
private let proceduralLimit = 256.0

/// True when the input is JSON asking for a procedural texture over ``proceduralLimit`` pixels.
/// Such a scene is valid (up to 4096 px), but the loader renders the texture, and in this debug
/// build with the address sanitizer an 861 px one took over the 10 s unit limit: the fuzzer then
/// reports a timeout in texture rendering, not in the reader it is here to test. The size's range
/// check has its own test (`BadInputTests`, a size of 100000).
private func asksForLargeProceduralTexture(_ bytes: [UInt8]) -> Bool {
    guard let root = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]) else { return false }
    func visit(_ value: Any) -> Bool {
        if let object = value as? [String: Any] {
            if object["procedural"] != nil, let edge = object["size"] as? Double, edge > proceduralLimit { return true }
            return object.values.contains(where: visit)
        }
        if let array = value as? [Any] { return array.contains(where: visit) }
        return false
    }
    return visit(root)
}

/// The entry point SwiftPM links as `main`: libFuzzer's driver with this target's callback.
@_cdecl("FuzzScene_main")
public func fuzzSceneMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    pxfuzz_run(argc, argv, fuzzScene)
}
