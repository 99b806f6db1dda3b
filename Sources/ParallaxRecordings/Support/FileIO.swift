import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file opened for random-access reading with `pread`: the readers fetch one record or chunk at
/// a time, so memory stays flat however long the recording is.
final class FileInput {
    /// The path as the user gave it (for messages).
    let path: String
    /// The file's size in bytes when it was opened.
    let size: UInt64
    private let fd: Int32

    /// Opens `url` for reading.
    init(url: URL) throws {
        path = url.path
        fd = open(url.path, O_RDONLY)
        guard fd >= 0 else {
            throw RecordingError(.io, file: url.path, "cannot open: \(String(cString: strerror(errno)))")
        }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw RecordingError(.io, file: url.path, "not a regular file")
        }
        size = UInt64(info.st_size)
    }

    deinit { close(fd) }

    /// Reads up to `count` bytes at `offset` into `buffer` (replacing its contents); fewer only at the end of the file.
    func read(at offset: UInt64, count: Int, into buffer: inout [UInt8]) throws {
        let available = offset >= size ? 0 : Int(min(UInt64(count), size - offset))
        if buffer.count != available { buffer = [UInt8](repeating: 0, count: available) }
        var done = 0
        try buffer.withUnsafeMutableBytes { raw in
            while done < available {
                let n = pread(fd, raw.baseAddress! + done, available - done, off_t(offset) + off_t(done))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else {
                    throw RecordingError(.io, file: path, offset: offset,
                                         "read failed: \(n < 0 ? String(cString: strerror(errno)) : "unexpected end of file")")
                }
                done += n
            }
        }
    }

    /// Reads up to `count` bytes at `offset`; fewer only at the end of the file.
    func read(at offset: UInt64, count: Int) throws -> [UInt8] {
        var buffer: [UInt8] = []
        try read(at: offset, count: count, into: &buffer)
        return buffer
    }

    /// Reads exactly `count` bytes at `offset`, or throws a truncation error describing `what`.
    func readExactly(at offset: UInt64, count: Int, what: String) throws -> [UInt8] {
        let bytes = try read(at: offset, count: count)
        guard bytes.count == count else {
            throw RecordingError(.truncated, file: path, offset: offset,
                                 "file ends inside \(what): \(count) bytes needed, \(bytes.count) present")
        }
        return bytes
    }
}

/// A file written front to back through a buffer, with ``overwrite(_:at:)`` for the few header
/// fields (index positions) that are known only at the end.
final class FileOutput {
    /// The path being written.
    let path: String
    /// Bytes written so far (including those still buffered).
    private(set) var position: UInt64 = 0
    private let fd: Int32
    private var buffer: [UInt8] = []
    private static let flushSize = 1 << 20

    /// Creates (or truncates) the file at `url`.
    init(url: URL) throws {
        path = url.path
        fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else {
            throw RecordingError(.io, file: url.path, "cannot create: \(String(cString: strerror(errno)))")
        }
        buffer.reserveCapacity(Self.flushSize)
    }

    deinit { close(fd) }

    /// Appends bytes.
    func write(_ bytes: [UInt8]) throws {
        buffer.append(contentsOf: bytes)
        position += UInt64(bytes.count)
        if buffer.count >= Self.flushSize { try flush() }
    }

    /// Writes out the buffered bytes.
    func flush() throws {
        var done = 0
        try buffer.withUnsafeBytes { raw in
            while done < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + done, raw.count - done)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { throw RecordingError(.io, file: path, "write failed: \(String(cString: strerror(errno)))") }
                done += n
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Replaces bytes already written at `offset` (flushes first).
    func overwrite(_ bytes: [UInt8], at offset: UInt64) throws {
        try flush()
        let n = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress!, $0.count, off_t(offset)) }
        guard n == bytes.count else { throw RecordingError(.io, file: path, "write failed at offset \(offset)") }
    }
}
