import ParallaxImaging
import ParallaxMath

/// Errors raised at the front-end's input boundary.
public struct VisionError: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String
}

extension FloatPlane {
    /// Converts an 8-bit grey image to 0…255 floats (the front-end's boundary conversion).
    /// Throws when the image's pixel count does not match its size.
    public init(_ image: GrayImage) throws {
        guard let plane = FloatPlane(width: image.width, height: image.height, gray8: image.pixels) else {
            throw VisionError(description: "grey image of \(image.width)×\(image.height) holds "
                + "\(image.pixels.count) pixels")
        }
        self = plane
    }
}

extension FeatureTracker {
    /// Processes 8-bit grey images; see ``process(image:timestamp:rightImage:predictedRotation:)``.
    public mutating func process(image: GrayImage, timestamp: Double, rightImage: GrayImage? = nil,
                                 predictedRotation R_cur_prev: Matrix3? = nil) throws -> FeatureFrame {
        process(image: try FloatPlane(image), timestamp: timestamp, rightImage: try rightImage.map(FloatPlane.init),
                predictedRotation: R_cur_prev)
    }
}
