import Foundation
import ParallaxMath
import Testing

import ParallaxAR
@testable import ParallaxEvaluation
import ParallaxSimulation

@Suite struct PlaneDetectionTests {
    @Test func floorOnSampleWithGroundTruthPoses() throws {
        let report = try PlaneEvaluationRun.run(datasetRoot: EvaluationTestData.sample, source: .groundTruth)
        for p in report.planes {
            print(p.alignment, p.classification, p.truthID ?? "-", p.normalErrorDeg ?? -1, p.offsetErrorCm ?? -1, p.iou ?? -1, p.area, p.timeToDetect)
        }
        print("floor time", report.floorTimeToDetect ?? -1)
        let floor = try #require(report.floor)
        #expect(try #require(floor.normalErrorDeg) <= 3)
        #expect(try #require(floor.offsetErrorCm) <= 3)
        #expect(try #require(report.floorTimeToDetect) <= 3)
    }

    /// The two breakdowns of off-surface hits `evaluate planes` prints: per anchor (count and the
    /// median distance of its misses) and per 5 s of session time.
    @Test func offSurfaceHitsAreBrokenDownByAnchorAndTime() throws {
        let wall = UUID(), table = UUID()
        let q = PlaneMapQuality(visibleTruth: ["wall", "table"], missed: [], anchors: 2,
                                extentHitDistances: [0.025, 0.03, 0.05, 0.04, 0.76, 0.70, 0.005, 0.72],
                                geometryHitDistances: [],
                                extentHitAnchors: [wall, wall, wall, wall, table, table, table, table],
                                extentHitTimes: [1, 2, 6, 7, 11, 12, 13, 14])
        let anchors = q.offSurfaceAnchors()
        #expect(anchors.map(\.anchor) == [wall, table])
        #expect(anchors.map(\.hits) == [4, 3])
        #expect(abs(anchors[0].medianDistance - 0.035) < 1e-12)   // 0.025, 0.03, 0.04, 0.05
        #expect(abs(anchors[1].medianDistance - 0.72) < 1e-12)   // 0.70, 0.72, 0.76
        let byTime = q.offSurfaceByTime()
        #expect(byTime.map(\.start) == [0, 5, 10])
        #expect(byTime.map(\.hits) == [2, 2, 4])
        #expect(byTime.map(\.off) == [2, 2, 3])
    }

    /// With ground-truth poses the session's camera is the true camera, so placing each hit from
    /// its frame's true camera must give the same distances as the whole-run alignment (here the
    /// identity): the camera-relative figure differs from the aligned one only by the tracker.
    @Test func cameraRelativeHitsEqualAlignedOnesWithTruePoses() throws {
        let report = try PlaneEvaluationRun.run(datasetRoot: EvaluationTestData.sample, source: .groundTruth)
        let q = try #require(report.quality)
        #expect(!q.extentHitDistances.isEmpty)
        #expect(q.extentHitDistancesFromCamera.count == q.extentHitDistances.count)
        #expect(q.geometryHitDistancesFromCamera.count == q.geometryHitDistances.count)
        for (a, b) in zip(q.extentHitDistances, q.extentHitDistancesFromCamera) { #expect(abs(a - b) < 1e-6) }
        for (a, b) in zip(q.geometryHitDistances, q.geometryHitDistancesFromCamera) { #expect(abs(a - b) < 1e-6) }
    }

    /// The camera that rendered a simulation is read from its `truth/meta.json`: the true `T_BS`
    /// (not the written one) and the camera–IMU time shift; no file means no effects, and a
    /// damaged file is an error naming it.
    @Test func renderingCameraComesFromTheSimulationsMetaFile() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-rendering-camera-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("truth"), withIntermediateDirectories: true)
        #expect(try PlaneEvaluationRun.renderingCamera(datasetRoot: root) == nil)

        let perturbation = CalibrationPerturbation(truth: .eurocCam0, sizes: .kalibrQuality, seed: 3, index: 0)
        let meta = SensorMetaFile(effects: SensorProfile.phone.effects, cameras: [perturbation], imageNoiseSigma: 2, frames: [])
        let file = root.appendingPathComponent("truth/meta.json")
        try meta.json().write(to: file)
        let camera = try #require(try PlaneEvaluationRun.renderingCamera(datasetRoot: root))
        #expect(camera.timeShiftNs == 10_000_000)
        let truth = perturbation.truth.T_body_camera, written = perturbation.written.T_body_camera
        #expect((camera.T_body_camera.translation - truth.translation).norm < 1e-9)
        #expect((camera.T_body_camera.translation - written.translation).norm > 1e-3)
        let R = camera.T_body_camera.rotationMatrix.transpose
        #expect(SO3.log(R * truth.rotationMatrix).norm < 1e-9)
        #expect(SO3.log(R * written.rotationMatrix).norm > 1e-3)

        try Data("{".utf8).write(to: file)
        #expect {
            _ = try PlaneEvaluationRun.renderingCamera(datasetRoot: root)
        } throws: { error in
            "\(error)".contains(file.path)
        }
    }
}
