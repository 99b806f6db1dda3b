import Foundation
import ParallaxMath
import Testing
@testable import ParallaxDatasets

@Suite("Kalibr camchain.yaml and imu.yaml")
struct KalibrCalibrationTests {
    /// EuRoC's cam0 and cam1 as Kalibr writes them (T_cam_imu = T_BS⁻¹, rows as nested lists).
    static func camchain(cam1Chained: Bool = false) throws -> (text: String, euroc: [CameraCalibration]) {
        let d = try EuRoCDataset(url: SampleData.url)
        var cam1 = d.cameras[0]
        cam1.name = "cam1"
        cam1.T_BS = (d.cameras[0].T_body_camera * RigidTransform(rotation: .identity, translation: Vector3(0.11, 0, 0))).matrix
        func rows(_ m: Matrix4) -> String {
            (0..<4).map { r in "  - [" + (0..<4).map { c in "\(m.rowMajor[4 * r + c])" }.joined(separator: ", ") + "]" }
                .joined(separator: "\n")
        }
        func block(_ c: CameraCalibration, pose: String) -> String {
            let k = c.intrinsics, dist = c.distortion.coefficients.map { "\($0)" }.joined(separator: ", ")
            return """
            \(c.name):
              \(pose)
              cam_overlaps: [1]
              camera_model: pinhole
              distortion_coeffs: [\(dist)]
              distortion_model: radtan
              intrinsics: [\(k.fu), \(k.fv), \(k.cu), \(k.cv)]
              resolution: [\(c.width), \(c.height)]
              rostopic: /\(c.name)/image_raw
              timeshift_cam_imu: 0.0021
            """
        }
        let T0 = d.cameras[0].T_body_camera.inverse.matrix
        let T1 = cam1.T_body_camera.inverse.matrix
        let pose1 = cam1Chained
            ? "T_cn_cnm1:\n" + rows((cam1.T_body_camera.inverse * d.cameras[0].T_body_camera).matrix)
            : "T_cam_imu:\n" + rows(T1)
        let text = block(d.cameras[0], pose: "T_cam_imu:\n" + rows(T0)) + "\n" + block(cam1, pose: pose1) + "\n"
        return (text, [d.cameras[0], cam1])
    }

    static func close(_ a: Matrix4, _ b: Matrix4) -> Bool {
        zip(a.rowMajor, b.rowMajor).allSatisfy { abs($0 - $1) < 1e-9 }
    }

    @Test(arguments: [false, true]) func camchainBecomesTheEuRoCCalibration(chained: Bool) throws {
        let (text, euroc) = try Self.camchain(cam1Chained: chained)
        let k = try KalibrCalibration(camchainText: text, file: "camchain-imucam.yaml", rateHz: 20)
        #expect(k.cameras.count == 2 && k.cameraTopics == ["/cam0/image_raw", "/cam1/image_raw"])
        for (got, want) in zip(k.cameras, euroc) {
            #expect(got.name == want.name && Self.close(got.T_BS, want.T_BS))
            #expect(got.intrinsics == want.intrinsics && got.distortion == want.distortion)
            #expect(got.width == 752 && got.height == 480 && got.rateHz == 20 && got.timeOffset == 0.0021)
            // The EuRoC sensor.yaml written from it reads back to the same values.
            let back = try CameraCalibration(yamlText: got.sensorYAML, name: got.name, file: "sensor.yaml")
            #expect(back.T_BS == got.T_BS && back.intrinsics == got.intrinsics && back.timeOffset == got.timeOffset)
        }
    }

    @Test func imuYAMLInBothLayouts() throws {
        let flat = """
            accelerometer_noise_density: 2.0e-3
            accelerometer_random_walk: 3.0e-3
            gyroscope_noise_density: 1.6968e-04
            gyroscope_random_walk: 1.9393e-05
            rostopic: /imu0
            update_rate: 200.0
            """
        let (imu, topic) = try KalibrCalibration.imu(text: flat, file: "imu.yaml")
        #expect(topic == "/imu0" && imu.rateHz == 200 && imu.gyroscopeNoiseDensity == 1.6968e-04)
        #expect(imu.accelerometerRandomWalk == 3.0e-3 && imu.T_BS == .identity)
        let nested = "imu0:\n  T_i_b:\n  - [1.0, 0.0, 0.0, 0.0]\n  - [0.0, 1.0, 0.0, 0.0]\n  - [0.0, 0.0, 1.0, 0.0]\n  - [0.0, 0.0, 0.0, 1.0]\n"
            + flat.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n") + "\n"
        #expect(try KalibrCalibration.imu(text: nested, file: "imu.yaml").calibration == imu)
        let back = try IMUCalibration(yamlText: imu.sensorYAML, name: "imu0", file: "sensor.yaml")
        #expect(back == imu)
    }

    @Test func badFilesNameTheFileBlockAndField() throws {
        let (text, _) = try Self.camchain()
        func message(_ body: () throws -> Void) -> String {
            do { try body(); return "no error" } catch { return "\(error)" }
        }
        let noPose = text.replacingOccurrences(of: "T_cam_imu", with: "T_other")
        #expect(message { _ = try KalibrCalibration(camchainText: noPose, file: "c.yaml") }.contains("c.yaml (cam0)"))
        #expect(message { _ = try KalibrCalibration(camchainText: noPose, file: "c.yaml") }.contains("T_cam_imu"))
        let omni = text.replacingOccurrences(of: "camera_model: pinhole", with: "camera_model: omni")
        #expect(message { _ = try KalibrCalibration(camchainText: omni, file: "c.yaml") }.contains("camera_model"))
        #expect(message { _ = try KalibrCalibration(camchainText: "foo: 1\n", file: "c.yaml") }.contains("cam0"))
        let badRate = message { _ = try KalibrCalibration(camchainText: text, file: "c.yaml", rateHz: -1) }
        #expect(badRate.contains("rate_hz"))
        let shiftedBody = "imu0:\n  T_i_b: [[1, 0, 0, 0.1], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]\n  update_rate: 200\n"
        #expect(message { _ = try KalibrCalibration.imu(text: shiftedBody, file: "imu.yaml") }.contains("T_i_b"))
        let negative = "update_rate: 200\ngyroscope_noise_density: -1\ngyroscope_random_walk: 1e-5\n"
            + "accelerometer_noise_density: 1e-3\naccelerometer_random_walk: 1e-3\n"
        #expect(message { _ = try KalibrCalibration.imu(text: negative, file: "imu.yaml") }.contains("gyroscope_noise_density"))
    }

    @Test func aFolderReadWithAKalibrCalibration() throws {
        let d = try EuRoCDataset(url: SampleData.url)
        var cam = d.cameras[0]
        cam.intrinsics.fu = 400
        let r = try d.recalibrated(cameras: [cam], imu: nil)
        #expect(r.cameras[0].intrinsics.fu == 400 && r.imu == d.imu && r.mav0 == d.mav0)
        #expect(throws: DatasetError.self) { try d.recalibrated(cameras: [cam, cam], imu: nil) }
    }
}
