import Foundation
import ParallaxShaders

/// Expands `#include "file.glsl"` lines and remembers where each output line came from, so that the driver's
/// error positions ("0:12(3): error ..." from Mesa, "0(12) : error ..." from NVIDIA) can be reported as
/// `file.glsl:line`.
struct PreprocessedShader {
    /// The expanded source handed to the driver.
    let source: String
    /// `origins[i]` is the file and 1-based line of output line `i + 1`.
    let origins: [(file: String, line: Int)]

    /// A source with a known line map.
    init(source: String, origins: [(file: String, line: Int)]) {
        self.source = source
        self.origins = origins
    }

    /// Expands `name` from the shader library.
    init(named name: String, read: (String) throws -> String = ShaderLibrary.source(named:)) throws {
        var lines: [String] = []
        var origins: [(String, Int)] = []
        try Self.expand(name, read: read, stack: [], into: &lines, origins: &origins)
        self.source = lines.joined(separator: "\n") + "\n"
        self.origins = origins
    }

    private static func expand(
        _ name: String, read: (String) throws -> String, stack: [String],
        into lines: inout [String], origins: inout [(String, Int)]
    ) throws {
        guard !stack.contains(name) else {
            throw RenderError.shader("#include cycle: \((stack + [name]).joined(separator: " -> "))")
        }
        let text: String
        do { text = try read(name) } catch {
            let from = stack.last.map { " (included from \($0))" } ?? ""
            throw RenderError.shader("\(error)\(from)")
        }
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("#include") {
                let parts = trimmed.split(separator: "\"")
                guard parts.count >= 2 else {
                    throw RenderError.shader("\(name):\(index + 1): malformed #include (expected #include \"file\")")
                }
                try expand(String(parts[1]), read: read, stack: stack + [name], into: &lines, origins: &origins)
            } else {
                lines.append(String(line))
                origins.append((name, index + 1))
            }
        }
    }

    /// Rewrites the driver's info log so that each "0:LINE(COL)" or "0(LINE)" position names the source file.
    func annotate(log: String) -> String {
        log.split(separator: "\n").map { line -> String in
            let text = String(line)
            guard let (expandedLine, rest) = Self.parsePosition(text) else { return text }
            guard expandedLine >= 1, expandedLine <= origins.count else { return text }
            let origin = origins[expandedLine - 1]
            return "\(origin.file):\(origin.line): \(rest)"
        }.joined(separator: "\n")
    }

    /// Parses "0:12(3): error: ..." (Mesa) or "0(12) : error C0000: ..." (NVIDIA).
    static func parsePosition(_ line: String) -> (Int, String)? {
        let scalars = Array(line)
        var i = 0
        while i < scalars.count, scalars[i].isNumber { i += 1 }
        guard i > 0, i < scalars.count else { return nil }
        var number = ""
        if scalars[i] == ":" {  // Mesa: 0:LINE(COL):
            i += 1
            while i < scalars.count, scalars[i].isNumber { number.append(scalars[i]); i += 1 }
            while i < scalars.count, scalars[i] != ":" { i += 1 }
        } else if scalars[i] == "(" {  // NVIDIA: 0(LINE) :
            i += 1
            while i < scalars.count, scalars[i].isNumber { number.append(scalars[i]); i += 1 }
            while i < scalars.count, scalars[i] != ":" { i += 1 }
        } else {
            return nil
        }
        guard let value = Int(number), i < scalars.count else { return nil }
        let rest = String(scalars[(i + 1)...]).trimmingCharacters(in: .whitespaces)
        return (value, rest)
    }
}
