import Foundation

/// A validator for the subset of JSON Schema (2020-12) that `docs/frames.schema.json` uses:
/// `type` (one name or a list; no booleans), `const`, `enum`, `required`, `properties`,
/// `additionalProperties: false`, `items`, `minItems`, `maxItems`, `oneOf` and local `$ref`s
/// (`#/$defs/name`). Anything else in a schema is an error, so the test cannot pass by ignoring
/// a keyword it does not understand.
struct JSONSchemaSubset {
    let root: [String: Any]
    static let annotations: Set<String> = ["$schema", "$id", "title", "description", "$defs"]
    static let keywords: Set<String> = ["type", "const", "enum", "required", "properties", "additionalProperties",
                                        "items", "minItems", "maxItems", "oneOf", "$ref"]

    /// Loads a schema file.
    init(contentsOf url: URL) throws {
        guard let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] else {
            throw ValidationFailure(path: url.path, message: "schema is not an object")
        }
        root = object
    }

    struct ValidationFailure: Error, CustomStringConvertible {
        var path: String, message: String
        var description: String { "\(path): \(message)" }
    }

    /// Throws the first violation of `value` (a `JSONSerialization` result) against the schema.
    func validate(_ value: Any) throws { try check(value, root, path: "$") }

    private func resolve(_ ref: String) throws -> [String: Any] {
        let prefix = "#/$defs/"
        guard ref.hasPrefix(prefix), let defs = root["$defs"] as? [String: Any],
              let target = defs[String(ref.dropFirst(prefix.count))] as? [String: Any] else {
            throw ValidationFailure(path: ref, message: "unresolvable $ref")
        }
        return target
    }

    private func typeName(_ v: Any) -> String {
        if v is NSNull { return "null" }
        if v is String { return "string" }
        if v is [Any] { return "array" }
        if v is [String: Any] { return "object" }
        if let n = v as? NSNumber { return n.doubleValue.rounded() == n.doubleValue && !"\(n)".contains(".") ? "integer" : "number" }
        return "unknown"
    }

    private func check(_ v: Any, _ schema: [String: Any], path: String) throws {
        for key in schema.keys where !Self.keywords.contains(key) && !Self.annotations.contains(key) {
            throw ValidationFailure(path: path, message: "schema keyword '\(key)' is not supported by this validator")
        }
        if let ref = schema["$ref"] as? String { try check(v, try resolve(ref), path: path) }
        if let types = schema["type"] {
            let allowed = (types as? [String]) ?? [(types as? String) ?? ""]
            let actual = typeName(v)
            let ok = allowed.contains(actual) || (actual == "integer" && allowed.contains("number"))
            guard ok else { throw ValidationFailure(path: path, message: "type \(actual), expected \(allowed)") }
        }
        if let c = schema["const"] {
            guard "\(c)" == "\(v)" else { throw ValidationFailure(path: path, message: "\(v) is not the constant \(c)") }
        }
        if let options = schema["enum"] as? [Any] {
            guard options.contains(where: { "\($0)" == "\(v)" && typeName($0) == typeName(v) }) else {
                throw ValidationFailure(path: path, message: "\(v) not in \(options)")
            }
        }
        if let alternatives = schema["oneOf"] as? [[String: Any]] {
            let matches = alternatives.filter { (try? check(v, $0, path: path)) != nil }.count
            guard matches == 1 else { throw ValidationFailure(path: path, message: "matches \(matches) of oneOf, expected 1") }
        }
        if let object = v as? [String: Any] {
            for key in (schema["required"] as? [String]) ?? [] where object[key] == nil {
                throw ValidationFailure(path: path, message: "missing required '\(key)'")
            }
            let properties = (schema["properties"] as? [String: Any]) ?? [:]
            for (key, value) in object {
                if let sub = properties[key] as? [String: Any] {
                    try check(value, sub, path: path + "." + key)
                } else if let extra = schema["additionalProperties"] as? Bool, !extra {
                    throw ValidationFailure(path: path, message: "unexpected key '\(key)'")
                }
            }
        }
        if let array = v as? [Any] {
            if let n = schema["minItems"] as? Int, array.count < n {
                throw ValidationFailure(path: path, message: "\(array.count) items, at least \(n) expected")
            }
            if let n = schema["maxItems"] as? Int, array.count > n {
                throw ValidationFailure(path: path, message: "\(array.count) items, at most \(n) expected")
            }
            if let items = schema["items"] as? [String: Any] {
                for (i, item) in array.enumerated() { try check(item, items, path: "\(path)[\(i)]") }
            }
        }
    }
}
