import Foundation
import ParallaxDatasets
import ParallaxEvaluation
import ParallaxMapping
import ParallaxMath
import ParallaxSimulation
import Testing

/// Keyframes made while the tracker's tilt was still off (``WorldMapper/unsettledTilt(of:)``): the
/// filter's tilt and horizontal accelerometer bias share the measured specific force, so when it
/// corrects the bias it re-levels the camera, and what it placed before keeps the old tilt.
@Suite("Keyframes made before the tracker's tilt settled", .serialized)
struct SettledKeyframeTests {
    /// cam0 looking along world +x, image right along world −y, image down along world −z.
    static let lookingAlongX = Matrix3(columns: Vector3(0, -1, 0), Vector3(0, 0, -1), Vector3(1, 0, 0))

    @Test("a bias change stands for the tilt of its horizontal part over g")
    func tiltOfABiasChange() {
        let oneDegree = Double.pi / 180
        let T = RigidTransform(rotationMatrix: Self.lookingAlongX, translation: Vector3(1, 2, 3))
        let then = Vector3(0.3, -0.1, 0.2)
        func tilt(_ change: Vector3, _ pose: RigidTransform = T) -> Double {
            WorldMapper.tiltChange(biasThen: then, biasNow: then + change, T_world_camera: pose)
        }
        // Along image right and along the optical axis (both horizontal here): the whole change.
        #expect(abs(tilt(Vector3(9.81 * oneDegree, 0, 0)) - oneDegree) < 1e-12)
        #expect(abs(tilt(Vector3(0, 0, -9.81 * oneDegree)) - oneDegree) < 1e-12)
        // Along image down (vertical here): only gravity's magnitude changes, no tilt.
        #expect(tilt(Vector3(0, 0.5, 0)) < 1e-12)
        // The same change on a camera turned about the vertical: the same tilt.
        let yaw = Matrix3(columns: Vector3(cos(0.7), sin(0.7), 0), Vector3(-sin(0.7), cos(0.7), 0), Vector3(0, 0, 1))
        let turned = RigidTransform(rotationMatrix: yaw * Self.lookingAlongX, translation: .zero)
        let change = Vector3(0.05, 0.4, -0.12)
        #expect(abs(tilt(change, turned) - tilt(change)) < 1e-12)
        #expect(abs(tilt(change) - (0.05 * 0.05 + 0.12 * 0.12).squareRoot() / 9.81) < 1e-12)
    }

    /// The phone-profile walk round the table with twice the calibration error (the plane walk of
    /// `PlaneWalkTests`, 20 s, mono): for its first 5 s the filter's tilt is 0.3–0.4° off (its
    /// accelerometer bias 0.06 m/s²), 0.01° by 10 s. Loops against the keyframes of those seconds
    /// pulled the pose graph: keyframes 6.0 → 15.0 mm after it (2.5× the odometry's). With those keyframes no loop candidates once the tracker has re-levelled them,
    /// this 20 s walk closes no loop at all (its later views are not 10 s older than any settled
    /// keyframe): 6.0 → 6.0 mm (stop 71).
    @Test("phone walk: the pose graph leaves the keyframes no worse than the odometry made them",
          .enabled(if: PlaneWalks.available, "needs ../shared/trajectories/rpng_table_01.txt"))
    func phoneWalkKeepsItsKeyframes() throws {
        var effects = SensorProfile.phone.effects
        effects.calibrationError = CalibrationErrorSizes.kalibrQuality.scaled(by: 2)
        let root = try PlaneWalks.dataset("rpng_table_01", seed: 18, effects: effects, effectsTag: "phone-cal2")
        let data = try EuRoCDataset(url: root)
        let mapper = WorldMapper(camera: try data.cameras[0].makeCameraModel())
        let samples = try MappedReplay(dataset: data, mode: .mono).run(mapper: mapper)
        let accuracy = try #require(try LoopClosureAccuracy(samples: samples, mapper: mapper))
        let odometry = try #require(accuracy.odometry)
        let made = try #require(accuracy.keyframesOdometry), optimized = try #require(accuracy.keyframesOptimized)
        let bound = mapper.configuration.settledTilt
        let unsettled = mapper.database.keyframes.filter { mapper.unsettledTilt(of: $0) > bound }
        print(String(format: "phone walk: %d loops; keyframes %.2f → %.2f cm, live %.2f cm (odometry %.2f); %d of %d keyframes unsettled",
                     mapper.loopClosures.count, made * 100, optimized * 100, accuracy.live * 100, odometry * 100,
                     unsettled.count, mapper.database.keyframes.count))
        #expect(!unsettled.isEmpty)  // the start's keyframes were re-levelled
        #expect(optimized <= made * 1.1)
        #expect(accuracy.live <= odometry * 1.1)
    }
}
