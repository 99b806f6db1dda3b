import Foundation

extension GLTFReader {
    static func componentSize(_ type: Int) -> Int? {
        switch type { case 5120, 5121: 1; case 5122, 5123: 2; case 5125, 5126: 4; default: nil }
    }
    static func componentCount(_ type: String) -> Int? {
        ["SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT2": 4, "MAT3": 9, "MAT4": 16][type]
    }

    /// Reads one component as a Float; normalised integers map to 0…1 / -1…1 (spec §3.11).
    static func component(_ b: [UInt8], _ o: Int, _ type: Int, normalized: Bool) -> Float {
        switch type {
        case 5120: let v = Int8(bitPattern: b[o]); return normalized ? max(Float(v) / 127, -1) : Float(v)
        case 5121: return normalized ? Float(b[o]) / 255 : Float(b[o])
        case 5122: let v = Int16(bitPattern: UInt16(b[o]) | UInt16(b[o + 1]) << 8); return normalized ? max(Float(v) / 32767, -1) : Float(v)
        case 5123: let v = UInt16(b[o]) | UInt16(b[o + 1]) << 8; return normalized ? Float(v) / 65535 : Float(v)
        case 5125: let v = UInt32(b[o]) | UInt32(b[o + 1]) << 8 | UInt32(b[o + 2]) << 16 | UInt32(b[o + 3]) << 24; return normalized ? Float(Double(v) / 4_294_967_295) : Float(v)
        default: return Float(bitPattern: UInt32(b[o]) | UInt32(b[o + 1]) << 8 | UInt32(b[o + 2]) << 16 | UInt32(b[o + 3]) << 24)
        }
    }

    static func unsigned(_ b: [UInt8], _ o: Int, _ type: Int) -> UInt32 {
        switch type {
        case 5121: UInt32(b[o])
        case 5123: UInt32(b[o]) | UInt32(b[o + 1]) << 8
        default: UInt32(b[o]) | UInt32(b[o + 1]) << 8 | UInt32(b[o + 2]) << 16 | UInt32(b[o + 3]) << 24
        }
    }

    /// Accessor `i` as `count` rows of `components` floats (sparse substitution applied).
    mutating func floats(_ i: Int, field: String) throws -> (values: [Float], components: Int) {
        guard let list = doc.accessors, list.indices.contains(i) else { throw fail(field, "accessor \(i) does not exist") }
        let a = list[i]
        let af = "accessors[\(i)]"
        guard let cs = Self.componentSize(a.componentType) else { throw fail("\(af).componentType", "unknown component type \(a.componentType)") }
        guard let n = Self.componentCount(a.type) else { throw fail("\(af).type", "unknown type \(a.type)") }
        guard a.count >= 0, a.count <= OBJLoader.maxElements else { throw fail("\(af).count", "\(a.count) is out of range") }
        // A negative offset would index before the buffer view (an out-of-range trap, not an error).
        for (key, offset) in [("byteOffset", a.byteOffset), ("sparse.indices.byteOffset", a.sparse?.indices.byteOffset),
                              ("sparse.values.byteOffset", a.sparse?.values.byteOffset)] {
            if let offset, offset < 0 { throw fail("\(af).\(key)", "\(offset) must not be negative") }
        }
        var out = [Float](repeating: 0, count: a.count * n)
        if let bv = a.bufferView {
            let v = try view(bv, field: "\(af).bufferView")
            let stride = v.stride ?? cs * n
            let start = v.offset + (a.byteOffset ?? 0)
            if a.count > 0 {
                let end = start + (a.count - 1) * stride + cs * n
                guard stride >= cs * n, end <= v.offset + v.length else { throw fail(af, "reads past the end of bufferView \(bv)") }
            }
            for r in 0..<a.count {
                for c in 0..<n { out[r * n + c] = Self.component(v.bytes, start + r * stride + c * cs, a.componentType, normalized: a.normalized ?? false) }
            }
        }
        if let s = a.sparse {
            guard s.count >= 0, s.count <= a.count, let ics = Self.componentSize(s.indices.componentType) else { throw fail("\(af).sparse", "bad sparse count or index type") }
            let iv = try view(s.indices.bufferView, field: "\(af).sparse.indices")
            let vv = try view(s.values.bufferView, field: "\(af).sparse.values")
            let io = iv.offset + (s.indices.byteOffset ?? 0), vo = vv.offset + (s.values.byteOffset ?? 0)
            guard io + s.count * ics <= iv.offset + iv.length, vo + s.count * cs * n <= vv.offset + vv.length else { throw fail("\(af).sparse", "reads past its buffer views") }
            for k in 0..<s.count {
                let target = Int(Self.unsigned(iv.bytes, io + k * ics, s.indices.componentType))
                guard target < a.count else { throw fail("\(af).sparse.indices", "index \(target) ≥ count \(a.count)") }
                for c in 0..<n { out[target * n + c] = Self.component(vv.bytes, vo + (k * n + c) * cs, a.componentType, normalized: a.normalized ?? false) }
            }
        }
        return (out, n)
    }

    /// An index accessor as UInt32, read exactly (not through Float, which would round indices
    /// above 2^24); sparse index accessors go through ``floats(_:field:)``.
    mutating func indices(_ i: Int, vertexCount: Int, field: String) throws -> [UInt32] {
        guard let list = doc.accessors, list.indices.contains(i) else { throw fail(field, "accessor \(i) does not exist") }
        let a = list[i]
        guard a.type == "SCALAR", [5121, 5123, 5125].contains(a.componentType) else {
            throw fail("accessors[\(i)]", "indices must be SCALAR of UNSIGNED_BYTE, UNSIGNED_SHORT or UNSIGNED_INT")
        }
        var out: [UInt32]
        if a.sparse == nil, let bv = a.bufferView {
            _ = try floats(i, field: field)   // validates ranges
            let v = try view(bv, field: "accessors[\(i)].bufferView")
            let cs = Self.componentSize(a.componentType)!
            let stride = v.stride ?? cs, start = v.offset + (a.byteOffset ?? 0)
            out = (0..<a.count).map { Self.unsigned(v.bytes, start + $0 * stride, a.componentType) }
        } else {
            out = try floats(i, field: field).values.map { UInt32(exactly: $0) ?? UInt32.max }
        }
        if let bad = out.first(where: { Int($0) >= vertexCount }) { throw fail("accessors[\(i)]", "index \(bad) out of range (\(vertexCount) vertices)") }
        return out
    }
}
