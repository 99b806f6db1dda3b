import Foundation
import ParallaxMath
import Testing

@testable import ParallaxAR
@testable import ParallaxMapping

/// Hears which anchors the session updated.
private final class UpdateRecorder: SessionDelegate {
    var updated: [[UUID]] = []
    func session(_ session: Session, didUpdate anchors: [any Anchor]) { updated.append(anchors.map(\.identifier)) }
}

/// A loop closure moves the keyframes; the user's anchors must move with the keyframe nearest to
/// each (ARKit keeps anchors attached to its map), and the delegate must hear `didUpdate`.
@Suite("Anchors follow a loop closure")
struct AnchorCorrectionTests {
    @Test("each user anchor moves with the correction of its nearest keyframe; the delegate hears it")
    func anchorsFollowTheirKeyframes() throws {
        let session = try Session(datasetAt: MappingFixtures.repoRoot.appendingPathComponent("Datasets/sample"))
        let recorder = UpdateRecorder()
        session.delegate = recorder
        // The AR world: y up (world z), shifted, as the session places it at its first frame.
        let T_A_W = RigidTransform(rotationMatrix: Matrix3(rows: Vector3(1, 0, 0), Vector3(0, 0, 1), Vector3(0, -1, 0)),
                                   translation: Vector3(0.2, -1.4, 0.3))
        session.T_A_W = T_A_W
        // Two anchors in the map world: one near keyframe 3 (at the origin), one near keyframe 8 (5 m along x).
        let nearFirst = RigidTransform(rotationMatrix: GravityAlignedPnP.rz(0.3), translation: Vector3(0.4, 0.1, 0.8))
        let nearSecond = RigidTransform(rotationMatrix: GravityAlignedPnP.rz(-1.0), translation: Vector3(4.7, -0.2, 1.1))
        let a = WorldAnchor(identifier: session.makeIdentifier(), name: "cup", transform: (T_A_W * nearFirst).matrix)
        let b = WorldAnchor(identifier: session.makeIdentifier(), name: "lamp", transform: (T_A_W * nearSecond).matrix)
        session.add(anchor: a)
        session.add(anchor: b)

        let first = RigidTransform(rotationMatrix: GravityAlignedPnP.rz(2 * .pi / 180), translation: Vector3(0.03, -0.01, 0))
        let second = RigidTransform(rotationMatrix: GravityAlignedPnP.rz(-1 * .pi / 180), translation: Vector3(-0.02, 0.05, 0.01))
        let loop = LoopClosureEvent(timestamp: 12, oldKeyframeID: 3, currentKeyframeID: 8, inliers: 30, liveCorrection: second,
                                    keyframeCorrections: [(id: 3, position: .zero, correction: first),
                                                          (id: 8, position: Vector3(5, 0, 0), correction: second)],
                                    optimizationMilliseconds: 1)
        session.moveAnchors(with: loop)

        #expect(recorder.updated == [[a.identifier, b.identifier]])
        let moved = Dictionary(uniqueKeysWithValues: session.userAnchors.map { ($0.identifier, $0.transform) })
        let expectedA = (T_A_W * first * nearFirst).matrix, expectedB = (T_A_W * second * nearSecond).matrix
        let movedA = try #require(moved[a.identifier]), movedB = try #require(moved[b.identifier])
        #expect((0..<4).allSatisfy { r in (0..<4).allSatisfy { c in abs(movedA[r, c] - expectedA[r, c]) < 1e-12 } })
        #expect((0..<4).allSatisfy { r in (0..<4).allSatisfy { c in abs(movedB[r, c] - expectedB[r, c]) < 1e-12 } })
        // Each moved by its own keyframe's correction: the two differ by centimetres.
        #expect((movedA.column(3) - (T_A_W * second * nearFirst).matrix.column(3)).norm > 0.01)
    }

    @Test("the indexed corrections give each position its nearest keyframe's, as correction(near:)")
    func indexedCorrectionsMatchTheScan() {
        var rng = SplitMix64(seed: 3)
        // Keyframes along a walk, two of them at one place (a tie: the first listed wins).
        var keyframes: [(id: Int, position: Vector3, correction: RigidTransform)] = []
        for i in 0..<60 {
            let position = i == 31 ? keyframes[30].position : Vector3(0.1 * Double(i), sin(0.2 * Double(i)), 1.4)
            let T = RigidTransform(rotationMatrix: GravityAlignedPnP.rz(rng.uniform(-0.02, 0.02)),
                                   translation: Vector3(rng.uniform(-0.05, 0.05), rng.uniform(-0.05, 0.05), 0))
            keyframes.append((id: i, position: position, correction: T))
        }
        let loop = LoopClosureEvent(timestamp: 1, oldKeyframeID: 0, currentKeyframeID: 59, inliers: 30, liveCorrection: .identity,
                                    keyframeCorrections: keyframes, optimizationMilliseconds: 0)
        let indexed = loop.corrections()
        var queries = (0..<500).map { _ in Vector3(rng.uniform(-1, 7), rng.uniform(-2, 2), rng.uniform(0, 3)) }
        queries.append(keyframes[30].position)
        for q in queries {
            let a = indexed(q), b = loop.correction(near: q)
            #expect(a.translation == b.translation && a.rotation.xyzw == b.rotation.xyzw)
        }
        let empty = LoopClosureEvent(timestamp: 1, oldKeyframeID: 0, currentKeyframeID: 0, inliers: 0, liveCorrection: .identity,
                                     keyframeCorrections: [], optimizationMilliseconds: 0)
        #expect(empty.corrections()(.zero).translation == .zero)
    }
}
