import Foundation
import Testing
import ParallaxImaging
import ParallaxMath
@testable import ParallaxDatasets

@Suite("EuRoC writer: read → write → read")
struct DatasetRoundTripTests {
    @Test(.needsRealSnippet) func realSnippetRoundTripsExactly() throws {
        let root = Fixtures.realSnippetURL
        let original = try EuRoCDataset(url: root)
        let out = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        try EuRoCWriter.copy(original, to: out)
        let copy = try EuRoCDataset(url: out)

        #expect(copy.cameras == original.cameras)
        #expect(copy.imu == original.imu)
        #expect(copy.hasGroundTruth)
        #expect(try copy.imuSamples() == original.imuSamples())
        #expect(try copy.groundTruth() == original.groundTruth())
        for i in 0..<2 {
            let a = try original.cameraFrames(i), b = try copy.cameraFrames(i)
            #expect(a.map(\.timestampNs) == b.map(\.timestampNs))
            #expect(a.map(\.filename) == b.map(\.filename))
        }
        // Pixels survive the decode → encode → decode trip (spot-check first, middle, last).
        let a = try original.cameraFrames(1), b = try copy.cameraFrames(1)
        for k in [0, 47, 94] {
            let pa = try a[k].loadGray8(), pb = try b[k].loadGray8()
            #expect(pa.width == 752 && pa.height == 480)
            #expect(pa.pixels == pb.pixels)
        }
        // The written files are valid EuRoC: sensor.yaml starts with OpenCV's directive.
        let yaml = try String(contentsOf: out.appendingPathComponent("mav0/cam0/sensor.yaml"), encoding: .utf8)
        #expect(yaml.hasPrefix("%YAML:1.0\n"))
        #expect(try copy.validate().skippedRows == 0)
    }

    @Test func writerRejectsOutOfOrderRowsAndWrongImageSize() throws {
        let cam = try CameraCalibration(yamlText: Fixtures.cameraYAML, name: "cam0", file: "f.yaml")
        let imu = try IMUCalibration(yamlText: Fixtures.imuYAML, name: "imu0", file: "i.yaml")
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let w = try EuRoCWriter(url: folder, cameras: [cam], imu: imu)
        let s = IMUSample(timestampNs: 10, angularVelocity: .zero, acceleration: Vector3(0, 0, 9.81))
        try w.append(s)
        #expect { try w.append(s) } throws: { "\($0)".contains("timestamp 10 does not come after the previous row's 10") }
        let small = AnyImage.gray8(GrayImage(width: 8, height: 8, fill: 0))
        #expect { try w.appendImage(small, camera: 0, timestampNs: 1) } throws: {
            "\($0)".contains("image is 8x8 but cam0 resolution is 64x48")
        }
        #expect { try w.append(GroundTruthState(timestampNs: 1, position: .zero, orientation: .identity, velocity: .zero,
                                                gyroscopeBias: .zero, accelerometerBias: .zero)) } throws: {
            ($0 as? DatasetError)?.kind == .invalidArgument
        }
    }

    @Test func syntheticRowsRoundTripBitForBit() throws {
        // Values with long mantissas and extreme exponents must come back identical.
        let cam = try CameraCalibration(yamlText: Fixtures.cameraYAML, name: "cam0", file: "f.yaml")
        let imu = try IMUCalibration(yamlText: Fixtures.imuYAML, name: "imu0", file: "i.yaml")
        let root = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let w = try EuRoCWriter(url: root, cameras: [cam], imu: imu, positionSensor: "leica0")
        var samples: [IMUSample] = []
        var positions: [PositionSample] = []
        var x = 0.1
        for k in 0..<50 {
            x = (x * 3.9 * (1 - x))   // logistic map: full 53-bit mantissas
            // IMU values stay physically plausible (the reader rejects |ω| > 100 rad/s); huge
            // exponents go through the position columns, which have no such bound.
            let s = IMUSample(timestampNs: Int64(k) * 5_000_000 + 123, angularVelocity: Vector3(x, -x * 1e-300, x * 1e2),
                              acceleration: Vector3(1 / 3, -0.0, Double.leastNonzeroMagnitude))
            samples.append(s)
            try w.append(s)
            let p = PositionSample(timestampNs: Int64(k) * 5_000_000, position: Vector3(x, 2 * x * 1e300, 0.1 + x))
            positions.append(p)
            try w.append(p)
        }
        try w.appendImage(.gray8(GrayImage(width: 64, height: 48, fill: 7)), camera: 0, timestampNs: 0)
        try w.finish()
        let d = try EuRoCDataset(url: root)
        #expect(try d.imuSamples() == samples)
        #expect(d.positionSensor == "leica0")
        #expect(try d.positions() == positions)
        #expect(try d.cameraFrames(0).first?.loadGray8().pixels.allSatisfy { $0 == 7 } == true)
    }
}
