import Foundation
import ParallaxImaging
import ParallaxMath

/// CPU compositing of rendered content over the camera image, in linear light.
enum ARCompositor {
    /// sRGB decode of the 256 code values (IEC 61966-2-1).
    static let decode: [Double] = (0..<256).map { i in
        let c = Double(i) / 255
        return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }

    /// sRGB encode to 8 bits.
    static func encode(_ c: Double) -> UInt8 {
        let x = min(1, max(0, c))
        let e = x <= 0.0031308 ? x * 12.92 : 1.055 * pow(x, 1 / 2.4) - 0.055
        return UInt8((e * 255).rounded())
    }

    /// Composites `content` (the renderer's output over a transparent background: sRGB-encoded
    /// colour of linear premultiplied coverage, alpha = coverage) over `background`:
    /// out = content + (1 − α)·background in linear light. Where `visibility` (shadow-catcher
    /// light visibility, NaN = no catcher) is below 1 the background is first darkened by
    /// `strength`·(1 − visibility). Pixels with no content and no shadow are copied unchanged.
    static func composite(content: RGBAImage, background: RGBAImage, visibility: [Float]?, shadowStrength: Double) -> RGBAImage {
        var out = background
        let d = decode
        for i in 0..<min(content.pixels.count, background.pixels.count) {
            let c = content.pixels[i]
            var shade = 1.0
            if let v = visibility?[i], !v.isNaN, v < 0.999 { shade = 1 - shadowStrength * Double(1 - v) }
            if c.a == 0 && shade == 1 { continue }
            let b = background.pixels[i]
            let a = Double(c.a) / 255
            let keep = (1 - a) * shade
            out.pixels[i] = RGBA8(r: encode(d[Int(c.r)] + keep * d[Int(b.r)]),
                                  g: encode(d[Int(c.g)] + keep * d[Int(b.g)]),
                                  b: encode(d[Int(c.b)] + keep * d[Int(b.b)]), a: 255)
        }
        return out
    }

    /// The background for a viewport: the image itself when sizes agree, otherwise scaled to
    /// cover the viewport and centred (aspect fill, bilinear).
    static func fitBackground(_ image: RGBAImage, width: Int, height: Int) -> RGBAImage {
        if image.width == width && image.height == height { return image }
        let s = max(Double(width) / Double(image.width), Double(height) / Double(image.height))
        let ox = (s * Double(image.width) - Double(width)) / 2, oy = (s * Double(image.height) - Double(height)) / 2
        var out = RGBAImage(width: width, height: height, fill: RGBA8(r: 0, g: 0, b: 0, a: 255))
        for y in 0..<height {
            for x in 0..<width {
                let sx = min(max((Double(x) + 0.5 + ox) / s - 0.5, 0), Double(image.width - 1))
                let sy = min(max((Double(y) + 0.5 + oy) / s - 0.5, 0), Double(image.height - 1))
                let x0 = min(Int(sx), image.width - 2 < 0 ? 0 : image.width - 2), y0 = min(Int(sy), image.height - 2 < 0 ? 0 : image.height - 2)
                let x1 = min(x0 + 1, image.width - 1), y1 = min(y0 + 1, image.height - 1)
                let fx = sx - Double(x0), fy = sy - Double(y0)
                func ch(_ k: KeyPath<RGBA8, UInt8>) -> UInt8 {
                    let a = Double(image[x0, y0][keyPath: k]), b = Double(image[x1, y0][keyPath: k])
                    let c = Double(image[x0, y1][keyPath: k]), d = Double(image[x1, y1][keyPath: k])
                    let top = a + (b - a) * fx, bottom = c + (d - c) * fx
                    return UInt8(max(0, min(255, (top + (bottom - top) * fy).rounded())))
                }
                out[x, y] = RGBA8(r: ch(\.r), g: ch(\.g), b: ch(\.b), a: 255)
            }
        }
        return out
    }

    /// Maps a pixel of the undistorted image to the viewport (same aspect-fill as the background).
    static func viewportPixel(_ p: Vector2?, camera: ARCameraGeometry, width: Int, height: Int) -> Vector2? {
        guard let p else { return nil }
        if camera.width == width && camera.height == height { return p }
        let s = max(Double(width) / Double(camera.width), Double(height) / Double(camera.height))
        let ox = (s * Double(camera.width) - Double(width)) / 2, oy = (s * Double(camera.height) - Double(height)) / 2
        return Vector2((p.x + 0.5) * s - ox - 0.5, (p.y + 0.5) * s - oy - 0.5)
    }
}
