import Foundation
import ParallaxDatasets
import ParallaxImaging
import ParallaxMath
import ParallaxVision

extension CameraCalibration {
    /// The Vision camera model (intrinsics + distortion) of this calibration.
    public var cameraModel: any CameraModel {
        let k = intrinsics
        switch distortion {
        case let .radialTangential(k1, k2, p1, p2):
            return PinholeRadTanCamera(width: width, height: height, fx: k.fu, fy: k.fv, cx: k.cu, cy: k.cv,
                                       k1: k1, k2: k2, p1: p1, p2: p2)
        case let .equidistant(k1, k2, k3, k4):
            return EquidistantCamera(width: width, height: height, fx: k.fu, fy: k.fv, cx: k.cu, cy: k.cv,
                                     k1: k1, k2: k2, k3: k3, k4: k4)
        }
    }
}

/// Remaps raw (distorted) camera images onto the ideal pinhole camera with the same intrinsics,
/// so that ``Camera/intrinsics`` describes ``Frame/capturedImage`` exactly.
///
/// The source position of every output pixel is computed once (`K · d(K⁻¹ · u)`), then each frame
/// costs one bilinear lookup per pixel. Pixels whose source lies outside the raw image are black.
public struct ImageUndistorter: Sendable {
    /// Output size (= input size).
    public let width: Int, height: Int
    private let sourceX: [Float]
    private let sourceY: [Float]

    /// Prepares the map for `model`.
    public init(model: any CameraModel) {
        width = model.width
        height = model.height
        var xs = [Float](repeating: -1, count: width * height), ys = xs
        for v in 0..<height {
            for u in 0..<width {
                let xn = Vector2((Double(u) - model.cx) / model.fx, (Double(v) - model.cy) / model.fy)
                let src = model.distortToPixel(xn)
                if src.x.isFinite, src.y.isFinite, model.contains(src) {
                    xs[v * width + u] = Float(src.x)
                    ys[v * width + u] = Float(src.y)
                }
            }
        }
        sourceX = xs
        sourceY = ys
    }

    /// Undistorts a grey image of the model's size (other sizes are returned unchanged).
    public func undistort(_ image: GrayImage) -> GrayImage {
        guard image.width == width, image.height == height else { return image }
        var out = GrayImage(width: width, height: height, fill: 0)
        image.pixels.withUnsafeBufferPointer { src in
            for i in 0..<(width * height) {
                let x = sourceX[i], y = sourceY[i]
                guard x >= 0 else { continue }
                let x0 = Int(x), y0 = Int(y)
                let x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
                let ax = x - Float(x0), ay = y - Float(y0)
                let a = Float(src[y0 * width + x0]), b = Float(src[y0 * width + x1])
                let c = Float(src[y1 * width + x0]), d = Float(src[y1 * width + x1])
                let top = a + ax * (b - a), bottom = c + ax * (d - c)
                out.pixels[i] = UInt8(max(0, min(255, (top + ay * (bottom - top)).rounded())))
            }
        }
        return out
    }
}
