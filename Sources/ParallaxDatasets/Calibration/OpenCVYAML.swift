import Foundation
import Yams
import ParallaxImaging

/// A `sensor.yaml` file as written by OpenCV's `FileStorage` (EuRoC, TUM-VI), loaded into a
/// YAML node tree with typed, error-reporting accessors.
///
/// OpenCV starts the file with `%YAML:1.0`, which is not a valid YAML 1.1/1.2 directive (the
/// spec wants `%YAML 1.1`), so strict parsers such as libyaml (behind Yams) reject it; we drop
/// that line. OpenCV also tags matrices with `!!opencv-matrix` (a mapping with `rows`, `cols`,
/// `dt`, `data`); the tag is dropped too and the mapping read by its keys.
struct OpenCVYAML {
    /// The file, relative to the dataset folder, for messages.
    let file: String
    private let root: [String: Node]

    /// Loads `url`; `file` is the name used in errors.
    init(url: URL, file: String) throws {
        if let problem = FileReadability.problem(url) {
            throw DatasetError(.io, file: file, "cannot read file: \(problem)")
        }
        let text: String
        do { text = try String(contentsOf: url, encoding: .utf8) } catch {
            throw DatasetError(.io, file: file, "cannot read file: \(FileReadability.describe(error, reading: url))")
        }
        try self.init(text: text, file: file)
    }

    /// Parses YAML text.
    init(text: String, file: String) throws {
        try YAMLNestingLimit.check(text, file: file)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if let first = lines.first, first.hasPrefix("%YAML") { lines[0] = "" }
        let cleaned = lines.map { $0.replacingOccurrences(of: "!!opencv-matrix", with: "") }.joined(separator: "\n")
        let node: Node?
        do { node = try Yams.compose(yaml: cleaned) } catch {
            throw DatasetError(.calibration, file: file, "not valid YAML: \(error)")
        }
        guard let mapping = node?.mapping else {
            throw DatasetError(.calibration, file: file, "expected a YAML mapping of fields at the top level")
        }
        self.init(mapping: mapping, file: file)
    }

    /// Reads the fields of one mapping (a sensor's block inside a larger file, as Kalibr writes them).
    init(mapping: Node.Mapping, file: String) {
        self.file = file
        var root: [String: Node] = [:]
        for (k, v) in mapping { if let key = k.string { root[key] = v } }
        self.root = root
    }

    /// The mapping under `field`, or nil when absent or not a mapping.
    func mapping(_ field: String) -> Node.Mapping? { root[field]?.mapping }

    /// The field names present, sorted.
    var fieldNames: [String] { root.keys.sorted() }

    /// True when the field exists.
    func has(_ field: String) -> Bool { root[field] != nil }

    /// The first present field among `names` (aliases used by different exporters).
    func node(_ names: [String]) throws -> (name: String, node: Node) {
        for n in names { if let v = root[n] { return (n, v) } }
        throw DatasetError(.calibration, file: file, "field '\(names[0])' is missing")
    }

    /// A string field, or nil when absent.
    func optionalString(_ field: String) -> String? { root[field]?.string }

    /// A required string field.
    func string(_ field: String) throws -> String {
        let (name, n) = try node([field])
        guard let s = n.string else { throw DatasetError(.calibration, file: file, "field '\(name)' must be a string") }
        return s
    }

    /// A required finite number.
    func number(_ field: String) throws -> Double {
        let (name, n) = try node([field])
        return try scalar(n, field: name)
    }

    /// A finite number, or nil when the field is absent.
    func optionalNumber(_ field: String) throws -> Double? {
        guard let n = root[field] else { return nil }
        return try scalar(n, field: field)
    }

    private func scalar(_ n: Node, field: String) throws -> Double {
        guard let s = n.scalar?.string, let v = Double(s.trimmingCharacters(in: .whitespaces)) else {
            throw DatasetError(.calibration, file: file, "field '\(field)' must be a number")
        }
        guard v.isFinite else { throw DatasetError(.calibration, file: file, "field '\(field)' is not finite") }
        return v
    }

    /// A flat list of numbers; `count` (when given) is checked. Also reads an OpenCV matrix
    /// mapping (`rows`, `cols`, `data`) and a nested list of rows.
    func numbers(_ names: [String], count: Int? = nil) throws -> [Double] {
        let (name, n) = try node(names)
        let values: [Double]
        if let map = n.mapping {
            guard let data = map["data"], let seq = data.sequence else {
                throw DatasetError(.calibration, file: file, "field '\(name)' must have a 'data' list")
            }
            values = try seq.map { try scalar($0, field: name) }
            if let rows = map["rows"]?.int, let cols = map["cols"]?.int, rows * cols != values.count {
                throw DatasetError(.calibration, file: file,
                                   "field '\(name)' declares \(rows)x\(cols) but 'data' has \(values.count) numbers")
            }
        } else if let seq = n.sequence {
            values = try seq.flatMap { item -> [Double] in
                if let inner = item.sequence { return try inner.map { try scalar($0, field: name) } }
                return [try scalar(item, field: name)]
            }
        } else {
            throw DatasetError(.calibration, file: file, "field '\(name)' must be a list of numbers")
        }
        if let count, values.count != count {
            throw DatasetError(.calibration, file: file,
                               "field '\(name)' must have \(count) numbers, found \(values.count)")
        }
        return values
    }
}
