import Foundation
import ParallaxDatasets
import ParallaxMath
import ParallaxRendering
import ParallaxSceneGraph
import ParallaxSimulation

/// Speed of the camera simulation, for `parallax bench`.
public enum SimulationBenchmark {
    /// The result of one measurement.
    public struct Result: Sendable, CustomStringConvertible {
        /// Stereo pairs or mono frames simulated.
        public var frames: Int
        /// Cameras per frame.
        public var cameras: Int
        /// Wall-clock seconds, excluding set-up (renderer start, first frame's uploads).
        public var seconds: Double
        /// Frames (mono images or stereo pairs) per second.
        public var framesPerSecond: Double { Double(frames) / seconds }
        /// The GL device used.
        public var device: String

        public var description: String {
            String(format: "%@ %dx%d: %.1f frames/s (%d frames in %.2f s) on %@",
                   cameras == 2 ? "stereo" : "mono", CameraCalibration.eurocCam0.width, CameraCalibration.eurocCam0.height,
                   framesPerSecond, frames, seconds, device)
        }
    }

    /// Renders, warps and adds noise to `frames` EuRoC-sized (752×480) frames along the handheld
    /// preset in `scene`, without writing files (PNG encoding and disk are not part of the figure).
    public static func run(scene: Scene, stereo: Bool, frames: Int = 40) throws -> Result {
        let alignment = SimulationSetup.floorAlignment(for: scene)
        let settings = SimulationSetup.motionSettings(for: scene, alignment: alignment)
        let trajectory = try TrajectoryBuilder.preset(.handheld, duration: Double(frames) / 20 + 1, settings: settings)
        let cameras = SimulationConfiguration.eurocCameras(stereo: stereo)
        let renderer = try OffscreenRenderer()
        let rigs = try cameras.map { try CameraRenderer(calibration: $0) }
        let node = Node(name: "benchmark camera")
        scene.rootNode.addChildNode(node)
        defer { node.removeFromParentNode() }
        var random = SeededRandom(seed: 1)
        func frame(_ k: Int) throws {
            let T_world_body = trajectory.pose(at: Double(k) / 20)
            for (c, rig) in rigs.enumerated() {
                let wide = try rig.renderWide(scene: scene, cameraNode: node, renderer: renderer, alignment: alignment,
                                              T_world_camera: T_world_body * cameras[c].T_body_camera)
                _ = rig.warp(wide: wide, gain: 1, noiseSigma: 2, random: &random)
            }
        }
        try frame(0)  // warm-up: shader compilation and texture uploads
        let start = DispatchTime.now().uptimeNanoseconds
        for k in 1...frames { try frame(k) }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) * 1e-9
        return Result(frames: frames, cameras: cameras.count, seconds: seconds, device: renderer.deviceDescription)
    }
}
