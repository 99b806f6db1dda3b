import Foundation
import ParallaxMapping
import ParallaxMath
import Testing

/// ``KeyframeDatabase/heldFraction(of:seenFrom:rule:where:)``: which of a view's points the map
/// already holds, on hand-made keyframes whose geometry gives each answer exactly.
@Suite("View redundancy")
struct ViewRedundancyTests {
    /// A camera at `centre` looking along +x (OpenCV axes: z forward).
    static func camera(at centre: Vector3) -> RigidTransform {
        let R = Matrix3(columns: Vector3(0, -1, 0), Vector3(0, 0, -1), Vector3(1, 0, 0))
        return RigidTransform(rotationMatrix: R, translation: centre)
    }

    /// Ten points on a wall 2 m ahead of the origin.
    static let wall = (0..<10).map { Vector3(2, -0.45 + 0.1 * Double($0), 0.2 * Double($0 % 3)) }

    static func keyframe(_ id: Int, at centre: Vector3, points: [Vector3]) -> Keyframe {
        Keyframe(id: id, timestamp: Double(id), T_world_camera: camera(at: centre),
                 points: points.enumerated().map { KeyframePoint(featureID: $0.offset, position_world: $0.element,
                                                                  pixel: .zero, descriptor: BinaryDescriptor(0, 0, 0, 0)) })
    }

    @Test("points two nearby keyframes saw are held; a third observer is asked for in vain")
    func countsObservers() {
        let map = KeyframeDatabase(keyframes: [Self.keyframe(0, at: Vector3(0, 0.1, 0), points: Self.wall),
                                               Self.keyframe(1, at: Vector3(0, -0.1, 0), points: Self.wall)],
                                   vocabulary: nil)
        var rule = ViewRedundancy()
        let view = Self.camera(at: .zero)
        #expect(map.heldFraction(of: Self.wall, seenFrom: view, rule: rule) == 1)
        rule.observers = 3
        #expect(map.heldFraction(of: Self.wall, seenFrom: view, rule: rule) == 0)
    }

    @Test("a point farther than the tolerance, seen from the far side or from twice as far is not held")
    func needsSamePointDirectionAndScale() {
        let shifted = Self.wall.enumerated().map { $0.offset < 3 ? $0.element + Vector3(0, 0, 0.05) : $0.element }
        let map = KeyframeDatabase(keyframes: [Self.keyframe(0, at: .zero, points: shifted),
                                               Self.keyframe(1, at: Vector3(4, 0, 0), points: Self.wall),     // behind the wall
                                               Self.keyframe(2, at: Vector3(-2.5, 0, 0), points: Self.wall)],  // 4.5 m away
                                   vocabulary: nil)
        var rule = ViewRedundancy()
        rule.observers = 1
        // Only keyframe 0 qualifies, and it holds 7 of the 10 points (three moved by 5 cm, past the 4 cm).
        #expect(map.heldFraction(of: Self.wall, seenFrom: Self.camera(at: .zero), rule: rule) == 0.7)
        rule.viewAngle = .pi
        rule.depthRatio = 3
        #expect(map.heldFraction(of: Self.wall, seenFrom: Self.camera(at: .zero), rule: rule) == 1)
    }

    @Test("excluded keyframes and unreadable points hold nothing; an empty view or a rule turned off gives 0")
    func filtersAndBadNumbers() {
        var broken = Self.wall
        broken[0] = Vector3(.nan, 0, 0)
        broken[1] = Vector3(1e300, 0, 0)
        let map = KeyframeDatabase(keyframes: [Self.keyframe(0, at: .zero, points: broken),
                                               Self.keyframe(1, at: Vector3(0, 0.05, 0), points: Self.wall)],
                                   vocabulary: nil)
        var rule = ViewRedundancy()
        rule.observers = 1
        let view = Self.camera(at: .zero)
        #expect(map.heldFraction(of: Self.wall, seenFrom: view, rule: rule, where: { $0.id == 0 }) == 0.8)
        #expect(map.heldFraction(of: broken, seenFrom: view, rule: rule) == 0.8)
        #expect(map.heldFraction(of: [], seenFrom: view, rule: rule) == 0)
        rule.observers = 0
        #expect(map.heldFraction(of: Self.wall, seenFrom: view, rule: rule) == 0)
    }
}
