import ParallaxMath

/// A 256-bit binary descriptor (oriented BRIEF), compared by Hamming distance.
public struct BinaryDescriptor: Sendable, Equatable, Hashable {
    /// The 256 bits as four words (bit `i` of the test sequence is bit `i % 64` of word `i / 64`).
    public var words: (UInt64, UInt64, UInt64, UInt64)

    /// Creates a descriptor from its four words.
    public init(_ w0: UInt64, _ w1: UInt64, _ w2: UInt64, _ w3: UInt64) { words = (w0, w1, w2, w3) }

    /// The all-zero descriptor.
    public static let zero = BinaryDescriptor(0, 0, 0, 0)

    /// Number of differing bits (0…256).
    @inlinable public func distance(to o: BinaryDescriptor) -> Int {
        (words.0 ^ o.words.0).nonzeroBitCount + (words.1 ^ o.words.1).nonzeroBitCount
            + (words.2 ^ o.words.2).nonzeroBitCount + (words.3 ^ o.words.3).nonzeroBitCount
    }

    /// Bit `i` (0…255).
    public func bit(_ i: Int) -> Bool {
        let w: UInt64
        switch i >> 6 {
        case 0: w = words.0
        case 1: w = words.1
        case 2: w = words.2
        default: w = words.3
        }
        return (w >> UInt64(i & 63)) & 1 == 1
    }

    /// The descriptor with bit `i` set to `value`.
    public func setting(_ i: Int, _ value: Bool) -> BinaryDescriptor {
        var d = self
        let mask = UInt64(1) << UInt64(i & 63)
        func apply(_ w: inout UInt64) { if value { w |= mask } else { w &= ~mask } }
        switch i >> 6 {
        case 0: apply(&d.words.0)
        case 1: apply(&d.words.1)
        case 2: apply(&d.words.2)
        default: apply(&d.words.3)
        }
        return d
    }

    /// The four words as an array (file output).
    public var wordArray: [UInt64] { [words.0, words.1, words.2, words.3] }

    public static func == (a: BinaryDescriptor, b: BinaryDescriptor) -> Bool { a.wordArray == b.wordArray }
    public func hash(into h: inout Hasher) { h.combine(wordArray) }
}

/// A keypoint with its descriptor.
public struct DescribedKeypoint: Sendable, Equatable {
    /// Pixel position (cam0, raw image).
    public var pixel: Vector2
    /// Orientation (radians, intensity centroid).
    public var angle: Double
    /// Descriptor.
    public var descriptor: BinaryDescriptor

    /// Creates a keypoint.
    public init(pixel: Vector2, angle: Double, descriptor: BinaryDescriptor) {
        self.pixel = pixel
        self.angle = angle
        self.descriptor = descriptor
    }
}
