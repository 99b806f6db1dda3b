import Foundation

/// One data row of an EuRoC-style CSV file, split on commas with surrounding blanks removed
/// (TUM-VI exports write `1520530308199447626, 0.1, ...` with spaces after the commas).
///
/// The accessors throw a ``DatasetError`` that names the file, the line and the column, so a
/// reader never has to format its own messages.
struct CSVRow {
    /// The fields, trimmed.
    let fields: [Substring]
    /// The file, relative to the dataset folder.
    let file: String
    /// The 1-based line number.
    let line: Int

    /// Splits `text` (one line, without its newline). Commas, blanks and tabs are ASCII, so the
    /// split walks the UTF-8 bytes: splitting by `Character` (grapheme clusters) made reading a
    /// 10-minute IMU file (120 000 rows) most of a session's start-up.
    init(_ text: String, file: String, line: Int) {
        var fields: [Substring] = []
        let bytes = text.utf8
        var start = bytes.startIndex, i = start
        while i != bytes.endIndex {
            if bytes[i] == UInt8(ascii: ",") {
                fields.append(Self.trimmed(text, start, i))
                start = bytes.index(after: i)
            }
            i = bytes.index(after: i)
        }
        fields.append(Self.trimmed(text, start, bytes.endIndex))
        self.fields = fields
        self.file = file
        self.line = line
    }

    /// `text[from..<to]` without leading and trailing blanks and tabs.
    private static func trimmed(_ text: String, _ from: String.Index, _ to: String.Index) -> Substring {
        let bytes = text.utf8
        func isBlank(_ b: UInt8) -> Bool { b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") }
        var a = from, b = to
        while a < b, isBlank(bytes[a]) { a = bytes.index(after: a) }
        while a < b, isBlank(bytes[bytes.index(before: b)]) { b = bytes.index(before: b) }
        return text[a..<b]
    }

    /// Throws unless the row has one of `counts` columns; `what` names the file's content.
    func requireColumns(_ counts: [Int], what: String) throws {
        guard counts.contains(fields.count) else {
            let expected = counts.map(String.init).joined(separator: " or ")
            throw DatasetError(.columnCount, file: file, line: line,
                               "\(what) row must have \(expected) columns, found \(fields.count)")
        }
    }

    /// The integer nanosecond timestamp in column `index`.
    func timestamp(_ index: Int) throws -> Int64 {
        let f = fields[index]
        guard let v = Int64(f) else {
            throw DatasetError(.malformedRow, file: file, line: line,
                               "column \(index + 1) (timestamp) must be an integer number of nanoseconds, found '\(f)'")
        }
        return v
    }

    /// The finite number in column `index`; `name` is the column's meaning for the message.
    func double(_ index: Int, _ name: String) throws -> Double {
        let f = fields[index]
        guard let v = Double(f) else {
            throw DatasetError(.malformedRow, file: file, line: line,
                               "column \(index + 1) (\(name)) must be a number, found '\(f)'")
        }
        guard v.isFinite else {
            throw DatasetError(.nonFinite, file: file, line: line,
                               "column \(index + 1) (\(name)) is not finite ('\(f)')")
        }
        return v
    }

    /// Three consecutive numbers starting at column `index`.
    func vector(_ index: Int, _ names: [String]) throws -> SIMD3<Double> {
        SIMD3(try double(index, names[0]), try double(index + 1, names[1]), try double(index + 2, names[2]))
    }
}

/// Formats a number so that `Double(text)` gives back exactly the same value: Swift's
/// `description` prints the shortest digit string that round-trips (Steele & White / Ryu-style).
@inline(__always) func csvNumber(_ v: Double) -> String { v.description }
