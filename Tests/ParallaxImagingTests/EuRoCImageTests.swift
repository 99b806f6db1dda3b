import Foundation
import Testing

@testable import ParallaxImaging

@Suite struct EuRoCImageTests {
    /// The snippet's cam0 images in `<repo>/../shared`.
    static let frames = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("shared/datasets/euroc-v101-micro/mav0/cam0/data")

    /// The name of its first frame, or nil when ../shared is absent.
    static let firstFrame = (try? FileManager.default.contentsOfDirectory(atPath: frames.path))?
        .filter { $0.hasSuffix(".png") }.sorted().first

    @Test(.enabled(if: EuRoCImageTests.firstFrame != nil,
                   "needs ../shared/datasets/euroc-v101-micro beside the repository"))
    func decodesRealEuRoCGrayFrame() throws {
        let first = try #require(Self.firstFrame)
        let url = Self.frames.appendingPathComponent(first)
        let info = try PNG.readInfo(contentsOf: url)
        #expect(info.width == 752 && info.height == 480 && info.bitDepth == 8 && info.channels == 1)
        let image = try PNG.read(contentsOf: url)
        guard case .gray8(let gray) = image else {
            Issue.record("EuRoC frame decoded as \(image.channels) channels, \(image.bitDepth) bit")
            return
        }
        #expect(gray.width == 752 && gray.height == 480)
        // A real camera frame has texture: many distinct grey levels and no constant image.
        let levels = Set(gray.pixels)
        #expect(levels.count > 64)
        // Re-encoding and decoding the real frame is lossless.
        guard case .gray8(let again) = try PNG.decode(PNG.encode(image), name: first) else {
            Issue.record("re-encode changed format"); return
        }
        #expect(again == gray)
    }
}
