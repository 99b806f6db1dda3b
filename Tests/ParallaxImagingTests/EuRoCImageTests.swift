import Foundation
import Testing

@testable import ParallaxImaging

/// The shared folder next to the repository (`<repo>/../shared`), or nil when absent.
func sharedFolder() -> URL? {
    let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    let shared = repo.deletingLastPathComponent().appendingPathComponent("shared")
    return FileManager.default.fileExists(atPath: shared.path) ? shared : nil
}

@Suite struct EuRoCImageTests {
    @Test func decodesRealEuRoCGrayFrame() throws {
        guard let shared = sharedFolder() else {
            print("skipping: ../shared not found next to the repository")
            return
        }
        let data = shared.appendingPathComponent("datasets/euroc-v101-micro/mav0/cam0/data")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: data.path))?.filter { $0.hasSuffix(".png") }
            .sorted() ?? []
        guard let first = files.first else {
            print("skipping: no EuRoC frames under \(data.path)")
            return
        }
        let url = data.appendingPathComponent(first)
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
