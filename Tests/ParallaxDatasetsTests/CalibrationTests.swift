import Foundation
import Testing
import ParallaxMath
@testable import ParallaxDatasets

@Suite("Calibration (sensor.yaml)")
struct CalibrationTests {
    @Test(.needsRealSnippet) func readsTheRealCam0Calibration() throws {
        let root = Fixtures.realSnippetURL
        let c = try CameraCalibration(contentsOf: root.appendingPathComponent("mav0/cam0/sensor.yaml"),
                                      name: "cam0", file: "mav0/cam0/sensor.yaml")
        #expect(c.comment == "VI-Sensor cam0 (MT9M034)")
        #expect(c.width == 752 && c.height == 480)
        #expect(c.rateHz == 20)
        #expect(c.cameraModel == "pinhole")
        #expect(c.intrinsics == PinholeIntrinsics(fu: 458.654, fv: 457.296, cu: 367.215, cv: 248.375))
        #expect(c.distortion == .radialTangential(k1: -0.28340811, k2: 0.07395907, p1: 0.00019359, p2: 1.76187114e-05))
        #expect(c.T_BS[0, 3] == -0.0216401454975)
        #expect(c.T_BS[1, 0] == 0.999557249008)
        // T_BS's third column is the optical axis expressed in the body frame.
        let T = c.T_body_camera
        #expect(abs(T.translation.y - (-0.064676986768)) < 1e-12)
        let zAxis = T.rotate(Vector3(0, 0, 1))
        #expect(abs(zAxis.z - 0.999660727178) < 1e-6)
        #expect(abs(zAxis.y - 0.025715529948) < 1e-6)
    }

    @Test(.needsRealSnippet) func readsTheRealIMUCalibrationAndDiscretises() throws {
        let root = Fixtures.realSnippetURL
        let c = try IMUCalibration(contentsOf: root.appendingPathComponent("mav0/imu0/sensor.yaml"),
                                   name: "imu0", file: "mav0/imu0/sensor.yaml")
        #expect(c.rateHz == 200)
        #expect(c.T_BS == .identity)
        #expect(c.gyroscopeNoiseDensity == 1.6968e-04)
        #expect(c.gyroscopeRandomWalk == 1.9393e-05)
        #expect(c.accelerometerNoiseDensity == 2.0e-3)
        #expect(c.accelerometerRandomWalk == 3.0e-3)
        // σ_d = σ_c / √Δt with Δt = 5 ms, i.e. σ_c · √200; random walk per step σ_c · √Δt.
        #expect(abs(c.discreteGyroscopeNoiseSigma - 1.6968e-04 * 200.0.squareRoot()) < 1e-15)
        #expect(abs(c.discreteAccelerometerBiasStepSigma - 3.0e-3 * 0.005.squareRoot()) < 1e-15)
    }

    @Test func readsTUMVIStyleEquidistantWithOpenCVMatrixTag() throws {
        let text = """
            %YAML:1.0
            ---
            T_BS: !!opencv-matrix
               rows: 4
               cols: 4
               dt: d
               data: [ -0.99952504, 0.00750192, -0.02989013, 0.04557484,
                   0.02961534, -0.03439736, -0.99896935, -0.07116180,
                   -0.00852233, -0.99938008, 0.03415885, -0.04468125, 0., 0., 0., 1. ]
            rate_hz: 20
            resolution: [512, 512]
            camera_model: pinhole
            intrinsics: [190.978, 190.973, 254.932, 256.897]
            distortion_model: equidistant
            distortion_coefficients: [0.00348, 0.000715, -0.00205, 0.000203]
            """
        let c = try CameraCalibration(yamlText: text, name: "cam0", file: "cam0/sensor.yaml")
        #expect(c.distortion == .equidistant(k1: 0.00348, k2: 0.000715, k3: -0.00205, k4: 0.000203))
        #expect(c.width == 512)
        #expect(c.T_BS[0, 0] == -0.99952504)
        #expect(c.T_BS[2, 3] == -0.04468125)
    }

    @Test func errorNamesFileAndField() {
        let text = Fixtures.cameraYAML.replacingOccurrences(of: "[40.0, 41.0, 31.5, 23.5]", with: "[40.0, 41.0, 31.5]")
        #expect {
            try CameraCalibration(yamlText: text, name: "cam0", file: "mav0/cam0/sensor.yaml")
        } throws: { error in
            "\(error)" == "mav0/cam0/sensor.yaml: field 'intrinsics' must have 4 numbers, found 3"
        }
    }

    @Test func rejectsMissingFieldUnknownModelBadRotationAndBadYAML() {
        let missing = Fixtures.cameraYAML.replacingOccurrences(of: "rate_hz: 20\n", with: "")
        #expect { try CameraCalibration(yamlText: missing, name: "cam0", file: "f.yaml") } throws: {
            "\($0)" == "f.yaml: field 'rate_hz' is missing"
        }
        let model = Fixtures.cameraYAML.replacingOccurrences(of: "radial-tangential", with: "fov")
        #expect { try CameraCalibration(yamlText: model, name: "cam0", file: "f.yaml") } throws: {
            "\($0)".contains("'distortion_model' must be 'radial-tangential' or 'equidistant', found 'fov'")
        }
        let rot = Fixtures.cameraYAML.replacingOccurrences(of: "data: [0.0, -1.0,", with: "data: [0.5, -1.0,")
        #expect { try CameraCalibration(yamlText: rot, name: "cam0", file: "f.yaml") } throws: {
            "\($0)".contains("field 'T_BS' rotation block is not a rotation")
        }
        let noise = Fixtures.imuYAML.replacingOccurrences(of: "gyroscope_random_walk: 1.9393e-05", with: "gyroscope_random_walk: abc")
        #expect { try IMUCalibration(yamlText: noise, name: "imu0", file: "i.yaml") } throws: {
            "\($0)" == "i.yaml: field 'gyroscope_random_walk' must be a number"
        }
        #expect { try IMUCalibration(yamlText: "%YAML:1.0\nrate_hz: [1, 2\n", name: "imu0", file: "i.yaml") } throws: {
            ($0 as? DatasetError)?.kind == .calibration
        }
    }

    @Test func writtenYAMLReadsBackEqual() throws {
        let c = try CameraCalibration(yamlText: Fixtures.cameraYAML, name: "cam0", file: "f.yaml")
        let text = SensorYAMLWriter.yaml(c)
        #expect(text.hasPrefix("%YAML:1.0\n"))
        #expect(try CameraCalibration(yamlText: text, name: "cam0", file: "w.yaml") == c)
        let i = try IMUCalibration(yamlText: Fixtures.imuYAML, name: "imu0", file: "i.yaml")
        #expect(try IMUCalibration(yamlText: SensorYAMLWriter.yaml(i), name: "imu0", file: "w.yaml") == i)
    }
}
