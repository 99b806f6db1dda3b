/// A decoded message field: what a definition-driven decoder produces and an encoder consumes.
public enum MessageValue: Sendable, Equatable {
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case float(Double)
    case string(String)
    /// An array of one-byte elements (`uint8[] data`), kept as raw bytes.
    case bytes([UInt8])
    case array([MessageValue])
    case message(MessageFields)

    /// The value as a floating-point number, when it is numeric.
    public var double: Double? {
        switch self {
        case .float(let v): v
        case .int(let v): Double(v)
        case .uint(let v): Double(v)
        default: nil
        }
    }

    /// The value as a signed integer, when it is an integer that fits.
    public var int64: Int64? {
        switch self {
        case .int(let v): v
        case .uint(let v): Int64(exactly: v)
        case .bool(let b): b ? 1 : 0
        default: nil
        }
    }
}

/// A message's fields in definition order, looked up by name.
public struct MessageFields: Sendable, Equatable {
    /// Field names, in order.
    public var names: [String]
    /// Field values, parallel to ``names``.
    public var values: [MessageValue]

    /// Creates fields from name–value pairs.
    public init(_ pairs: [(String, MessageValue)] = []) {
        names = pairs.map(\.0)
        values = pairs.map(\.1)
    }

    /// The value of field `name` (nil when absent). Setting appends a new field or replaces one.
    public subscript(name: String) -> MessageValue? {
        get { names.firstIndex(of: name).map { values[$0] } }
        set {
            if let i = names.firstIndex(of: name) {
                if let newValue { values[i] = newValue } else { names.remove(at: i); values.remove(at: i) }
            } else if let newValue {
                names.append(name)
                values.append(newValue)
            }
        }
    }

    /// The value at a dotted path (`header.stamp.sec`).
    public func value(at path: String) -> MessageValue? {
        var current = self
        let parts = path.split(separator: ".")
        for (i, part) in parts.enumerated() {
            guard let v = current[String(part)] else { return nil }
            if i == parts.count - 1 { return v }
            guard case .message(let inner) = v else { return nil }
            current = inner
        }
        return nil
    }
}
