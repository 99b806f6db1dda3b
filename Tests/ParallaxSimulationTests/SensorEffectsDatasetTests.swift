import Foundation
import ParallaxDatasets
import ParallaxImaging
import ParallaxMath
import ParallaxSceneGraph
import Testing

@testable import ParallaxSimulation

/// Sensor effects seen in a written dataset: stamps, `sensor.yaml`, `truth/meta.json`, images.
@Suite(.serialized) struct SensorEffectsDatasetTests {
    /// Simulates `duration` s of `motion` through the room with small cameras (fast).
    func simulate(_ name: String, effects: SensorEffects, motion: MotionPreset = .handheld, duration: Double = 0.3,
                  stereo: Bool = false, images: Bool = true, constantLighting: Bool = false) throws -> URL {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("parallax-sensor-\(name)-\(ProcessInfo.processInfo.processIdentifier)")
        let scene = try Scene.load(contentsOf: roomSceneURL())
        let alignment = SimulationSetup.floorAlignment(for: scene)
        let settings = SimulationSetup.motionSettings(for: scene, alignment: alignment)
        let trajectory = try TrajectoryBuilder.preset(motion, duration: duration, settings: settings)
        var config = SimulationConfiguration()
        config.seed = 4
        config.cameras = (stereo ? [CameraCalibration.eurocCam0, .eurocCam1] : [.eurocCam0]).map {
            var small = smallPinhole(width: 188, height: 120, focal: 115)
            small.name = $0.name
            small.T_BS = $0.T_BS
            return small
        }
        config.sensorEffects = effects
        config.renderImages = images
        config.varyLighting = !constantLighting
        try Simulator(scene: scene, trajectory: trajectory, configuration: config, alignment: alignment).run(to: folder)
        return folder
    }

    func meta(_ folder: URL) throws -> SensorMetaFile {
        try JSONDecoder().decode(SensorMetaFile.self, from: Data(contentsOf: folder.appendingPathComponent("truth/meta.json")))
    }

    @Test func timeShiftMovesImageStampsOnly() throws {
        var shifted = SensorEffects()
        shifted.timeshiftCamIMU = 0.0123
        let a = try simulate("ideal", effects: SensorEffects()), b = try simulate("shifted", effects: shifted)
        defer { for f in [a, b] { try? FileManager.default.removeItem(at: f) } }
        let ideal = try EuRoCDataset(url: a), late = try EuRoCDataset(url: b)
        // The ideal run states no timing and writes no meta.json.
        #expect(ideal.cameras[0].timeOffset == nil && ideal.cameras[0].lineDelay == nil)
        #expect(!FileManager.default.fileExists(atPath: a.appendingPathComponent("truth/meta.json").path))
        #expect(late.cameras[0].timeOffset == 0.0123 && late.cameras[0].lineDelay == nil)
        #expect(try meta(b).timeshift_cam_imu == 0.0123)
        // Kalibr: t_imu = t_cam + shift, so every stamp is exactly 12.3 ms earlier; same pixels.
        let fa = try ideal.cameraFrames(0), fb = try late.cameraFrames(0)
        #expect(fa.count == fb.count && fa.count == 7)
        for (x, y) in zip(fa, fb) {
            #expect(x.timestampNs - y.timestampNs == 12_300_000)
            #expect(try Data(contentsOf: x.url) == Data(contentsOf: y.url))
        }
        #expect(try ideal.imuSamples() == late.imuSamples())
    }

    @Test func calibrationErrorIsWrittenAndRecorded() throws {
        var effects = SensorEffects()
        effects.calibrationError = CalibrationErrorSizes.kalibrQuality.scaled(by: 2)
        let folder = try simulate("calibration", effects: effects, stereo: true, images: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        let written = try EuRoCDataset(url: folder).cameras
        let truth = try meta(folder)
        #expect(truth.cameras.count == 2 && truth.profile == "ideal")
        var relative: [RigidTransform] = []
        for (c, camera) in truth.cameras.enumerated() {
            let t = camera.trueCalibration.intrinsics, w = written[c].intrinsics
            #expect(camera.writtenCalibration.intrinsics == [w.fu, w.fv, w.cu, w.cv])
            #expect(t == [115, 115, 93.5, 59.5])
            #expect(abs(abs(w.fu / t[0] - 1) - 0.003) < 1e-12 && abs(abs(w.fv / t[1] - 1) - 0.003) < 1e-12)
            #expect(abs(hypot(w.cu - t[2], w.cv - t[3]) - 1.5) < 1e-9)
            let T_true = RigidTransform(matrix: Matrix4(rowMajor: camera.trueCalibration.T_BS.flatMap { $0 }))
            let T_written = written[c].T_body_camera
            #expect(abs(T_true.rotation.angle(to: T_written.rotation) * 180 / .pi - 0.3) < 1e-6)
            #expect(abs((T_written.translation - T_true.translation).norm - 0.005) < 1e-9)
            #expect(abs(camera.error.rotationDegrees - 0.3) < 1e-9 && abs(camera.error.translationMillimetres - 5) < 1e-9)
            relative.append(T_true.inverse * T_written)
        }
        // Each camera has its own error, so the stereo pair's relative pose is wrong too.
        #expect(relative[0].rotation.angle(to: relative[1].rotation) > 1e-4)
        #expect(truth.calibrationErrorSizes["rotationDegrees"] == 0.3)
    }

    @Test func autoExposureVariesBrightnessFrameToFrame() throws {
        var effects = SensorEffects()
        effects.autoExposure = true
        effects.exposureTime = 0.005
        let folder = try simulate("auto-exposure", effects: effects, motion: .still, duration: 1, constantLighting: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let frames = try EuRoCDataset(url: folder).cameraFrames(0)
        let means = try frames.map { frame -> Double in
            let pixels = try frame.loadImage().toGray8().pixels
            return pixels.reduce(0) { $0 + Double($1) } / Double(pixels.count)
        }
        let recorded = try meta(folder).frames
        #expect(recorded.count == means.count && means.count == 21)
        let brightness = recorded.map(\.brightness)
        print("auto-exposure brightness \(brightness.map { String(format: "%.3f", $0) }), image means \(means.map { Int($0) })")
        // The scene and camera are still and lighting is constant: only auto-exposure changes
        // the image, so its mean follows the recorded brightness factor.
        #expect((brightness.max() ?? 0) / (brightness.min() ?? 1) > 1.1)
        #expect(correlation(means, brightness) > 0.9)
        #expect(recorded.allSatisfy { $0.exposureTime >= 0.005 / 4 && $0.exposureTime <= 0.01 })
        #expect(recorded.allSatisfy { abs($0.exposureTime / 0.005 * $0.gain - $0.brightness) < 1e-9 })
    }

    @Test func sensorYAMLStatesKalibrTimingUnlessHidden() throws {
        var effects = SensorProfile.phone.effects
        let stated = try simulate("timing", effects: effects, images: false)
        effects.statesTimingInCalibration = false
        let hidden = try simulate("timing-hidden", effects: effects, images: false)
        defer { for f in [stated, hidden] { try? FileManager.default.removeItem(at: f) } }
        let camera = try EuRoCDataset(url: stated).cameras[0]
        #expect(camera.timeOffset == 0.01 && camera.lineDelay == 0.02 / 120)
        let yaml = try String(contentsOf: stated.appendingPathComponent("mav0/cam0/sensor.yaml"), encoding: .utf8)
        #expect(yaml.contains("timeshift_cam_imu: 0.01") && yaml.contains("line_delay: "))
        let bare = try EuRoCDataset(url: hidden).cameras[0]
        #expect(bare.timeOffset == nil && bare.lineDelay == nil)
        let truth = try meta(hidden)
        #expect(truth.profile == "phone" && truth.lineDelay == 0.02 / 120 && truth.timestampRow == 59.5 && !truth.timingStatedInSensorYAML)
    }

    @Test func profilesAndValidation() throws {
        #expect(SensorProfile.ideal.effects.isIdeal)
        let phone = SensorProfile.phone.effects
        #expect(phone.rollingShutterReadout == 0.02 && phone.exposureTime == 0.005 && phone.timeshiftCamIMU == 0.01)
        #expect(phone.autoExposure && phone.calibrationError == .kalibrQuality && SensorProfile.phone.isMono)
        #expect(SensorProfile.euroc.effects.rollingShutterReadout == 0 && !SensorProfile.euroc.effects.autoExposure)
        var bad = SensorEffects()
        bad.exposureTime = 0.06
        #expect(throws: SimulationError.self) { try bad.validate(framePeriod: 0.05) }
        bad.exposureTime = .nan
        #expect(throws: SimulationError.self) { try bad.validate(framePeriod: 0.05) }
        #expect(throws: SimulationError.self) {
            _ = try simulate("phone-stereo", effects: SensorProfile.phone.effects, stereo: true, images: false)
        }
    }
}

/// Pearson correlation of two equally long series.
func correlation(_ a: [Double], _ b: [Double]) -> Double {
    let n = Double(a.count)
    let ma = a.reduce(0, +) / n, mb = b.reduce(0, +) / n
    var sab = 0.0, saa = 0.0, sbb = 0.0
    for (x, y) in zip(a, b) {
        sab += (x - ma) * (y - mb); saa += (x - ma) * (x - ma); sbb += (y - mb) * (y - mb)
    }
    return sab / (saa * sbb).squareRoot()
}
