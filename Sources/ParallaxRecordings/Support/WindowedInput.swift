/// Sequential reads over a ``FileInput`` through a 1 MiB window, so that formats made of many
/// small records (unchunked MCAP, unindexed bags) cost one system call per window, not per record.
/// Large reads (whole chunks) bypass the window.
final class WindowedInput {
    /// The file.
    let file: FileInput
    private var window: [UInt8] = []
    private var windowStart: UInt64 = 0
    private static let windowSize = 1 << 20

    init(_ file: FileInput) { self.file = file }

    /// The bytes `offset ..< offset + count` as a buffer and the range inside it (no copy when
    /// the window holds them). Fewer bytes only at the end of the file.
    func load(at offset: UInt64, count: Int) throws -> (bytes: [UInt8], range: Range<Int>) {
        if offset >= windowStart, offset + UInt64(count) <= windowStart + UInt64(window.count) {
            let start = Int(offset - windowStart)
            return (window, start..<(start + count))
        }
        if count >= Self.windowSize / 2 {
            let direct = try file.read(at: offset, count: count)
            return (direct, 0..<direct.count)
        }
        try file.read(at: offset, count: Self.windowSize, into: &window)
        windowStart = offset
        let n = min(count, window.count)
        return (window, 0..<n)
    }

    /// Exactly `count` bytes at `offset` as a cursor, or a truncation error naming `what`.
    func cursor(at offset: UInt64, count: Int, what: @autoclosure () -> String) throws -> ByteCursor {
        let (bytes, range) = try load(at: offset, count: count)
        guard range.count == count else {
            throw RecordingError(.truncated, file: file.path, offset: offset,
                                 "file ends inside \(what()): \(count) bytes needed, \(range.count) present")
        }
        return ByteCursor(bytes, start: range.lowerBound, end: range.upperBound)
    }
}
