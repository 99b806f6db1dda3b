/// An 8-bit RGB pixel (sRGB-encoded samples, 0…255).
public struct RGB8: Sendable, Equatable, Hashable {
    /// Red sample.
    public var r: UInt8
    /// Green sample.
    public var g: UInt8
    /// Blue sample.
    public var b: UInt8
    /// Creates a pixel from its three samples.
    public init(r: UInt8, g: UInt8, b: UInt8) {
        self.r = r
        self.g = g
        self.b = b
    }
    /// A grey pixel with all three samples equal to `gray`.
    public init(gray: UInt8) { self.init(r: gray, g: gray, b: gray) }
}

/// An 8-bit RGBA pixel with straight (not premultiplied) alpha; 255 = opaque.
public struct RGBA8: Sendable, Equatable, Hashable {
    /// Red sample.
    public var r: UInt8
    /// Green sample.
    public var g: UInt8
    /// Blue sample.
    public var b: UInt8
    /// Alpha sample (255 = opaque).
    public var a: UInt8
    /// Creates a pixel from its four samples; alpha defaults to opaque.
    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }
    /// An opaque grey pixel.
    public init(gray: UInt8, a: UInt8 = 255) { self.init(r: gray, g: gray, b: gray, a: a) }
    /// The colour without its alpha channel.
    public var rgb: RGB8 { RGB8(r: r, g: g, b: b) }

    /// Opaque black.
    public static let black = RGBA8(r: 0, g: 0, b: 0)
    /// Opaque white.
    public static let white = RGBA8(r: 255, g: 255, b: 255)
    /// Opaque red.
    public static let red = RGBA8(r: 255, g: 0, b: 0)
    /// Opaque green.
    public static let green = RGBA8(r: 0, g: 255, b: 0)
    /// Opaque blue.
    public static let blue = RGBA8(r: 0, g: 0, b: 255)
    /// Opaque yellow.
    public static let yellow = RGBA8(r: 255, g: 255, b: 0)
    /// Opaque cyan.
    public static let cyan = RGBA8(r: 0, g: 255, b: 255)
    /// Opaque magenta.
    public static let magenta = RGBA8(r: 255, g: 0, b: 255)
    /// Fully transparent black.
    public static let clear = RGBA8(r: 0, g: 0, b: 0, a: 0)
}

/// A 16-bit RGB pixel (0…65535 per sample).
public struct RGB16: Sendable, Equatable, Hashable {
    /// Red sample.
    public var r: UInt16
    /// Green sample.
    public var g: UInt16
    /// Blue sample.
    public var b: UInt16
    /// Creates a pixel from its three samples.
    public init(r: UInt16, g: UInt16, b: UInt16) {
        self.r = r
        self.g = g
        self.b = b
    }
}

/// A 16-bit RGBA pixel with straight alpha; 65535 = opaque.
public struct RGBA16: Sendable, Equatable, Hashable {
    /// Red sample.
    public var r: UInt16
    /// Green sample.
    public var g: UInt16
    /// Blue sample.
    public var b: UInt16
    /// Alpha sample (65535 = opaque).
    public var a: UInt16
    /// Creates a pixel from its four samples; alpha defaults to opaque.
    public init(r: UInt16, g: UInt16, b: UInt16, a: UInt16 = 65535) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }
}
