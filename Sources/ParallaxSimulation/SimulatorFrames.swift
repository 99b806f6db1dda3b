import Foundation
import ParallaxDatasets
import ParallaxImaging
import ParallaxMath
import ParallaxRendering
import ParallaxSceneGraph

extension Simulator {
    /// What the camera loop recorded for the truth files.
    struct FrameRecords {
        /// Rows of `truth/lighting.json`.
        var lighting: [TruthFiles.LightingFrame] = []
        /// Rows of `truth/meta.json`'s `frames`.
        var exposures: [SensorMetaFile.Frame] = []
    }

    /// Renders and writes every camera frame. Frame `k`'s true time (IMU clock) is
    /// `startNs + k · periodNs`; its written stamp is that minus the camera–IMU time shift.
    func simulateFrames(count frameCount: Int, startNs: Int64, periodNs: Int64, writer: EuRoCWriter,
                        progress: ((Double) -> Void)?) throws -> FrameRecords {
        let config = configuration
        let effects = config.sensorEffects
        let lighting = LightingModel(varies: config.varyLighting, seed: config.seed)
        var autoExposure = effects.autoExposure
            ? AutoExposure(nominalExposure: effects.exposureTime, framePeriod: Double(periodNs) * 1e-9, seed: config.seed) : nil
        let shiftNs = Int64((effects.timeshiftCamIMU * 1e9).rounded())
        var records = FrameRecords()

        var rigs: [CameraRenderer] = []
        let cameraNode = Node(name: "simulated camera")
        let lights = scene.rootNode.subtree.filter { $0.light != nil }
        let baseIntensities = lights.map { $0.light?.intensity ?? 0 }
        if config.renderImages {
            if renderer == nil { renderer = try OffscreenRenderer() }
            rigs = try config.cameras.map { try CameraRenderer(calibration: $0) }
            scene.rootNode.addChildNode(cameraNode)
        }
        defer {
            cameraNode.removeFromParentNode()
            for (light, base) in zip(lights, baseIntensities) { light.light?.intensity = base }
        }

        for k in 0..<frameCount {
            let ns = startNs + Int64(k) * periodNs
            let stampNs = ns - shiftNs + config.timeOffsetNs
            let t = Double(ns) * 1e-9
            let ambient = lighting.ambientIntensity(at: t), kelvin = lighting.colorTemperature(at: t)
            var gain = lighting.exposureGain(at: t), exposure = effects.exposureTime, brightness = gain
            if let autoExposure {
                (exposure, gain) = autoExposure.current
                brightness = autoExposure.brightness
            }
            records.lighting.append(.init(timestampNs: stampNs, ambientIntensity: ambient,
                                          colorTemperature: kelvin, exposureGain: brightness))
            var renders = 0, measuredMean: Double?
            if let renderer {
                for (light, base) in zip(lights, baseIntensities) {
                    light.light?.intensity = base * Float(ambient / 1000)
                    if config.varyLighting { light.light?.temperature = Float(kelvin) }
                }
                let state = trajectory.state(at: t)
                for (c, rig) in rigs.enumerated() {
                    let T_body_camera = config.cameras[c].T_body_camera
                    var random = SeededRandom(seed: config.seed, stream: 1000 + UInt64(k) * 2 + UInt64(c))
                    let (image, count) = try rig.renderFrame(
                        time: t, exposure: exposure, effects: effects, angularSpeed: state.angularVelocityBody.norm,
                        speed: state.velocityWorld.norm, pose: { self.trajectory.pose(at: $0) * T_body_camera }, scene: scene,
                        cameraNode: cameraNode, renderer: renderer, alignment: alignment, gain: Float(brightness),
                        noiseSigma: Float(config.imageNoiseSigma), random: &random)
                    if c == 0 { renders = count }
                    try writer.appendImage(.gray8(image), camera: c, timestampNs: stampNs)
                    if c == 0, autoExposure != nil {
                        measuredMean = rig.meteredMean(image)
                    }
                }
            }
            autoExposure?.update(measuredMean: measuredMean)
            records.exposures.append(.init(timestamp: stampNs, trueTimestamp: ns + config.timeOffsetNs, exposureTime: exposure,
                                           gain: gain, brightness: brightness, renders: renders))
            progress?(Double(k + 1) / Double(frameCount))
        }
        return records
    }
}
