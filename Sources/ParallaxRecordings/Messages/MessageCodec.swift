/// The serialization a message's bytes use.
public enum MessageEncoding: String, Sendable, Equatable {
    /// ROS 1 serialization: little-endian, packed, u32 lengths.
    case ros1
    /// OMG CDR as ROS 2 uses it: a 4-byte encapsulation header, then little-endian fields aligned to their size.
    case cdr

    /// The ROS version whose `Header` and `time` this encoding goes with.
    var rosVersion: ROSVersion { self == .ros1 ? .ros1 : .ros2 }
}

/// Decodes and encodes messages of one type by walking its parsed definition.
public struct MessageCodec: Sendable {
    /// The message type and everything it uses.
    public let schema: MessageSchema
    /// The wire format.
    public let encoding: MessageEncoding

    /// The number of elements any one array may claim (guards allocations against damaged lengths).
    static let maximumElements = 1 << 28

    /// A codec for `schema` in `encoding`.
    public init(schema: MessageSchema, encoding: MessageEncoding) {
        self.schema = schema
        self.encoding = encoding
    }

    /// Decodes one message from `bytes[range]`. Trailing bytes are allowed (ROS tools allow them too).
    func decode(_ bytes: [UInt8], _ range: Range<Int>) throws -> MessageFields {
        var cursor = ByteCursor(bytes, start: range.lowerBound, end: range.upperBound)
        var origin = range.lowerBound
        if encoding == .cdr {
            let header = try cursor.take(4, "the CDR encapsulation header")
            guard header[0] == 0, header[1] == 1 else {
                throw ByteError(truncated: false, description: header[1] == 0
                    ? "big-endian CDR is not supported" : "unsupported CDR representation \(header[0]) \(header[1])")
            }
            origin += 4
        }
        var reader = FieldReader(cursor: cursor, origin: origin, aligned: encoding == .cdr, schema: schema)
        return try reader.message(schema.root)
    }

    /// Decodes one message held entirely in `bytes`.
    public func decode(_ bytes: [UInt8]) throws -> MessageFields {
        do { return try decode(bytes, 0..<bytes.count) } catch let e as ByteError {
            throw RecordingError(.message, file: "", "\(schema.root): \(e.description)")
        }
    }

    /// Encodes `fields` (missing fields are written as zero, empty or default).
    public func encode(_ fields: MessageFields) throws -> [UInt8] {
        var writer = FieldWriter(aligned: encoding == .cdr, schema: schema)
        if encoding == .cdr { writer.buffer.append([0, 1, 0, 0]); writer.origin = 4 }
        try writer.message(schema.root, fields)
        return writer.buffer.bytes
    }
}

/// The decoding walk.
private struct FieldReader {
    var cursor: ByteCursor
    let origin: Int
    let aligned: Bool
    let schema: MessageSchema

    mutating func align(_ n: Int) throws {
        guard aligned, n > 1 else { return }
        let misalignment = (cursor.position - origin) % n
        if misalignment != 0 { try cursor.skip(n - misalignment, "alignment padding") }
    }

    mutating func message(_ name: String) throws -> MessageFields {
        let d = schema.definitions[name]!
        var out = MessageFields()
        out.names = d.fields.map(\.name)
        out.values.reserveCapacity(d.fields.count)
        for f in d.fields {
            do { out.values.append(try field(f)) } catch let e as ByteError {
                throw ByteError(truncated: e.truncated, description: "field '\(f.name)' of \(name): \(e.description)")
            }
        }
        return out
    }

    mutating func field(_ f: FieldDefinition) throws -> MessageValue {
        switch f.arity {
        case .single: return try element(f.type)
        case .fixed(let n): return try elements(f.type, count: n)
        case .sequence:
            try align(4)
            let n = Int(try cursor.u32("a sequence length"))
            guard n <= MessageCodec.maximumElements, n <= cursor.remaining else {
                throw ByteError(truncated: true, description: "sequence of \(n) elements runs past the message end")
            }
            return try elements(f.type, count: n)
        }
    }

    mutating func elements(_ type: FieldType, count: Int) throws -> MessageValue {
        if case .primitive(let p) = type, p.isByte {
            return .bytes(try cursor.take(count, "\(count) bytes"))
        }
        var values: [MessageValue] = []
        values.reserveCapacity(min(count, cursor.remaining))
        for _ in 0..<count { values.append(try element(type)) }
        return .array(values)
    }

    mutating func element(_ type: FieldType) throws -> MessageValue {
        switch type {
        case .message(let name): return .message(try message(name))
        case .primitive(let p): return try primitive(p)
        }
    }

    mutating func primitive(_ p: PrimitiveType) throws -> MessageValue {
        switch p {
        case .bool: return .bool(try cursor.u8() != 0)
        case .byte, .uint8, .char: return .uint(UInt64(try cursor.u8()))
        case .int8: return .int(Int64(Int8(bitPattern: try cursor.u8())))
        case .int16: try align(2); return .int(Int64(Int16(bitPattern: try cursor.u16())))
        case .uint16: try align(2); return .uint(UInt64(try cursor.u16()))
        case .int32: try align(4); return .int(Int64(Int32(bitPattern: try cursor.u32())))
        case .uint32: try align(4); return .uint(UInt64(try cursor.u32()))
        case .int64: try align(8); return .int(Int64(bitPattern: try cursor.u64()))
        case .uint64: try align(8); return .uint(try cursor.u64())
        case .float32: try align(4); return .float(Double(Float(bitPattern: try cursor.u32())))
        case .float64: try align(8); return .float(Double(bitPattern: try cursor.u64()))
        case .time:
            try align(4)
            return .message(MessageFields([("sec", .uint(UInt64(try cursor.u32()))), ("nsec", .uint(UInt64(try cursor.u32())))]))
        case .duration:
            try align(4)
            let s = Int32(bitPattern: try cursor.u32()), n = Int32(bitPattern: try cursor.u32())
            return .message(MessageFields([("sec", .int(Int64(s))), ("nsec", .int(Int64(n)))]))
        case .string:
            try align(4)
            let n = Int(try cursor.u32("a string length"))
            guard n <= cursor.remaining else {
                throw ByteError(truncated: true, description: "string of \(n) bytes runs past the message end")
            }
            // CDR counts and stores the terminating NUL; ROS 1 has none.
            let textLength = aligned && n > 0 ? n - 1 : n
            let text = try cursor.text(textLength, "string")
            if aligned && n > 0 { try cursor.skip(1, "string terminator") }
            return .string(text)
        }
    }
}

/// The encoding walk (the mirror of ``FieldReader``).
private struct FieldWriter {
    var buffer = ByteBuffer()
    var origin = 0
    let aligned: Bool
    let schema: MessageSchema

    init(aligned: Bool, schema: MessageSchema) {
        self.aligned = aligned
        self.schema = schema
    }

    mutating func align(_ n: Int) {
        guard aligned, n > 1 else { return }
        while (buffer.count - origin) % n != 0 { buffer.u8(0) }
    }

    mutating func message(_ name: String, _ fields: MessageFields) throws {
        for f in schema.definitions[name]!.fields {
            let v = fields[f.name]
            switch f.arity {
            case .single: try element(f.type, v, field: f.name)
            case .fixed(let n): try elements(f.type, v, count: n, field: f.name)
            case .sequence:
                let n: Int
                switch v {
                case .bytes(let b): n = b.count
                case .array(let a): n = a.count
                case nil: n = 0
                default: throw EncodeError("field '\(f.name)' of \(name) must be an array")
                }
                align(4)
                buffer.u32(UInt32(n))
                try elements(f.type, v, count: n, field: f.name)
            }
        }
    }

    mutating func elements(_ type: FieldType, _ v: MessageValue?, count: Int, field: String) throws {
        switch v {
        case .bytes(let b):
            guard b.count == count else { throw EncodeError("field '\(field)' needs \(count) bytes, has \(b.count)") }
            buffer.append(b)
        case .array(let a):
            guard a.count == count else { throw EncodeError("field '\(field)' needs \(count) elements, has \(a.count)") }
            for e in a { try element(type, e, field: field) }
        case nil:
            for _ in 0..<count { try element(type, nil, field: field) }
        default: throw EncodeError("field '\(field)' must be an array")
        }
    }

    mutating func element(_ type: FieldType, _ v: MessageValue?, field: String) throws {
        switch type {
        case .message(let name):
            if case .message(let inner)? = v { try message(name, inner) } else if v == nil { try message(name, MessageFields()) } else {
                throw EncodeError("field '\(field)' must be a \(name) message")
            }
        case .primitive(let p): try primitive(p, v, field: field)
        }
    }

    mutating func primitive(_ p: PrimitiveType, _ v: MessageValue?, field: String) throws {
        func integer() throws -> Int64 {
            guard let v else { return 0 }
            if case .uint(let u) = v { return Int64(truncatingIfNeeded: u) }
            guard let i = v.int64 else { throw EncodeError("field '\(field)' must be an integer") }
            return i
        }
        func real() throws -> Double {
            guard let v else { return 0 }
            guard let d = v.double else { throw EncodeError("field '\(field)' must be a number") }
            return d
        }
        switch p {
        case .bool, .byte, .uint8, .char, .int8: buffer.u8(UInt8(truncatingIfNeeded: try integer()))
        case .int16, .uint16: align(2); buffer.u16(UInt16(truncatingIfNeeded: try integer()))
        case .int32, .uint32: align(4); buffer.u32(UInt32(truncatingIfNeeded: try integer()))
        case .int64: align(8); buffer.u64(UInt64(bitPattern: try integer()))
        case .uint64:
            align(8)
            if case .uint(let u)? = v { buffer.u64(u) } else { buffer.u64(UInt64(bitPattern: try integer())) }
        case .float32: align(4); buffer.u32(Float(try real()).bitPattern)
        case .float64: align(8); buffer.u64(try real().bitPattern)
        case .time, .duration:
            align(4)
            var sec: Int64 = 0, nsec: Int64 = 0
            if case .message(let m)? = v { sec = m["sec"]?.int64 ?? 0; nsec = m["nsec"]?.int64 ?? 0 }
            buffer.u32(UInt32(truncatingIfNeeded: sec))
            buffer.u32(UInt32(truncatingIfNeeded: nsec))
        case .string:
            var text = ""
            if case .string(let s)? = v { text = s } else if v != nil { throw EncodeError("field '\(field)' must be a string") }
            let utf8 = Array(text.utf8)
            align(4)
            buffer.u32(UInt32(utf8.count + (aligned ? 1 : 0)))
            buffer.append(utf8)
            if aligned { buffer.u8(0) }
        }
    }
}

/// A value that does not fit the field it is written to (a programming error in the caller).
struct EncodeError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
