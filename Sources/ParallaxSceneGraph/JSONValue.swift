import Foundation
import ParallaxMath

/// Any JSON value, decoded with `Codable` so that syntax errors come from `JSONDecoder`; the
/// scene loader then walks it with ``JSONField`` to report exact field paths.
enum JSONValue: Decodable, Equatable {
    case null, bool(Bool), number(Double), string(String), array([JSONValue]), object([String: JSONValue])

    init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let d = try? c.decode(Double.self) { self = .number(d) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([JSONValue].self) { self = .array(a) }
        else { self = .object(try c.decode([String: JSONValue].self)) }
    }

    var typeName: String {
        switch self {
        case .null: "null"; case .bool: "a boolean"; case .number: "a number"; case .string: "a string"
        case .array: "an array"; case .object: "an object"
        }
    }
}

/// A JSON value together with where it sits (file and path), with typed accessors that throw
/// ``SceneError``s naming that place.
struct JSONField {
    let value: JSONValue
    let file: String
    let path: String

    func error(_ message: String) -> SceneError { SceneError(file: file, field: path, message) }

    func child(_ key: String) -> JSONField? {
        guard case .object(let o) = value, let v = o[key], v != .null else { return nil }
        return JSONField(value: v, file: file, path: path.isEmpty ? key : "\(path).\(key)")
    }

    func has(_ key: String) -> Bool { child(key) != nil }

    /// True when `key` is present with the value `null` (which ``child(_:)`` treats as absent).
    func isNull(_ key: String) -> Bool {
        guard case .object(let o) = value else { return false }
        return o[key] == .null
    }

    var keys: [String] { if case .object(let o) = value { return o.keys.sorted() }; return [] }

    func object() throws -> [String: JSONField] {
        guard case .object(let o) = value else { throw error("expected an object, found \(value.typeName)") }
        return o.reduce(into: [:]) { $0[$1.key] = JSONField(value: $1.value, file: file, path: path.isEmpty ? $1.key : "\(path).\($1.key)") }
    }

    func array() throws -> [JSONField] {
        guard case .array(let a) = value else { throw error("expected an array, found \(value.typeName)") }
        return a.enumerated().map { JSONField(value: $1, file: file, path: "\(path)[\($0)]") }
    }

    func double() throws -> Double {
        guard case .number(let d) = value else { throw error("expected a number, found \(value.typeName)") }
        guard d.isFinite else { throw error("expected a finite number") }
        return d
    }

    func float() throws -> Float {
        let d = try double()
        guard abs(d) <= Double(Float.greatestFiniteMagnitude) else { throw error("number \(d) is out of range") }
        return Float(d)
    }

    func float(in range: ClosedRange<Float>) throws -> Float {
        let f = try float()
        guard range.contains(f) else { throw error("\(f) is outside \(range.lowerBound)…\(range.upperBound)") }
        return f
    }

    func int(in range: ClosedRange<Int>) throws -> Int {
        let d = try double()
        guard d.rounded() == d else { throw error("expected an integer, found \(d)") }
        guard d >= Double(range.lowerBound), d <= Double(range.upperBound) else {
            throw error("\(Int64(clamping: Int64(exactly: d.rounded()) ?? Int64.max)) is outside \(range.lowerBound)…\(range.upperBound)")
        }
        return Int(d)
    }

    func bool() throws -> Bool {
        guard case .bool(let b) = value else { throw error("expected true or false, found \(value.typeName)") }
        return b
    }

    func string() throws -> String {
        guard case .string(let s) = value else { throw error("expected a string, found \(value.typeName)") }
        return s
    }

    func oneOf<E: RawRepresentable & CaseIterable>(_ type: E.Type) throws -> E where E.RawValue == String {
        let s = try string()
        guard let e = E(rawValue: s) else { throw error("unknown value \"\(s)\"; expected one of \(E.allCases.map(\.rawValue).joined(separator: ", "))") }
        return e
    }

    func floats(count: ClosedRange<Int>) throws -> [Float] {
        let a = try array()
        guard count.contains(a.count) else {
            throw error(count.lowerBound == count.upperBound ? "expected \(count.lowerBound) numbers, found \(a.count)" : "expected \(count.lowerBound)…\(count.upperBound) numbers, found \(a.count)")
        }
        return try a.map { try $0.float() }
    }

    func vector3() throws -> Vector3f { let f = try floats(count: 3...3); return Vector3f(f[0], f[1], f[2]) }

    // Optional accessors: nil when absent, error when present with the wrong type.
    func float(_ key: String) throws -> Float? { try child(key)?.float() }
    func float(_ key: String, in range: ClosedRange<Float>) throws -> Float? { try child(key)?.float(in: range) }
    func int(_ key: String, in range: ClosedRange<Int>) throws -> Int? { try child(key)?.int(in: range) }
    func bool(_ key: String) throws -> Bool? { try child(key)?.bool() }
    func string(_ key: String) throws -> String? { try child(key)?.string() }
    func vector3(_ key: String) throws -> Vector3f? { try child(key)?.vector3() }

    /// Rejects keys not in `allowed` (typos such as `"radus"` would otherwise be ignored silently).
    func checkKeys(_ allowed: Set<String>) throws {
        for k in keys where !allowed.contains(k) {
            throw SceneError(file: file, field: path.isEmpty ? k : "\(path).\(k)", "unknown field; expected one of \(allowed.sorted().joined(separator: ", "))")
        }
    }
}

extension JSONValue {
    /// Decodes JSON bytes, turning `DecodingError` into a ``SceneError`` naming the file.
    static func parse(_ data: Data, file: String) throws -> JSONField {
        let value: JSONValue
        do {
            value = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch DecodingError.dataCorrupted {
            throw SceneError(file: file, "invalid JSON at \(JSONSyntaxError.describe(data))")
        } catch {
            throw SceneError(file: file, "invalid JSON: \(error)")
        }
        if let duplicate = JSONDuplicateKeys.first(in: data) { throw SceneError(file: file, JSONDuplicateKeys.message(duplicate)) }
        return JSONField(value: value, file: file, path: "")
    }
}
