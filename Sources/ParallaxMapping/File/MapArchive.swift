import Foundation
import ParallaxMath

/// A user anchor stored in a map: identifier, optional name and its 4×4 transform in the AR world.
public struct ArchivedAnchor: Sendable, Equatable {
    /// The anchor's identifier.
    public var identifier: UUID
    /// Its name, if any.
    public var name: String?
    /// `T_A_anchor` (AR world), column-major 4×4.
    public var transform: Matrix4

    /// Creates an archived anchor.
    public init(identifier: UUID, name: String?, transform: Matrix4) {
        self.identifier = identifier
        self.name = name
        self.transform = transform
    }
}

/// Everything a world-map file holds: keyframes with points and descriptors, the AR world's
/// placement `T_A_W`, and the user's anchors. See docs/world-maps.md for the byte layout.
public struct MapArchive: Sendable, Equatable {
    /// The keyframes (poses in the map world `W`, z up).
    public var keyframes: KeyframeDatabase
    /// `T_A_W`: map world → AR world of the session that saved it.
    public var T_A_W: RigidTransform
    /// User anchors (AR world).
    public var anchors: [ArchivedAnchor]

    /// Creates an archive.
    public init(keyframes: KeyframeDatabase, T_A_W: RigidTransform, anchors: [ArchivedAnchor]) {
        self.keyframes = keyframes
        self.T_A_W = T_A_W
        self.anchors = anchors
    }
}

/// Why a map file was refused.
public struct MapFileError: Error, CustomStringConvertible, Equatable {
    /// What is wrong, naming the part of the file.
    public let description: String
    /// Creates an error.
    public init(_ description: String) { self.description = description }
}

/// Reads and writes ``MapArchive`` files (format version 1, little-endian):
/// header `PXWMAP\r\n` (8 bytes), `UInt32` version, `UInt32` section count; then per section a
/// 4-byte tag, `UInt64` payload length, `UInt32` CRC-32 of the payload, the payload. Sections:
/// `META` (T_A_W), `KFRM` (keyframes, points, descriptors), `ANCH` (anchors).
public enum MapFile {
    /// The 8 magic bytes.
    public static let magic: [UInt8] = Array("PXWMAP\r\n".utf8)
    /// The version this code writes and the newest it reads.
    public static let version: UInt32 = 1
    /// Upper bounds checked before any allocation.
    static let maximumKeyframes = 1_000_000, maximumPoints = 100_000, maximumAnchors = 100_000, maximumName = 4096

    /// Serialises `archive`.
    public static func encode(_ archive: MapArchive) -> [UInt8] {
        var meta = ByteWriter()
        meta.transform(archive.T_A_W)
        var frames = ByteWriter()
        frames.u64(UInt64(archive.keyframes.keyframes.count))
        for k in archive.keyframes.keyframes {
            frames.i64(Int64(k.id))
            frames.f64(k.timestamp)
            frames.transform(k.T_world_camera)
            frames.u64(UInt64(k.points.count))
            for p in k.points {
                frames.i64(Int64(p.featureID))
                frames.vector(p.position_world)
                frames.f64(p.pixel.x)
                frames.f64(p.pixel.y)
                for w in p.descriptor.wordArray { frames.u64(w) }
            }
        }
        var anchors = ByteWriter()
        anchors.u64(UInt64(archive.anchors.count))
        for a in archive.anchors {
            anchors.bytes(Array(a.identifier.uuidString.utf8))
            anchors.bytes(Array((a.name ?? "").utf8))
            anchors.u8(a.name == nil ? 0 : 1)
            for c in 0..<4 { for r in 0..<4 { anchors.f64(a.transform[r, c]) } }
        }
        var out = ByteWriter()
        out.data += magic
        out.u32(version)
        out.u32(3)
        for (tag, payload) in [("META", meta.data), ("KFRM", frames.data), ("ANCH", anchors.data)] {
            out.data += Array(tag.utf8)
            out.u64(UInt64(payload.count))
            out.u32(CRC32.checksum(payload))
            out.data += payload
        }
        return out.data
    }

    /// Parses a map file, checking magic, version, section sizes and checksums.
    /// - Throws: ``MapFileError`` naming what is wrong.
    public static func decode(_ bytes: [UInt8]) throws -> MapArchive {
        var r = ByteReader(bytes, context: "header")
        guard bytes.count >= 16, Array(bytes[0..<8]) == magic else {
            throw MapFileError("not a Parallax world map (magic bytes differ)")
        }
        r.offset = 8
        let v = try r.u32()
        guard v == version else {
            throw MapFileError("world map format version \(v) is not supported (this build reads version \(version))")
        }
        let count = try r.u32()
        guard count <= 64 else { throw MapFileError("header: \(count) sections is implausible") }
        var sections: [String: [UInt8]] = [:]
        for _ in 0..<count {
            let tag = String(decoding: try r.take(4), as: UTF8.self)
            let length = try r.u64()
            let crc = try r.u32()
            guard length <= UInt64(r.remaining) else {
                throw MapFileError("section \(tag): \(length) bytes declared, \(r.remaining) left (truncated file)")
            }
            let payload = try r.take(Int(length))
            guard CRC32.checksum(payload) == crc else { throw MapFileError("section \(tag): checksum mismatch (damaged file)") }
            sections[tag] = payload
        }
        guard let meta = sections["META"], let frames = sections["KFRM"], let anchors = sections["ANCH"] else {
            throw MapFileError("missing section (needs META, KFRM and ANCH)")
        }
        var m = ByteReader(meta, context: "META")
        let T_A_W = try m.transform()
        return MapArchive(keyframes: try decodeKeyframes(frames), T_A_W: T_A_W, anchors: try decodeAnchors(anchors))
    }

    private static func decodeKeyframes(_ bytes: [UInt8]) throws -> KeyframeDatabase {
        var r = ByteReader(bytes, context: "KFRM")
        let n = try r.count(maximum: maximumKeyframes, minimumBytesEach: 80)
        var keyframes: [Keyframe] = []
        keyframes.reserveCapacity(n)
        for _ in 0..<n {
            let id = Int(try r.i64()), t = try r.f64(), pose = try r.transform()
            let m = try r.count(maximum: maximumPoints, minimumBytesEach: 72)
            var points: [KeyframePoint] = []
            points.reserveCapacity(m)
            for _ in 0..<m {
                let fid = Int(try r.i64()), p = try r.vector(), px = Vector2(try r.f64(), try r.f64())
                let d = BinaryDescriptor(try r.u64(), try r.u64(), try r.u64(), try r.u64())
                points.append(KeyframePoint(featureID: fid, position_world: p, pixel: px, descriptor: d))
            }
            keyframes.append(Keyframe(id: id, timestamp: t, T_world_camera: pose, points: points))
        }
        return KeyframeDatabase(keyframes: keyframes)
    }

    private static func decodeAnchors(_ bytes: [UInt8]) throws -> [ArchivedAnchor] {
        var r = ByteReader(bytes, context: "ANCH")
        let n = try r.count(maximum: maximumAnchors, minimumBytesEach: 145)
        var out: [ArchivedAnchor] = []
        for _ in 0..<n {
            let idText = String(decoding: try r.bytes(maximum: 64), as: UTF8.self)
            guard let id = UUID(uuidString: idText) else { throw MapFileError("ANCH: bad anchor identifier '\(idText)'") }
            let name = String(decoding: try r.bytes(maximum: maximumName), as: UTF8.self)
            let hasName = try r.u8() == 1
            var values: [Double] = []
            for _ in 0..<16 { values.append(try r.f64()) }
            let rowMajor = (0..<16).map { values[($0 % 4) * 4 + $0 / 4] }
            out.append(ArchivedAnchor(identifier: id, name: hasName ? name : nil, transform: Matrix4(rowMajor: rowMajor)))
        }
        return out
    }
}
