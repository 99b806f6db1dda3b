import Foundation
import ParallaxMath
import Testing

@testable import ParallaxAR

/// `OrientationTrackingConfiguration`: 3-DoF from the gyro and gravity on the bundled sample.
@Suite struct OrientationTrackingTests {
    @Test func attitudeFollowsTheTruthWithTheCameraAtTheOrigin() throws {
        let session = try Session(datasetAt: TestData.sample)
        let recorder = Recorder()
        session.delegate = recorder
        var configuration = OrientationTrackingConfiguration()
        configuration.isLightEstimationEnabled = false
        session.run(configuration)
        #expect(session.isOrientationOnly)
        let truth = try Session(datasetAt: TestData.sample)
        truth.run(WorldTrackingConfiguration(planeDetection: [], isLightEstimationEnabled: false))
        var pairs: [(Matrix3, Matrix3)] = []
        while let frame = try session.nextFrame(), let reference = try truth.nextFrame() {
            #expect(frame.anchors.isEmpty && (frame.rawFeaturePoints?.points.isEmpty ?? true))
            guard frame.camera.trackingState == .normal else { continue }
            #expect(frame.camera.position.norm < 1e-9)
            pairs.append((frame.camera.transform.upperLeft3x3, reference.camera.transform.upperLeft3x3))
        }
        #expect(recorder.events.contains("tracking normal"))
        #expect(pairs.count >= 15)
        // The rotation from the first to the last normal frame agrees with the truth's within 2°;
        // the tilt (the camera's up in the gravity-aligned world) within 2° throughout.
        let (first, firstTruth) = try #require(pairs.first)
        let (last, lastTruth) = try #require(pairs.last)
        let relative = first.transpose * last, relativeTruth = firstTruth.transpose * lastTruth
        let error = SO3.log(relative.transpose * relativeTruth).norm * 180 / .pi
        print("orientation-only: relative rotation error \(error)°")
        #expect(error < 2)
        for (estimate, reference) in pairs {
            let up = estimate.transpose * Vector3(0, 1, 0), upTruth = reference.transpose * Vector3(0, 1, 0)
            #expect(acos(min(1, up.dot(upTruth))) * 180 / .pi < 2)
        }
    }

    @Test func switchingBackToWorldTrackingResets() throws {
        let session = try Session(datasetAt: TestData.sample)
        session.run(OrientationTrackingConfiguration())
        _ = try session.nextFrame()
        session.run(WorldTrackingConfiguration(planeDetection: [.horizontal], isLightEstimationEnabled: false))
        #expect(!session.isOrientationOnly)
        let frame = try #require(try session.nextFrame())
        #expect(frame.timestamp == 1_700_000_000)  // the replay restarted from the first frame
    }
}
