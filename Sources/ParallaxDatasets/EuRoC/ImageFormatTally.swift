import ParallaxImaging

/// Counts the stored formats of one camera's images during validation.
///
/// The tracker works on 8-bit grey; other formats (colour, 16-bit, 1-bit, palette, alpha) are
/// converted on every load. That is legal but usually means a wrong export, so validation
/// reports it as a warning with counts instead of passing it over.
public struct ImageFormatTally: Sendable, Equatable {
    /// Images per format name (`16-bit grey`, `8-bit RGB`, ...), 8-bit grey included.
    public private(set) var counts: [String: Int] = [:]

    /// An empty tally.
    public init() {}

    /// The format of a PNG header in words.
    public static func name(of info: PNGInfo) -> String {
        let colour = switch info.colorType {
        case 0: "grey"
        case 2: "RGB"
        case 3: "palette"
        case 4: "grey+alpha"
        case 6: "RGBA"
        default: "colour type \(info.colorType)"
        }
        return "\(info.bitDepth)-bit \(colour)"
    }

    /// Counts one image.
    public mutating func add(_ info: PNGInfo) { counts[Self.name(of: info), default: 0] += 1 }

    /// A warning naming how many images of `camera` are not 8-bit grey, or nil when all are.
    public func warning(camera: String) -> String? {
        let total = counts.values.reduce(0, +)
        let other = counts.filter { $0.key != "8-bit grey" }
        guard !other.isEmpty else { return nil }
        let list = other.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        return "\(camera): \(other.values.reduce(0, +)) of \(total) images are not 8-bit grey (\(list)); "
            + "the tracker converts them to 8-bit grey on every load"
    }
}
