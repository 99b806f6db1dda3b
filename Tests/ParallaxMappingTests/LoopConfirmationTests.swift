import ParallaxMath
import Testing

@testable import ParallaxMapping

/// A loop with fewer inliers than ``LoopClosureConfiguration/minimumInliers`` counts only when the
/// next detection puts the camera in the same place, and only within the tighter drift bound.
@Suite("Loop confirmation by a second detection")
struct LoopConfirmationTests {
    let keyframe = Keyframe(id: 0, timestamp: 0, T_world_camera: .identity, points: [])

    /// A detection at time `t` of a camera at `x` along the odometry's x axis, whose PnP pose is the
    /// odometry's moved by `offset` (m) and turned by `yaw` (rad) about gravity.
    func detection(at t: Double, x: Double, offset: Vector3, yaw: Double = 0, segment: Int = 0) -> LoopCloser.Detection {
        let T_odom_camera = RigidTransform(rotationMatrix: GravityAlignedPnP.rz(0.4), translation: Vector3(x, 0, 1.2))
        let turn = RigidTransform(rotationMatrix: GravityAlignedPnP.rz(yaw), translation: .zero)
        var T_world_camera = turn * T_odom_camera
        T_world_camera.translation = T_odom_camera.translation + offset
        return LoopCloser.Detection(timestamp: t, segment: segment, old: keyframe, latest: keyframe, T_world_camera: T_world_camera,
                                    T_odom_camera: T_odom_camera, edgeAdded: false)
    }

    @Test("two detections that agree confirm each other; disagreeing, late or across a reset they do not")
    func agreement() {
        let closer = LoopCloser(configuration: LoopClosureConfiguration())
        let first = detection(at: 10, x: 0, offset: Vector3(0.07, -0.03, 0.01))
        #expect(closer.confirms(first, detection(at: 10.5, x: 0.4, offset: Vector3(0.08, -0.02, 0.01))))
        #expect(!closer.confirms(first, detection(at: 10.5, x: 0.4, offset: Vector3(0.13, -0.03, 0.01))))  // 6 cm apart
        #expect(!closer.confirms(first, detection(at: 10.5, x: 0.4, offset: Vector3(0.07, -0.03, 0.01), yaw: 1.5 * .pi / 180)))
        #expect(!closer.confirms(first, detection(at: 12.0, x: 0.4, offset: Vector3(0.07, -0.03, 0.01))))  // outside the window
        #expect(!closer.confirms(first, detection(at: 10.5, x: 0.4, offset: Vector3(0.07, -0.03, 0.01), segment: 1)))
    }

    @Test("a loop with few inliers must lie within the tighter drift bound")
    func weakBound() {
        var closer = LoopCloser(configuration: LoopClosureConfiguration())
        closer.keyframeAdded(id: 0, segment: 0, T_odom_camera: .identity, timestamp: 0)
        for step in 0...20 { closer.moved(to: RigidTransform(rotationMatrix: .identity, translation: Vector3(Double(step), 0, 0)), newSegment: step == 0) }
        #expect(closer.path == 20)
        let predicted = RigidTransform(rotationMatrix: .identity, translation: Vector3(20, 0, 0))
        let oneMetreOff = RigidTransform(rotationMatrix: .identity, translation: Vector3(20, 1, 0))
        // 20 m travelled: 0.15 + 0.05·20 = 1.15 m for a strong loop, 0.15 + 0.02·20 = 0.55 m for a weak one.
        #expect(closer.check(Relocalization(T_world_camera: oneMetreOff, inlierCount: 30, keyframeIDs: [0]), predicted: predicted,
                             oldKeyframe: 0, segment: 0) == nil)
        let weak = closer.check(Relocalization(T_world_camera: oneMetreOff, inlierCount: 18, keyframeIDs: [0]), predicted: predicted,
                                oldKeyframe: 0, segment: 0)
        #expect(weak?.contains("position disagrees") == true)
        let tooFew = closer.check(Relocalization(T_world_camera: predicted, inlierCount: 14, keyframeIDs: [0]), predicted: predicted,
                                  oldKeyframe: 0, segment: 0)
        #expect(tooFew?.contains("inliers 14 < 15") == true)
    }

    @Test("a loop accepted on a confirmation enters the graph with the wider weak-loop σ")
    func weakEdgeSigma() {
        let configuration = LoopClosureConfiguration()
        var closer = LoopCloser(configuration: configuration)
        let old = Keyframe(id: 0, timestamp: 0, T_world_camera: .identity, points: [])
        let latest = Keyframe(id: 1, timestamp: 12, T_world_camera: RigidTransform(rotationMatrix: .identity, translation: Vector3(1, 0, 0)), points: [])
        closer.keyframeAdded(id: 0, segment: 0, T_odom_camera: old.T_world_camera, timestamp: 0)
        closer.keyframeAdded(id: 1, segment: 0, T_odom_camera: latest.T_world_camera, timestamp: 12)
        closer.addLoop(old: old, latest: latest, T_world_camera: latest.T_world_camera, T_odom_camera: latest.T_world_camera)
        #expect(closer.loopEdges.last?.positionSigma == configuration.loopSigma.position)
        closer.addLoop(old: old, latest: latest, T_world_camera: latest.T_world_camera, T_odom_camera: latest.T_world_camera, weak: true)
        #expect(closer.loopEdges.count == 1)  // one edge per keyframe pair: the weak one replaced the strong one
        #expect(closer.loopEdges.last?.positionSigma == configuration.weakLoopSigmaScale * configuration.loopSigma.position)
        #expect(closer.loopEdges.last?.yawSigma == configuration.weakLoopSigmaScale * configuration.loopSigma.yaw)
        #expect(configuration.weakLoopSigmaScale > 1)
    }
}
