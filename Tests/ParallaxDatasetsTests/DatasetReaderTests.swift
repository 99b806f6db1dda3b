import Foundation
import Testing
import ParallaxMath
@testable import ParallaxDatasets

@Suite("EuRoC reader on the real snippet")
struct DatasetReaderTests {
    @Test(.needsRealSnippet) func opensDatasetFolderAndMav0Folder() throws {
        let root = Fixtures.realSnippetURL
        let a = try EuRoCDataset(url: root)
        let b = try EuRoCDataset(url: root.appendingPathComponent("mav0"))
        #expect(a.mav0.standardizedFileURL == b.mav0.standardizedFileURL)
        #expect(a.isStereo)
        #expect(a.hasGroundTruth)
        #expect(a.positionSensor == nil)
        #expect(a.cameras.map(\.name) == ["cam0", "cam1"])
    }

    @Test(.needsRealSnippet) func countsAndTimesMatchTheFiles() throws {
        let root = Fixtures.realSnippetURL
        let d = try EuRoCDataset(url: root)
        let cam0 = try d.cameraFrames(0), cam1 = try d.cameraFrames(1)
        let imu = try d.imuSamples(), gt = try d.groundTruth()
        #expect(cam0.count == 95 && cam1.count == 95)
        #expect(imu.count == 1341)
        #expect(gt.count == 115)
        #expect(cam0.first?.timestampNs == 1403715273262142976)
        #expect(cam0.last?.timestampNs == 1403715277962142976)
        #expect(cam0.first?.filename == "1403715273262142976.png")
        #expect(imu.last?.timestampNs == 1403715279962142976)
        #expect(gt.last?.timestampNs == 1403715278962142976)
        #expect(try d.startTimestampNs() == 1403715273262142976)
        // Seconds are derived from the kept nanoseconds.
        #expect(cam0[1].timestamp - cam0[0].timestamp > 0.0499 && cam0[1].timestamp - cam0[0].timestamp < 0.0501)
    }

    @Test(.needsRealSnippet) func rowValuesAreParsedExactly() throws {
        let root = Fixtures.realSnippetURL
        let d = try EuRoCDataset(url: root)
        let s = try #require(try d.imuStream().next())
        #expect(s.angularVelocity == Vector3(-0.0020943951023931952, 0.017453292519943295, 0.07749261878854824))
        #expect(s.acceleration == Vector3(9.0874956666666655, 0.13075533333333333, -3.6938381666666662))
        let g = try #require(try d.groundTruthStream()?.next())
        #expect(g.position == Vector3(0.878895, 2.1834, 0.948427))
        #expect(g.orientation == Quaternion(w: 0.069433, x: -0.824237, y: -0.106942, z: -0.551702))
        #expect(g.velocity == Vector3(0.00157587, 0.00179383, -0.00231615))
        #expect(g.gyroscopeBias == Vector3(-0.00224703, 0.0215352, 0.0770299))
        #expect(g.accelerometerBias == Vector3(-0.0180115, 0.0659796, 0.0309774))
        // At rest, specific force has magnitude ≈ g.
        #expect(abs(s.acceleration.norm - 9.81) < 0.2)
    }

    @Test(.needsRealSnippet) func stereoGeometry() throws {
        let root = Fixtures.realSnippetURL
        let d = try EuRoCDataset(url: root)
        // The VI-Sensor's stereo baseline is about 11 cm.
        let baseline = try #require(d.stereoBaseline)
        #expect(baseline > 0.10 && baseline < 0.12)
        let T = try #require(d.T_cam0_cam1)
        #expect(abs(T.translation.norm - baseline) < 1e-9)
        #expect(T.translation.x > 0.1)   // cam1 is to the right of cam0 (x right in OpenCV frames)
    }

    @Test(.needsRealSnippet) func validateChecksEveryImageHeader() throws {
        let root = Fixtures.realSnippetURL
        let d = try EuRoCDataset(url: root)
        let diagnostics = try d.validate()
        #expect(diagnostics.skippedRows == 0)
    }

    @Test(.needsRealSnippet) func summaryReportsRatesAndNoAnomalies() throws {
        let root = Fixtures.realSnippetURL
        let s = try DatasetSummary(EuRoCDataset(url: root))
        #expect(s.cameras.map(\.count) == [95, 95])
        #expect(s.imu.count == 1341)
        #expect(s.stereoPairs == 95 && s.unpairedFrames == 0)
        #expect(abs((s.imu.measuredRateHz ?? 0) - 200) < 0.5)
        #expect(abs((s.cameras[0].measuredRateHz ?? 0) - 20) < 0.1)
        #expect(abs(s.imu.durationSeconds - 6.7) < 1e-6)
        #expect(s.groundTruth?.count == 115)
        #expect(s.imu.gapCount == 0 && s.cameras[0].gapCount == 0)
        #expect(s.anomalies.isEmpty, "\(s.anomalies)")
    }
}
