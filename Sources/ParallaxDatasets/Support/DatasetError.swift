import Foundation

/// An error found while reading or writing a dataset.
///
/// The description reads like a compiler diagnostic, `file:line: message`, with `file`
/// relative to the dataset folder (for example `mav0/imu0/data.csv:12: ...`), so a user can
/// open the offending file and jump to the line.
public struct DatasetError: Error, CustomStringConvertible, Equatable, Sendable {
    /// What went wrong, for callers that react to the category rather than the message.
    public enum Kind: String, Sendable, Equatable {
        /// The folder layout is wrong (no `mav0`, no `cam0`, no `imu0`, ...).
        case layout
        /// A file could not be opened, read or written.
        case io
        /// A `sensor.yaml` is not valid YAML or a field is missing or has the wrong shape.
        case calibration
        /// A CSV row has the wrong number of columns.
        case columnCount
        /// A CSV field is not a number (or not an integer timestamp).
        case malformedRow
        /// A CSV field is NaN or infinite.
        case nonFinite
        /// A CSV value is finite but physically absurd (e.g. an acceleration of 1e308 m/s²).
        case outOfRange
        /// A file holds too few rows to be used (an empty or header-only CSV).
        case tooFewRows
        /// A timestamp is smaller than the one before it.
        case nonMonotonic
        /// A timestamp repeats the one before it.
        case duplicateTimestamp
        /// An image listed in `data.csv` does not exist.
        case missingImage
        /// An image's size disagrees with `resolution` in `sensor.yaml`, or it cannot be decoded.
        case badImage
        /// A writer was asked to do something inconsistent (e.g. rows out of order).
        case invalidArgument
        /// Files that are each fine do not fit together (stereo stamps that never pair, camera and
        /// IMU time ranges that do not overlap or have long gaps).
        case inconsistentStreams
    }

    /// The category of the error.
    public let kind: Kind
    /// The file, relative to the dataset folder where possible.
    public let file: String
    /// The 1-based line number, when the error belongs to a line.
    public let line: Int?
    /// The human-readable explanation (without the file and line prefix).
    public let message: String

    /// Creates an error.
    public init(_ kind: Kind, file: String, line: Int? = nil, _ message: String) {
        self.kind = kind
        self.file = file
        self.line = line
        self.message = message
    }

    /// `file:line: message`, or `file: message` when there is no line.
    public var description: String {
        if let line { return "\(file):\(line): \(message)" }
        return "\(file): \(message)"
    }
}

/// How a reader treats bad rows in a CSV file.
///
/// Structural problems (missing folders or calibration files, unreadable YAML, images of the
/// wrong size) are always errors. The policy only decides what happens to individual rows.
public enum ReadPolicy: Sendable, Equatable {
    /// The default: the first bad row (wrong column count, not a number, NaN/Inf, a timestamp that
    /// repeats or goes backwards, an image file that is missing) throws a ``DatasetError``.
    /// Estimators assume strictly increasing time, so silently accepting such rows hides bugs.
    case strict
    /// Bad rows are skipped and counted in ``ReadDiagnostics``; reading goes on. Useful to
    /// inspect a damaged recording (`parallax info --lenient`).
    case lenient
}

/// Rows skipped by a reader under ``ReadPolicy/lenient``, and warnings about data that is read
/// but partly lost or converted (``EuRoCDataset/validate()``).
public struct ReadDiagnostics: Sendable, Equatable {
    /// How many rows were skipped.
    public var skippedRows = 0
    /// The first few reasons (at most ``maximumMessages``), each as `file:line: message`.
    public var messages: [String] = []
    /// Findings that are not errors, each with a count (frames outside the IMU range, unpaired
    /// stereo frames, images that are not 8-bit grey).
    public var warnings: [String] = []
    /// The cap on stored messages, so a badly broken file cannot grow memory.
    public static let maximumMessages = 20

    /// Creates empty diagnostics.
    public init() {}

    mutating func record(_ error: DatasetError) {
        skippedRows += 1
        if messages.count < Self.maximumMessages { messages.append(error.description) }
    }

    /// Adds the counts and messages of another reader.
    public mutating func merge(_ other: ReadDiagnostics) {
        skippedRows += other.skippedRows
        for m in other.messages where messages.count < Self.maximumMessages { messages.append(m) }
        warnings += other.warnings
    }
}
