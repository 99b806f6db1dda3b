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

    /// Reads only the PNG header and checks the size (cheap: no pixel decoding). Returns the
    /// header; nil for an image held in memory, which has no separate header (it is decoded, which
    /// checks the size).
    @discardableResult
    public func checkHeader() throws -> PNGInfo? {
        guard content == .file else { _ = try loadImage(); return nil }
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
    public func validateImage() throws -> PNGInfo? {
        guard let info = try checkHeader() else { return nil }
        do { _ = try PNG.read(contentsOf: url, checksums: .verify) } catch {
            throw DatasetError(.badImage, file: displayPath, "cannot decode image: \(error)")
        }
        return info
    }

    private func checkSize(width: Int, height: Int) throws {
        guard width == expectedWidth, height == expectedHeight else {
            throw DatasetError(.badImage, file: displayPath,
                               "image is \(width)x\(height) but the \(camera) calibration (its sensor.yaml or camchain resolution) "
                               + "is \(expectedWidth)x\(expectedHeight)")
        }
    }
}
