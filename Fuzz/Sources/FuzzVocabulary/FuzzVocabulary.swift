import CFuzzDriver
import FuzzSupport
import ParallaxMapping

// Fuzzes the vocabulary reader (`VocabularyFile.decode`, what `vocabulary info`, `info FILE.voc` and
// `PARALLAX_VOCABULARY` use). The file ends with a CRC-32 of everything before it, so the input is
// decoded as it is and once more with that checksum recomputed, which lets mutations reach the
// tree and weight checks. A vocabulary that loads is used: descriptors walk the tree to a word and
// a bag of words is scored against itself.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVocabulary(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput.bytes(data, size)
    exercise(bytes)
    if bytes.count >= 4 {
        var resealed = bytes
        let crc = crc32(Array(bytes.dropLast(4)))
        for i in 0..<4 { resealed[bytes.count - 4 + i] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(i))) }
        exercise(resealed)
    }
    return 0
}

/// Decodes `bytes` and, when that succeeds, looks words up and scores a bag.
func exercise(_ bytes: [UInt8]) {
    guard let vocabulary = try? VocabularyFile.decode(bytes) else { return }
    var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next() -> UInt64 {
        seed = seed &* 6364136223846793005 &+ 1442695040888963407
        return seed
    }
    let descriptors = (0..<8).map { _ in BinaryDescriptor(next(), next(), next(), next()) }
    for d in descriptors { _ = vocabulary.path(to: vocabulary.word(for: d)) }
    let bag = vocabulary.bagOfWords(descriptors)
    _ = bag.score(bag)
}

/// The entry point SwiftPM links as `main`: libFuzzer's driver with this target's callback.
@_cdecl("FuzzVocabulary_main")
public func fuzzVocabularyMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    pxfuzz_run(argc, argv, fuzzVocabulary)
}
