import Foundation

/// Helpers shared by the fuzz targets: turning libFuzzer's raw buffer into bytes or text, and a
/// private scratch folder for parsers that only read files.
public enum FuzzInput {
    /// The input as a byte array (libFuzzer may pass a null pointer with size 0).
    public static func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
        guard let data, size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// The input decoded as UTF-8, with invalid sequences repaired (as `String(decoding:)` does
    /// for a file read by the program).
    public static func text(_ data: UnsafePointer<UInt8>?, _ size: Int) -> String {
        String(decoding: bytes(data, size), as: UTF8.self)
    }

    /// Splits `bytes` at the first occurrence of `separator` (the second part is empty when the
    /// separator is absent); lets one input carry two files, e.g. an OBJ and its MTL.
    public static func split(_ bytes: [UInt8], at separator: String) -> ([UInt8], [UInt8]) {
        let sep = Array(separator.utf8)
        guard bytes.count >= sep.count, !sep.isEmpty else { return (bytes, []) }
        for i in 0...(bytes.count - sep.count) where bytes[i..<(i + sep.count)].elementsEqual(sep) {
            return (Array(bytes[..<i]), Array(bytes[(i + sep.count)...]))
        }
        return (bytes, [])
    }
}

/// A folder of this process's own under the temporary directory, created on first use.
public final class ScratchFolder: @unchecked Sendable {
    /// The folder.
    public let url: URL

    /// Creates `parallax-fuzz-<name>-<pid>` under the temporary directory.
    public init(_ name: String) {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("parallax-fuzz-\(name)-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Writes `bytes` to `relative` inside the folder (creating subfolders) and returns its URL.
    @discardableResult
    public func write(_ bytes: [UInt8], to relative: String) -> URL {
        let target = url.appendingPathComponent(relative)
        try? FileManager.default.createDirectory(at: target.deletingLastPathComponent(),
                                                 withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: target.path, contents: Data(bytes))
        return target
    }

    /// Writes UTF-8 text.
    @discardableResult
    public func write(_ text: String, to relative: String) -> URL { write(Array(text.utf8), to: relative) }
}

extension ScratchFolder {
    /// The repository's root folder, found from this source file's location.
    public static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// The repository's `Scenes/assets` folder.
    public static let sceneAssets = repository.appendingPathComponent("Scenes/assets")

    /// A scratch folder `name` holding a copy of `Scenes/assets` in `relative`.
    public static func withSceneAssets(_ name: String, in relative: String = ".") -> ScratchFolder {
        let folder = ScratchFolder(name)
        folder.copySceneAssets(to: relative)
        return folder
    }

    /// Copies every file of `Scenes/assets` into `relative` inside the folder, so that inputs
    /// grown from the shipped scenes find the meshes, buffers and textures they reference.
    public func copySceneAssets(to relative: String) {
        let fm = FileManager.default
        let target = url.appendingPathComponent(relative)
        try? fm.createDirectory(at: target, withIntermediateDirectories: true)
        for name in (try? fm.contentsOfDirectory(atPath: Self.sceneAssets.path)) ?? [] {
            try? fm.copyItem(at: Self.sceneAssets.appendingPathComponent(name), to: target.appendingPathComponent(name))
        }
    }
}

/// CRC-32 (IEEE, reflected 0xEDB88320), bit by bit: the harnesses' own copy of the file formats'
/// checksum, so they can reseal mutated inputs.
public func crc32(_ bytes: [UInt8]) -> UInt32 {
    var c: UInt32 = 0xFFFF_FFFF
    for b in bytes {
        c ^= UInt32(b)
        for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    }
    return c ^ 0xFFFF_FFFF
}
