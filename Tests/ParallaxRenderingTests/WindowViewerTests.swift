import Foundation
import ParallaxImaging
import ParallaxRendering
import Testing

/// The GLFW viewer under an X server: uses `DISPLAY` when set, else starts `Xvfb` itself; reported as
/// skipped when neither is available.
@Suite(.serialized) struct WindowViewerTests {
    /// An Xvfb executable, when installed.
    static let xvfbPath = ["/usr/bin/Xvfb", "/usr/local/bin/Xvfb"].first(where: FileManager.default.isExecutableFile)
    static let hasXServer = ProcessInfo.processInfo.environment["DISPLAY"] != nil || xvfbPath != nil

    @Test(.enabled(if: WindowViewerTests.hasXServer, "needs DISPLAY or Xvfb (Debian package xvfb)"), .needsEGL)
    func screenshotMatchesOffscreenRender() throws {
        var xvfb: Process?
        if ProcessInfo.processInfo.environment["DISPLAY"] == nil {
            let path = try #require(Self.xvfbPath)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = [":87", "-screen", "0", "640x480x24", "-nolisten", "tcp"]
            process.standardError = FileHandle.nullDevice
            try process.run()
            xvfb = process
            setenv("DISPLAY", ":87", 1)
            Thread.sleep(forTimeInterval: 1.0)
        }
        defer {
            if let xvfb {
                // SIGKILL: Xvfb started from the test runner ignores SIGTERM (inherited signal disposition).
                kill(xvfb.processIdentifier, SIGKILL)
                xvfb.waitUntilExit()
                unsetenv("DISPLAY")
            }
        }
        let scene = TestScenes.shadows(.directional)
        let size = try RenderSize(width: 160, height: 120)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-viewer-\(getpid()).png")
        defer { try? FileManager.default.removeItem(at: url) }
        let viewer = WindowViewer(scene: scene, options: WindowViewer.Options(size: size, screenshot: url, frames: 3))
        try viewer.run()
        let shot = try PNG.read(contentsOf: url).toRGBA8()
        #expect(shot.width == 160 && shot.height == 120)
        // The viewer re-derives the scene camera as an orbit camera; it must show the same picture.
        let renderer = try #require(SharedRenderer.instance)
        let offscreen = try renderer.render(scene: scene, size: size)
        let d = GoldenImage.compare(shot, offscreen)
        #expect(d.rmse < 6, "viewer screenshot differs from the offscreen render: RMSE \(d.rmse)")
    }
}
