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
        do { image = try PNG.read(contentsOf: url, checksums: .skip) } catch {
            throw DatasetError(.badImage, file: displayPath, "cannot decode image: \(error)")
        }
        try checkSize(width: image.width, height: image.height)
        return image
    }

    /// Decodes the image as 8-bit grey (16-bit and colour images are converted).
    public func loadGray8() throws -> GrayImage { try loadImage().toGray8() }

    /// Reads only the PNG header and checks the size (cheap: no pixel decoding).
    @discardableResult
    public func checkHeader() throws -> PNGInfo {
        let info: PNGInfo
        do { info = try PNG.readInfo(contentsOf: url) } catch {
            throw DatasetError(.badImage, file: displayPath, "cannot read image header: \(error)")
        }
        try checkSize(width: info.width, height: info.height)
        return info
    }

    /// Checks the header and decodes every pixel with checksums verified, so that an image
    /// validation accepts is one replay can decode (truncated data, a missing IEND or corrupted
    /// pixel data fail here, not halfway through a replay). Returns the header, whose format
    /// ``ImageFormatTally`` counts.
    @discardableResult
    public func validateImage() throws -> PNGInfo {
        let info = try checkHeader()
        do { _ = try PNG.read(contentsOf: url, checksums: .verify) } catch {
            throw DatasetError(.badImage, file: displayPath, "cannot decode image: \(error)")
        }
        return info
    }

    private func checkSize(width: Int, height: Int) throws {
        guard width == expectedWidth, height == expectedHeight else {
            throw DatasetError(.badImage, file: displayPath,
                               "image is \(width)x\(height) but mav0/\(camera)/sensor.yaml resolution is \(expectedWidth)x\(expectedHeight)")
        }
    }
}
