import Foundation
import ParallaxImaging
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a text file one line at a time with C's buffered `getline`, so memory stays bounded
/// by the longest line no matter how long the file is (the replay of a multi-hour recording
/// must not load its CSV files into arrays).
final class LineReader {
    private let file: UnsafeMutablePointer<FILE>
    private var buffer: UnsafeMutablePointer<CChar>? = nil
    private var capacity = 0
    /// The 1-based number of the line last returned (0 before the first).
    private(set) var lineNumber = 0

    /// Opens `url` for reading; `displayName` is used in the error.
    init(url: URL, displayName: String) throws {
        // Checked before opening: fopen succeeds on a directory and blocks on a FIFO.
        if let problem = FileReadability.problem(url) {
            throw DatasetError(.io, file: displayName, "cannot read file: \(problem)")
        }
        guard let f = fopen(url.path, "r") else {
            throw DatasetError(.io, file: displayName, "cannot open file (\(String(cString: strerror(errno))))")
        }
        file = f
    }

    deinit {
        free(buffer)
        fclose(file)
    }

    /// The next line without its `\n` (and without a Windows `\r`), or nil at the end.
    func nextLine() -> String? {
        let n = getline(&buffer, &capacity, file)
        guard n >= 0, let buffer else { return nil }
        lineNumber += 1
        var count = n
        buffer.withMemoryRebound(to: UInt8.self, capacity: n) { bytes in
            while count > 0, bytes[count - 1] == 0x0A || bytes[count - 1] == 0x0D { count -= 1 }
        }
        return buffer.withMemoryRebound(to: UInt8.self, capacity: n) {
            String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
        }
    }
}

/// Writes text through C's buffered stdio, one row at a time.
final class LineWriter {
    private let file: UnsafeMutablePointer<FILE>
    private let displayName: String

    /// Creates (or truncates) `url`.
    init(url: URL, displayName: String) throws {
        guard let f = fopen(url.path, "w") else {
            throw DatasetError(.io, file: displayName, "cannot create file (\(String(cString: strerror(errno))))")
        }
        file = f
        self.displayName = displayName
    }

    deinit { fclose(file) }

    /// Writes `line` followed by `\n`.
    func write(line: String) throws {
        let ok = (line + "\n").withCString { fputs($0, file) >= 0 }
        if !ok { throw DatasetError(.io, file: displayName, "write failed (\(String(cString: strerror(errno))))") }
    }

    /// Flushes buffered rows to the file.
    func flush() throws {
        if fflush(file) != 0 {
            throw DatasetError(.io, file: displayName, "flush failed (\(String(cString: strerror(errno))))")
        }
    }
}
