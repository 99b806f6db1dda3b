/// A built-in field type of the ROS message language.
public enum PrimitiveType: String, Sendable, CaseIterable {
    case bool, byte, char, int8, uint8, int16, uint16, int32, uint32, int64, uint64, float32, float64, string
    /// ROS 1 `time` and `duration` (two 32-bit integers); ROS 2 spells them as messages.
    case time, duration

    /// Bytes on the wire for fixed-size types (nil for `string`).
    var size: Int? {
        switch self {
        case .bool, .byte, .char, .int8, .uint8: 1
        case .int16, .uint16: 2
        case .int32, .uint32, .float32: 4
        case .int64, .uint64, .float64, .time, .duration: 8
        case .string: nil
        }
    }

    /// True for the one-byte types whose arrays are kept as raw bytes (`uint8[] data`).
    var isByte: Bool { self == .uint8 || self == .int8 || self == .byte || self == .char }
}

/// A field's type: a built-in, or a message defined by its full name (`geometry_msgs/Vector3`).
public enum FieldType: Sendable, Equatable {
    case primitive(PrimitiveType)
    case message(String)
}

/// Whether a field is one value, a fixed-length array or a length-prefixed sequence.
public enum FieldArity: Sendable, Equatable {
    case single
    case fixed(Int)
    case sequence
}

/// One field of a message definition (constants are dropped: they are not serialized).
public struct FieldDefinition: Sendable, Equatable {
    /// The field name.
    public let name: String
    /// The element type.
    public let type: FieldType
    /// Single value or array.
    public let arity: FieldArity
}

/// A message's fields, in serialization order.
public struct MessageDefinition: Sendable, Equatable {
    /// The full name, `package/Type`.
    public let name: String
    /// The fields.
    public let fields: [FieldDefinition]
}

/// Which wire format a definition's `Header` and `time` mean: ROS 1 (`seq`, `time stamp`) or ROS 2.
public enum ROSVersion: Sendable, Equatable {
    case ros1, ros2
}

/// A message type with every type it uses, parsed from the definition text a bag connection or an
/// MCAP schema carries (the root definition, then `MSG: package/Type` sections separated by lines
/// of `=`), so Parallax reads the layout the file states instead of assuming one.
public struct MessageSchema: Sendable {
    /// The root type's full name.
    public let root: String
    /// Every definition by full name.
    public let definitions: [String: MessageDefinition]

    /// The root definition.
    public var rootDefinition: MessageDefinition { definitions[root]! }

    /// The longest chain of nested messages accepted (a guard against cyclic definitions).
    static let maximumDepth = 32

    /// Parses `text`, the definition of `typeName` (`sensor_msgs/Imu` or `sensor_msgs/msg/Imu`).
    /// Types the text uses but does not define are taken from the few built-ins ROS tools also
    /// leave out (`std_msgs/Header`, `builtin_interfaces/Time` and `Duration`).
    public init(typeName: String, text: String, version: ROSVersion) throws(DefinitionError) {
        let root = Self.normalize(typeName)
        guard root.contains("/") else { throw DefinitionError("type name '\(typeName)' has no package") }
        var sections: [(String, [Substring])] = [(root, [])]
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingSpaces
            if trimmed.count >= 3 && trimmed.allSatisfy({ $0 == "=" }) {
                sections.append(("", []))
            } else if trimmed.hasPrefix("MSG:"), sections[sections.count - 1].1.allSatisfy({ $0.trimmingSpaces.isEmpty }) {
                let name = trimmed.dropFirst(4).trimmingSpaces
                sections[sections.count - 1].0 = Self.normalize(String(name))
            } else {
                sections[sections.count - 1].1.append(line)
            }
        }
        var definitions: [String: MessageDefinition] = [:]
        for (name, lines) in sections where !name.isEmpty {
            definitions[name] = try Self.parseFields(name: name, lines: lines, version: version)
        }
        for (name, builtin) in Self.builtins(version) where definitions[name] == nil {
            definitions[name] = try Self.parseFields(name: name, lines: builtin.split(separator: "\n"), version: version)
        }
        self.root = root
        self.definitions = definitions
        try check(root, depth: 0)
    }

    private func check(_ name: String, depth: Int) throws(DefinitionError) {
        guard depth < Self.maximumDepth else { throw DefinitionError("messages nest deeper than \(Self.maximumDepth) levels (a cycle?)") }
        guard let d = definitions[name] else { throw DefinitionError("type '\(name)' is used but not defined") }
        for f in d.fields {
            if case .message(let inner) = f.type {
                guard definitions[inner] != nil else {
                    throw DefinitionError("field '\(f.name)' of \(name) has type '\(inner)', which is not defined")
                }
                try check(inner, depth: depth + 1)
            }
        }
    }

    /// `pkg/msg/Type` → `pkg/Type`.
    static func normalize(_ name: String) -> String {
        let parts = name.split(separator: "/")
        if parts.count == 3 && parts[1] == "msg" { return "\(parts[0])/\(parts[2])" }
        return name
    }

    private static func builtins(_ version: ROSVersion) -> [(String, String)] {
        switch version {
        case .ros1:
            return [("std_msgs/Header", "uint32 seq\ntime stamp\nstring frame_id")]
        case .ros2:
            return [("std_msgs/Header", "builtin_interfaces/Time stamp\nstring frame_id"),
                    ("builtin_interfaces/Time", "int32 sec\nuint32 nanosec"),
                    ("builtin_interfaces/Duration", "int32 sec\nuint32 nanosec")]
        }
    }

    private static func parseFields(name: String, lines: [Substring], version: ROSVersion) throws(DefinitionError) -> MessageDefinition {
        let package = name.split(separator: "/").first.map(String.init) ?? ""
        var fields: [FieldDefinition] = []
        for (i, raw) in lines.enumerated() {
            let line = (raw.firstIndex(of: "#").map { raw[..<$0] } ?? raw).trimmingSpaces
            if line.isEmpty { continue }
            let tokens = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard tokens.count >= 2 else { throw DefinitionError("\(name) line \(i + 1): '\(line)' is not 'type name'") }
            // `type NAME=value` is a constant: not serialized. (A ROS 2 default, `type name value`,
            // has no `=` right after the name.)
            let afterType = line[line.index(line.startIndex, offsetBy: tokens[0].count)...].trimmingSpaces
            let afterName = afterType.drop(while: { $0 != " " && $0 != "\t" && $0 != "=" }).trimmingSpaces
            if afterName.hasPrefix("=") { continue }
            let (type, arity) = try parseType(tokens[0], in: package, version: version, context: "\(name) line \(i + 1)")
            let fieldName = String(afterType.prefix(while: { $0 != " " && $0 != "\t" }))
            guard fieldName.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
                throw DefinitionError("\(name) line \(i + 1): '\(fieldName)' is not a field name")
            }
            fields.append(FieldDefinition(name: fieldName, type: type, arity: arity))
        }
        return MessageDefinition(name: name, fields: fields)
    }

    private static func parseType(_ token: Substring, in package: String, version: ROSVersion,
                                  context: String) throws(DefinitionError) -> (FieldType, FieldArity) {
        var base = token
        var arity = FieldArity.single
        if let open = token.firstIndex(of: "[") {
            guard token.last == "]" else { throw DefinitionError("\(context): bad array type '\(token)'") }
            base = token[..<open]
            let inside = token[token.index(after: open)..<token.index(before: token.endIndex)]
            if inside.isEmpty || inside.hasPrefix("<=") {
                arity = .sequence
            } else if let n = Int(inside), n >= 0, n <= 1 << 24 {
                arity = .fixed(n)
            } else {
                throw DefinitionError("\(context): bad array length in '\(token)'")
            }
        }
        // Bounded strings (`string<=10`) serialize like strings.
        if let bound = base.range(of: "<=") { base = base[..<bound.lowerBound] }
        if let p = PrimitiveType(rawValue: String(base)) { return (.primitive(p), arity) }
        if base == "wstring" { throw DefinitionError("\(context): wstring fields are not supported") }
        if base == "Header" { return (.message("std_msgs/Header"), arity) }
        let name = normalize(String(base))
        return (.message(name.contains("/") ? name : "\(package)/\(name)"), arity)
    }
}

/// A message definition that cannot be parsed or refers to an undefined type.
public struct DefinitionError: Error, CustomStringConvertible, Sendable {
    /// The explanation.
    public let description: String
    init(_ description: String) { self.description = description }
}

extension Substring {
    /// Without leading and trailing spaces, tabs and carriage returns.
    var trimmingSpaces: Substring {
        var s = self
        while let c = s.first, c == " " || c == "\t" || c == "\r" { s = s.dropFirst() }
        while let c = s.last, c == " " || c == "\t" || c == "\r" { s = s.dropLast() }
        return s
    }
}
