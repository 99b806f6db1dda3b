import Foundation

/// A forward-only reader of one EuRoC CSV file that turns each data row into a record.
///
/// Lines starting with `#` (the header) and blank lines are skipped. Timestamps must increase
/// strictly from row to row; what happens to a row that breaks a rule depends on the
/// ``ReadPolicy``. The file is read incrementally, one line at a time, so memory does not grow
/// with the file's length.
public final class RecordStream<Record> {
    private let reader: LineReader
    private let file: String
    private let policy: ReadPolicy
    private let parse: (CSVRow) throws -> Record
    private let timestampOf: (Record) -> Int64
    private var lastTimestamp: Int64? = nil
    private var peeked: Record?? = nil
    /// Rows skipped so far (only under ``ReadPolicy/lenient``).
    public private(set) var diagnostics = ReadDiagnostics()
    /// How many records have been returned so far.
    public private(set) var count = 0

    init(url: URL, file: String, policy: ReadPolicy,
         timestamp: @escaping (Record) -> Int64, parse: @escaping (CSVRow) throws -> Record) throws {
        reader = try LineReader(url: url, displayName: file)
        self.file = file
        self.policy = policy
        self.parse = parse
        self.timestampOf = timestamp
    }

    /// The next record without consuming it.
    public func peek() throws -> Record? {
        if let p = peeked { return p }
        let r = try readRecord()
        peeked = .some(r)
        return r
    }

    /// The next record, or nil at the end of the file.
    public func next() throws -> Record? {
        if let p = peeked {
            peeked = nil
            if p != nil { count += 1 }
            return p
        }
        let r = try readRecord()
        if r != nil { count += 1 }
        return r
    }

    private func readRecord() throws -> Record? {
        while let text = reader.nextLine() {
            let trimmed = text.drop(while: { $0 == " " || $0 == "\t" })
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            do {
                let record = try parse(CSVRow(text, file: file, line: reader.lineNumber))
                let t = timestampOf(record)
                if let last = lastTimestamp {
                    if t == last {
                        throw DatasetError(.duplicateTimestamp, file: file, line: reader.lineNumber,
                                           "timestamp \(t) repeats the previous row's")
                    }
                    if t < last {
                        throw DatasetError(.nonMonotonic, file: file, line: reader.lineNumber,
                                           "timestamp \(t) is earlier than the previous row's \(last) (timestamps must increase)")
                    }
                }
                lastTimestamp = t
                return record
            } catch let error as DatasetError where policy == .lenient {
                diagnostics.record(error)
            }
        }
        return nil
    }
}
