/// A 2-D raster of pixels, stored row-major with the origin at the top-left
/// corner: pixel `(x, y)` lives at `pixels[y * width + x]`.
///
/// `Image` is a value type backed by a copy-on-write array, so passing it
/// around is cheap. Use ``crop(x:y:width:height:)`` for a non-copying view.
public struct Image<Pixel: Sendable>: Sendable {
    /// Number of columns.
    public let width: Int
    /// Number of rows.
    public let height: Int
    /// The pixels, row after row (`width * height` of them).
    public var pixels: [Pixel]

    /// An image of the given size with every pixel set to `fill`.
    /// Negative sizes are treated as zero.
    public init(width: Int, height: Int, fill: Pixel) {
        let w = max(0, width), h = max(0, height)
        self.width = w
        self.height = h
        self.pixels = Array(repeating: fill, count: w * h)
    }

    /// An image wrapping `pixels` (row-major).
    /// - Throws: ``ImageError`` (`.invalidArgument`) when the count is not `width * height`
    ///   or a dimension is negative.
    public init(width: Int, height: Int, pixels: [Pixel]) throws {
        guard width >= 0, height >= 0, pixels.count == width * height else {
            throw ImageError(
                file: "Image", kind: .invalidArgument,
                reason: "\(pixels.count) pixels do not fill \(width)×\(height)")
        }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// An image whose pixel at `(x, y)` is `generator(x, y)`.
    public init(width: Int, height: Int, generator: (_ x: Int, _ y: Int) -> Pixel) {
        let w = max(0, width), h = max(0, height)
        var values: [Pixel] = []
        values.reserveCapacity(w * h)
        for y in 0..<h {
            for x in 0..<w { values.append(generator(x, y)) }
        }
        self.width = w
        self.height = h
        self.pixels = values
    }

    /// Internal unchecked initializer for code that already built a correctly sized array.
    init(uncheckedWidth width: Int, height: Int, pixels: [Pixel]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Number of pixels (`width * height`).
    public var count: Int { width * height }

    /// Whether the image has no pixels.
    public var isEmpty: Bool { width == 0 || height == 0 }

    /// Whether `(x, y)` is a valid pixel coordinate.
    @inlinable
    public func contains(x: Int, y: Int) -> Bool {
        x >= 0 && y >= 0 && x < width && y < height
    }

    /// The pixel at column `x`, row `y`. Traps on out-of-range coordinates
    /// (a programming error, like an array index); use ``pixel(x:y:)`` to probe.
    public subscript(x: Int, y: Int) -> Pixel {
        get {
            precondition(contains(x: x, y: y), "pixel (\(x), \(y)) outside \(width)×\(height) image")
            return pixels[y * width + x]
        }
        set {
            precondition(contains(x: x, y: y), "pixel (\(x), \(y)) outside \(width)×\(height) image")
            pixels[y * width + x] = newValue
        }
    }

    /// The pixel at `(x, y)`, or `nil` when outside the image.
    public func pixel(x: Int, y: Int) -> Pixel? {
        contains(x: x, y: y) ? pixels[y * width + x] : nil
    }

    /// Applies `transform` to every pixel, keeping the geometry.
    public func map<Other: Sendable>(_ transform: (Pixel) -> Other) -> Image<Other> {
        Image<Other>(uncheckedWidth: width, height: height, pixels: pixels.map(transform))
    }

    /// A view of the rectangle `x..<x+width`, `y..<y+height`, sharing this
    /// image's storage (no pixels are copied). The rectangle is clipped to the
    /// image, so the view may be smaller than asked (or empty).
    public func crop(x: Int, y: Int, width: Int, height: Int) -> ImageView<Pixel> {
        let x0 = min(max(x, 0), self.width), y0 = min(max(y, 0), self.height)
        let x1 = min(max(x + max(width, 0), x0), self.width)
        let y1 = min(max(y + max(height, 0), y0), self.height)
        return ImageView(base: self, x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// A view of the whole image.
    public var view: ImageView<Pixel> { ImageView(base: self, x: 0, y: 0, width: width, height: height) }
}

extension Image: Equatable where Pixel: Equatable {}

/// A rectangular window onto an ``Image`` that shares its storage.
///
/// Coordinates are relative to the window's top-left corner. Views are
/// read-only; ``copy()`` materialises one as a new image.
public struct ImageView<Pixel: Sendable>: Sendable {
    /// The image being viewed (shared, copy-on-write).
    public let base: Image<Pixel>
    /// Left column of the window in `base`.
    public let originX: Int
    /// Top row of the window in `base`.
    public let originY: Int
    /// Window width.
    public let width: Int
    /// Window height.
    public let height: Int

    init(base: Image<Pixel>, x: Int, y: Int, width: Int, height: Int) {
        self.base = base
        self.originX = x
        self.originY = y
        self.width = width
        self.height = height
    }

    /// Whether `(x, y)` (window coordinates) lies inside the window.
    public func contains(x: Int, y: Int) -> Bool {
        x >= 0 && y >= 0 && x < width && y < height
    }

    /// The pixel at window coordinates `(x, y)`; traps when outside the window.
    public subscript(x: Int, y: Int) -> Pixel {
        precondition(contains(x: x, y: y), "pixel (\(x), \(y)) outside \(width)×\(height) view")
        return base.pixels[(originY + y) * base.width + originX + x]
    }

    /// A sub-window, clipped to this window, still sharing the base storage.
    public func crop(x: Int, y: Int, width: Int, height: Int) -> ImageView<Pixel> {
        let x0 = min(max(x, 0), self.width), y0 = min(max(y, 0), self.height)
        let x1 = min(max(x + max(width, 0), x0), self.width)
        let y1 = min(max(y + max(height, 0), y0), self.height)
        return ImageView(base: base, x: originX + x0, y: originY + y0, width: x1 - x0, height: y1 - y0)
    }

    /// Copies the window's pixels into a new, independent image.
    public func copy() -> Image<Pixel> {
        var out: [Pixel] = []
        out.reserveCapacity(width * height)
        base.pixels.withUnsafeBufferPointer { source in
            for row in 0..<height {
                let start = (originY + row) * base.width + originX
                out.append(contentsOf: source[start..<(start + width)])
            }
        }
        return Image(uncheckedWidth: width, height: height, pixels: out)
    }
}

/// 8-bit greyscale image.
public typealias GrayImage = Image<UInt8>
/// 16-bit greyscale image.
public typealias Gray16Image = Image<UInt16>
/// 8-bit RGB image.
public typealias RGBImage = Image<RGB8>
/// 8-bit RGBA image (straight alpha).
public typealias RGBAImage = Image<RGBA8>
/// Single-channel floating-point image (intensities usually in 0…1).
public typealias FloatImage = Image<Float>

extension Image {
    /// Copies `other` into this image with its top-left corner at `(x, y)`,
    /// overwriting pixels (no blending) and clipping to this image. Useful to
    /// compose side-by-side debug views (e.g. a stereo pair).
    public mutating func paste(_ other: Image<Pixel>, x: Int, y: Int) {
        let x0 = max(x, 0), y0 = max(y, 0)
        let x1 = min(x + other.width, width), y1 = min(y + other.height, height)
        guard x0 < x1, y0 < y1 else { return }
        let w = width
        other.pixels.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { target in
                for row in y0..<y1 {
                    let s = (row - y) * other.width + (x0 - x), t = row * w + x0
                    for i in 0..<(x1 - x0) { target[t + i] = source[s + i] }
                }
            }
        }
    }
}
