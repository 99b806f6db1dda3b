import Foundation

/// A guard run on YAML text before it reaches the parser.
///
/// Yams builds its node tree recursively, so a file such as `x: [[[[…]]]]` with a hundred
/// thousand brackets overflows the stack and kills the process. A `sensor.yaml` never nests
/// more than two levels (a matrix as a list of rows), so anything past ``maximumDepth`` is
/// rejected with the line where the limit was crossed.
///
/// Lines end at every line break YAML knows (`\n`, `\r`, `\r\n`, NEL, LS, PS): a comment that
/// ran to the next `\n` only would hide what the parser reads after a lone `\r` (the fuzzer found
/// `#…\r{{{{…` overflowing the stack past this guard). Behind the quote- and comment-aware
/// count, a plain count of every bracket, wherever it stands, is capped at
/// ``maximumBracketDepth``: should the two scanners ever disagree on where a quote or comment
/// ends, the parser still never sees a nesting deep enough to overflow (it survives 1000 levels
/// under AddressSanitizer; it failed at 3000).
enum YAMLNestingLimit {
    /// The deepest nesting accepted, counting flow brackets and block indicators.
    static let maximumDepth = 64
    /// The deepest nesting of brackets counted everywhere, quotes and comments included.
    static let maximumBracketDepth = 512
    /// The widest indentation accepted, in columns.
    static let maximumIndentation = 512

    /// Throws a ``DatasetError`` naming `file` and the line when `text` nests too deeply.
    static func check(_ text: String, file: String) throws {
        var flowDepth = 0
        var bracketDepth = 0
        var lineNumber = 0
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            lineNumber += 1
            if flowDepth == 0 { try checkBlockPrefix(line, file: file, line: lineNumber) }
            try scanFlow(line, depth: &flowDepth, file: file, line: lineNumber)
            try countBrackets(line, depth: &bracketDepth, file: file, line: lineNumber)
        }
    }

    /// Every `[`/`{` deepens and every `]`/`}` closes, quoted or commented or not.
    private static func countBrackets(_ line: Substring, depth: inout Int, file: String, line number: Int) throws {
        for c in line.utf8 {
            if c == UInt8(ascii: "[") || c == UInt8(ascii: "{") {
                depth += 1
                if depth > maximumBracketDepth {
                    throw DatasetError(.calibration, file: file, line: number,
                                       "YAML nests brackets deeper than \(maximumBracketDepth) levels; a sensor.yaml needs at most a few")
                }
            } else if c == UInt8(ascii: "]") || c == UInt8(ascii: "}") {
                depth = max(0, depth - 1)
            }
        }
    }

    /// Block structure: indentation and leading `- ` / `? ` indicators (`- - - x` nests three deep).
    private static func checkBlockPrefix(_ line: Substring, file: String, line number: Int) throws {
        var indent = 0
        var indicators = 0
        var chars = line.makeIterator()
        var previousWasIndicator = false
        while let c = chars.next() {
            if c == " " || c == "\t" { indent += 1; previousWasIndicator = false; continue }
            if (c == "-" || c == "?") && !previousWasIndicator { indicators += 1; previousWasIndicator = true; continue }
            break
        }
        if indicators > maximumDepth || indent > maximumIndentation {
            throw DatasetError(.calibration, file: file, line: number,
                               "YAML nests deeper than \(maximumDepth) levels; a sensor.yaml needs at most a few")
        }
    }

    /// Flow collections: `[` and `{` outside quotes and comments.
    private static func scanFlow(_ line: Substring, depth: inout Int, file: String, line number: Int) throws {
        var quote: Character? = nil
        var previous: Character = " "
        for c in line {
            defer { previous = c }
            if let q = quote {
                if c == q { quote = nil }
                continue
            }
            switch c {
            case "\"", "'":
                // A quote opens a string only where a scalar can start, not inside a word (`it's`).
                if previous == " " || previous == "[" || previous == "{" || previous == "," || previous == ":" { quote = c }
            case "#" where previous == " " || previous == "\t":
                return
            case "[", "{":
                depth += 1
                if depth > maximumDepth {
                    throw DatasetError(.calibration, file: file, line: number,
                                       "YAML nests deeper than \(maximumDepth) levels; a sensor.yaml needs at most a few")
                }
            case "]", "}":
                depth = max(0, depth - 1)
            default:
                break
            }
        }
    }
}
