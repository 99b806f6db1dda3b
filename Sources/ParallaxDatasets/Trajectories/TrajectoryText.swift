import Foundation
import ParallaxImaging

/// Shared helpers for the line-oriented trajectory formats: reading a file into numbered
/// lines, parsing numbers strictly, and printing them so that they read back identically.
enum TrajectoryText {
    /// The lines of a UTF-8 text file, numbered from 1, with the path to show in errors
    /// (as the caller gave it).
    static func lines(of url: URL) throws -> (name: String, lines: [(number: Int, text: Substring)]) {
        let name = url.relativePath
        if let problem = FileReadability.problem(url) {
            throw TrajectoryError("\(url.path): cannot read file: \(problem)")
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw TrajectoryError("\(url.path): cannot read file: \(FileReadability.describe(error, reading: url))")
        }
        return (name, lines(of: String(decoding: data, as: UTF8.self)))
    }

    /// The lines of `text`, numbered from 1 (a trailing `\r` is dropped from each).
    static func lines(of text: String) -> [(number: Int, text: Substring)] {
        text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { index, line in
            (index + 1, line.hasSuffix("\r") ? line.dropLast() : line)
        }
    }

    /// True for lines to skip: blank or starting with `#` (after leading white space).
    static func isCommentOrBlank(_ line: Substring) -> Bool {
        let trimmed = line.drop(while: { $0 == " " || $0 == "\t" })
        return trimmed.isEmpty || trimmed.hasPrefix("#")
    }

    /// Parses a finite decimal number, or throws naming file, line and column.
    static func number(_ field: Substring, column: Int, file: String, line: Int) throws -> Double {
        let text = field.trimmingCharacters(in: .whitespaces)
        // Swift's Double(String) also accepts hexadecimal floats; trajectory files are decimal.
        guard !text.lowercased().contains("0x"), let value = Double(text) else {
            throw TrajectoryError(file: file, line: line, "column \(column): '\(text)' is not a number")
        }
        guard value.isFinite else {
            throw TrajectoryError(file: file, line: line, "column \(column): '\(text)' is not finite")
        }
        return value
    }

    /// The value in nanoseconds of a plain decimal seconds string such as `1403715273.26214`:
    /// exact up to nine decimals, rounded to the nearest nanosecond beyond (half up); `nil` for
    /// an exponent, a sign or a value that does not fit in `Int64`.
    static func nanoseconds(fromSeconds text: Substring) -> Int64? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, whole.allSatisfy(\.isASCIIDigit) else { return nil }
        var fraction = parts.count == 2 ? String(parts[1]) : ""
        guard fraction.allSatisfy(\.isASCIIDigit) else { return nil }
        var roundUp: Int64 = 0
        if fraction.count > 9 {
            let tenth = fraction[fraction.index(fraction.startIndex, offsetBy: 9)]
            roundUp = tenth >= "5" ? 1 : 0
            fraction = String(fraction.prefix(9))
        }
        fraction += String(repeating: "0", count: 9 - fraction.count)
        guard let seconds = Int64(whole), let nanos = Int64(fraction) else { return nil }
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return nil }
        let (total, overflow2) = scaled.addingReportingOverflow(nanos + roundUp)
        return overflow2 ? nil : total
    }

    /// Seconds text for a nanosecond count, exact, without trailing zeros (`1403715273.26214`).
    static func secondsText(nanoseconds ns: Int64) -> String {
        let sign = ns < 0 ? "-" : ""
        let magnitude = ns.magnitude
        let whole = magnitude / 1_000_000_000
        var fraction = String(magnitude % 1_000_000_000)
        fraction = String(repeating: "0", count: 9 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return fraction.isEmpty ? "\(sign)\(whole)" : "\(sign)\(whole).\(fraction)"
    }

    /// The text to write for a pose time: the exact nanosecond text when it reads back as the
    /// same `Double`, otherwise the shortest text that reads back as `time` (Swift's
    /// `description` is round-trip exact).
    static func timeText(_ time: Double, nanoseconds: Int64?) -> String {
        if let ns = nanoseconds {
            let text = secondsText(nanoseconds: ns)
            if Double(text) == time { return text }
        }
        return "\(time)"
    }
}

extension Character {
    /// True for `0`…`9` only.
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
