import Foundation

/// Finds an object in JSON text that names the same key twice.
///
/// `JSONDecoder` keeps one of two equal keys without a word, so a scene with `"position"`
/// written twice would silently lose one of them. The scan runs on text that has already parsed,
/// iteratively (no recursion, so deep nesting cannot exhaust the stack), and compares keys after
/// decoding their escapes (`"a"` and `"\u0061"` are the same key).
enum JSONDuplicateKeys {
    /// The first repeated key and where its second occurrence starts (1-based line and column).
    struct Finding: Equatable {
        var key: String
        var line: Int
        var column: Int
    }

    private enum Container {
        case array
        case object(keys: Set<String>, expectingKey: Bool)
    }

    /// The first duplicate key in `data`, or nil when every object's keys are distinct.
    static func first(in data: Data) -> Finding? {
        let bytes = [UInt8](data)
        var stack: [Container] = []
        var i = 0
        while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: "\""):
                let start = i
                let (key, end) = readString(bytes, from: i + 1)
                i = end
                if case .object(var keys, true)? = stack.last {
                    guard keys.insert(key).inserted else { return finding(key, at: start, in: bytes) }
                    stack[stack.count - 1] = .object(keys: keys, expectingKey: false)
                }
            case UInt8(ascii: "{"): stack.append(.object(keys: [], expectingKey: true))
            case UInt8(ascii: "["): stack.append(.array)
            case UInt8(ascii: "}"), UInt8(ascii: "]"): _ = stack.popLast()
            case UInt8(ascii: ","):
                if case .object(let keys, _)? = stack.last { stack[stack.count - 1] = .object(keys: keys, expectingKey: true) }
            default: break
            }
            i += 1
        }
        return nil
    }

    /// The message for a finding, as the scene loaders print it.
    static func message(_ f: Finding) -> String {
        "line \(f.line), column \(f.column): key \"\(f.key)\" appears twice in one object (JSON keeps only one of them)"
    }

    /// Decodes the string whose content starts at `start`; returns it and the index of the
    /// closing quote (or the end of the text).
    private static func readString(_ bytes: [UInt8], from start: Int) -> (String, Int) {
        var scalars = String.UnicodeScalarView()
        var raw: [UInt8] = []
        var i = start
        func flush() {
            scalars.append(contentsOf: String(decoding: raw, as: UTF8.self).unicodeScalars)
            raw.removeAll()
        }
        while i < bytes.count, bytes[i] != UInt8(ascii: "\"") {
            guard bytes[i] == UInt8(ascii: "\\"), i + 1 < bytes.count else { raw.append(bytes[i]); i += 1; continue }
            flush()
            let escaped = bytes[i + 1]
            i += 2
            switch escaped {
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                var unit = hex4(bytes, at: i) ?? 0xFFFD
                i += 4
                // A high surrogate followed by \uDC00…\uDFFF is one scalar.
                if (0xD800..<0xDC00).contains(unit), i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"),
                   bytes[i + 1] == UInt8(ascii: "u"), let low = hex4(bytes, at: i + 2), (0xDC00..<0xE000).contains(low) {
                    unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                    i += 6
                }
                scalars.append(Unicode.Scalar(unit) ?? "\u{FFFD}")
            default: scalars.append(Unicode.Scalar(escaped))
            }
        }
        flush()
        return (String(scalars), i)
    }

    private static func hex4(_ bytes: [UInt8], at i: Int) -> UInt32? {
        guard i + 4 <= bytes.count else { return nil }
        return UInt32(String(decoding: bytes[i..<(i + 4)], as: UTF8.self), radix: 16)
    }

    private static func finding(_ key: String, at offset: Int, in bytes: [UInt8]) -> Finding {
        let before = bytes[..<offset]
        let lineStart = (before.lastIndex(of: 0x0A) ?? -1) + 1
        return Finding(key: key, line: before.filter { $0 == 0x0A }.count + 1,
                       column: String(decoding: bytes[lineStart..<offset], as: UTF8.self).count + 1)
    }
}
