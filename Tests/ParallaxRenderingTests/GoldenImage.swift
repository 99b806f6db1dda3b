import Foundation
import ParallaxImaging
import ParallaxRendering
import ParallaxSceneGraph
import Testing

/// Golden-image comparison for renderer tests.
///
/// Tolerances (8-bit channel units, over R, G, B of every pixel):
/// - RMSE ≤ 2.5: llvmpipe versions or another GPU shift edges, MSAA coverage and PCF noise slightly, which
///   gives RMSEs well below 1.5 on these small scenes; a wrong colour, light or missing object gives ≥ 5.
/// - at most 1 % of pixels may differ by more than 40: rasterisation rules move single edge pixels, but
///   a shadow or object that moves by a few pixels exceeds this.
/// - max difference ≤ 255 is not bounded on its own, since one edge pixel can flip fully; the 1 % rule covers it.
/// Set `PARALLAX_UPDATE_GOLDEN=1` to (re)write the golden PNGs instead of comparing.
enum GoldenImage {
    static let rmseTolerance = 2.5
    static let largeDifference = 40
    static let largeDifferenceFraction = 0.01

    static var directory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    }

    struct Difference {
        let rmse: Double
        let maxDifference: Int
        let largeFraction: Double
    }

    static func compare(_ a: RGBAImage, _ b: RGBAImage) -> Difference {
        var sum = 0.0
        var maxDiff = 0
        var large = 0
        for (p, q) in zip(a.pixels, b.pixels) {
            let d = [Int(p.r) - Int(q.r), Int(p.g) - Int(q.g), Int(p.b) - Int(q.b)].map(abs)
            for v in d { sum += Double(v * v) }
            let m = d.max() ?? 0
            maxDiff = max(maxDiff, m)
            if m > largeDifference { large += 1 }
        }
        let n = Double(max(a.pixels.count, 1))
        return Difference(rmse: (sum / (3 * n)).squareRoot(), maxDifference: maxDiff, largeFraction: Double(large) / n)
    }

    /// Compares `image` with `Golden/<name>.png` (or writes it when updating).
    static func check(_ image: RGBAImage, named name: String) throws {
        let url = directory.appendingPathComponent("\(name).png")
        if ProcessInfo.processInfo.environment["PARALLAX_UPDATE_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try PNG.write(.rgba8(image), to: url)
            print("golden: wrote \(url.path)")
            return
        }
        let golden = try PNG.read(contentsOf: url).toRGBA8()
        #expect(golden.width == image.width && golden.height == image.height, "\(name): size differs from golden")
        guard golden.width == image.width, golden.height == image.height else { return }
        let d = compare(image, golden)
        if d.rmse > rmseTolerance || d.largeFraction > largeDifferenceFraction {
            let out = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-\(name)-actual.png")
            try? PNG.write(.rgba8(image), to: out)
            print("golden \(name): RMSE \(d.rmse), max \(d.maxDifference), >\(largeDifference): \(d.largeFraction); actual at \(out.path)")
        }
        #expect(d.rmse <= rmseTolerance, "\(name): RMSE \(d.rmse) > \(rmseTolerance)")
        #expect(d.largeFraction <= largeDifferenceFraction, "\(name): \(d.largeFraction * 100)% pixels differ by > \(largeDifference)")
    }
}

/// One renderer for all tests (opening EGL and compiling shaders once); nil, with the reason printed
/// once, when no EGL display can be opened on this machine (tests marked `.needsEGL` are then
/// reported as skipped).
enum SharedRenderer {
    static let instance: OffscreenRenderer? = {
        do { return try OffscreenRenderer() } catch {
            print("no EGL renderer: \(error)")
            return nil
        }
    }()
    static func size() throws -> RenderSize { try RenderSize(width: 160, height: 120) }
}

extension Trait where Self == ConditionTrait {
    /// Runs a test only when an EGL renderer can be created; otherwise it is reported as skipped.
    static var needsEGL: Self {
        .enabled(if: SharedRenderer.instance != nil, "needs an EGL display (Mesa surfaceless or a GPU device)")
    }
}
