/// A single-channel `Float` image (row-major, origin top-left, pixel centres at integers),
/// the working buffer of the front-end. Intensities keep the 8-bit scale **0…255** so
/// thresholds read in grey levels.
///
/// The front-end keeps its own planar buffer rather than `Image<Float>` so the hot loops
/// (pyramid, KLT, corner scores) see one contiguous `[Float]` with no generic dispatch.
public struct FloatPlane: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Row-major intensities, `pixels[y * width + x]`.
    public var pixels: [Float]

    /// A plane filled with `value`.
    public init(width: Int, height: Int, fill value: Float = 0) {
        precondition(width > 0 && height > 0, "FloatPlane needs a positive size")
        self.width = width
        self.height = height
        self.pixels = [Float](repeating: value, count: width * height)
    }

    /// Wraps existing row-major pixels; `nil` when the count is not `width × height`.
    public init?(width: Int, height: Int, pixels: [Float]) {
        guard width > 0, height > 0, pixels.count == width * height else { return nil }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Converts 8-bit grey pixels (row-major) to 0…255 floats; `nil` on a size mismatch.
    public init?(width: Int, height: Int, gray8: [UInt8]) {
        guard width > 0, height > 0, gray8.count == width * height else { return nil }
        self.width = width
        self.height = height
        self.pixels = [Float](unsafeUninitializedCapacity: gray8.count) { out, n in
            gray8.withUnsafeBufferPointer { src in
                for i in 0..<src.count { out[i] = Float(src[i]) }
            }
            n = gray8.count
        }
    }

    /// The pixel at integer coordinates (no bounds check beyond the array's).
    @inlinable public subscript(x: Int, y: Int) -> Float {
        get { pixels[y * width + x] }
        set { pixels[y * width + x] = newValue }
    }

    /// Bilinear sample at a subpixel position, clamped to the border (slow path; the hot
    /// loops in ``LucasKanadeTracker`` use pointer arithmetic instead).
    public func sample(_ x: Double, _ y: Double) -> Float {
        let xc = min(max(x, 0), Double(width - 1))
        let yc = min(max(y, 0), Double(height - 1))
        let x0 = min(Int(xc), width - 2 < 0 ? 0 : width - 2)
        let y0 = min(Int(yc), height - 2 < 0 ? 0 : height - 2)
        let x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
        let ax = Float(xc - Double(x0)), ay = Float(yc - Double(y0))
        let top = pixels[y0 * width + x0] * (1 - ax) + pixels[y0 * width + x1] * ax
        let bottom = pixels[y1 * width + x0] * (1 - ax) + pixels[y1 * width + x1] * ax
        return top * (1 - ay) + bottom * ay
    }
}
