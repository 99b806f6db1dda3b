import Foundation
import ParallaxMath

/// Something with a fixed pose in the AR world (`ARAnchor`).
///
/// Anchors are values; the session re-issues an updated copy (same ``identifier``) when it
/// refines one. Identifiers are deterministic (see ``AnchorIdentifierGenerator``), so two runs of
/// the same dataset and configuration export byte-identical anchors.
public protocol Anchor: Sendable {
    /// Stable identity across updates.
    var identifier: UUID { get }
    /// Optional user-facing name.
    var name: String? { get }
    /// `T_A_anchor`: maps anchor-local points into the AR world (y up, metres).
    var transform: Matrix4 { get }
}

/// A user-placed anchor (`ARAnchor(name:transform:)`).
public struct WorldAnchor: Anchor, Equatable {
    /// Stable identity.
    public var identifier: UUID
    /// Optional name.
    public var name: String?
    /// `T_A_anchor`.
    public var transform: Matrix4

    /// Creates an anchor; pass `identifier` from ``Session/makeIdentifier()`` for reproducible exports.
    public init(identifier: UUID, name: String? = nil, transform: Matrix4) {
        self.identifier = identifier
        self.name = name
        self.transform = transform
    }
}

/// Produces deterministic UUIDs from a seed and a counter (RFC 4122 layout, version 8
/// "custom" bits set), so that anchor identifiers never depend on a random source.
public struct AnchorIdentifierGenerator: Sendable {
    /// The seed mixed into every identifier.
    public let seed: UInt64
    /// Identifiers produced so far.
    public private(set) var counter: UInt64 = 0

    /// Creates a generator.
    public init(seed: UInt64 = 0) { self.seed = seed }

    /// The next identifier.
    public mutating func next() -> UUID {
        counter += 1
        return Self.identifier(seed: seed, index: counter)
    }

    /// The identifier number `index` of `seed` (SplitMix64 of the pair: well spread, reproducible).
    public static func identifier(seed: UInt64, index: UInt64) -> UUID {
        func mix(_ x: UInt64) -> UInt64 {
            var z = x &+ 0x9E37_79B9_7F4A_7C15
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        let hi = mix(seed ^ 0x5041_5241_4C4C_4158), lo = mix(hi ^ index)
        var b = [UInt8](repeating: 0, count: 16)
        for i in 0..<8 { b[i] = UInt8((hi >> (8 * UInt64(i))) & 0xFF) }
        // Keep the index readable in the last bytes; mix only the front half.
        for i in 0..<8 { b[8 + i] = UInt8((index >> (8 * UInt64(7 - i))) & 0xFF) }
        b[0] ^= UInt8(lo & 0xFF)
        b[6] = (b[6] & 0x0F) | 0x80  // version 8
        b[8] = (b[8] & 0x3F) | 0x80  // RFC 4122 variant
        return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
                           b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }
}
