import Foundation
import ParallaxImaging

// The only place in the reader that touches image files, so that the PNG calls stay few.
extension CameraFrame {
    /// Decodes the image and checks its size against `sensor.yaml`'s `resolution`.
    ///
    /// Checksums are skipped (``PNGChecksumPolicy/skip``): replay decodes every
    /// frame, dataset images are trusted input, and truncated or structurally
    /// broken files are still rejected.
    public func loadImage() throws -> AnyImage {
        let image: AnyImage
        do {
            switch content {
            case .file: image = try PNG.read(contentsOf: url, checksums: .skip)
            case .encoded(let e): image = try e.decoder.decode(e.bytes, name: displayPath)
            case .pixels(let p): image = p
            }
        } catch {
            throw DatasetError(.badImage, file: displayPath, "cannot decode image: \(error)")
        }
        try checkSize(width: image.width, height: image.height)
        return image
    }

    /// Decodes the image as 8-bit grey (16-bit and colour images are converted).
    public func loadGray8() throws -> GrayImage { try loadImage().toGray8() }

    /// Reads only the PNG header and checks the size (cheap: no pixel decoding).
    public func checkHeader() throws {
        // An image in memory has no separate header: decoding it checks the size.
        guard content == .file else { _ = try loadImage(); return }
        let info: PNGInfo
        do { info = try PNG.readInfo(contentsOf: url) } catch {
            throw DatasetError(.badImage, file: displayPath, "cannot read image header: \(error)")
        }
        try checkSize(width: info.width, height: info.height)
    }

    private func checkSize(width: Int, height: Int) throws {
        guard width == expectedWidth, height == expectedHeight else {
            throw DatasetError(.badImage, file: displayPath,
                               "image is \(width)x\(height) but mav0/\(camera)/sensor.yaml resolution is \(expectedWidth)x\(expectedHeight)")
        }
    }
}
