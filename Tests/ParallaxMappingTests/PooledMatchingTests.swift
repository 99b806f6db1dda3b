import Foundation
@testable import ParallaxMapping
import ParallaxMath
import ParallaxVision
import Testing

/// The pooled fallback of global relocalization on a synthetic map small enough to be pooled
/// whole: a view whose recognisable points are spread over many keyframes, two
/// per keyframe, each stored twice (as a corner is, once per keyframe that saw it).
@Suite("Relocalization against pooled keyframes")
struct PooledMatchingTests {
    let camera = PinholeRadTanCamera(width: 752, height: 480, fx: 458, fy: 457, cx: 367, cy: 248)

    /// A random descriptor.
    static func descriptor(_ rng: inout SplitMix64) -> BinaryDescriptor {
        BinaryDescriptor(rng.next(), rng.next(), rng.next(), rng.next())
    }

    /// `d` with `count` bits flipped (the query sees the corner from another viewpoint).
    static func perturbed(_ d: BinaryDescriptor, _ count: Int, _ rng: inout SplitMix64) -> BinaryDescriptor {
        var out = d
        for _ in 0..<count {
            let bit = Int(rng.next() % 256)
            out = out.setting(bit, !out.bit(bit))
        }
        return out
    }

    @Test("finds the pose where no keyframe holds enough of the view, and copies of a point do not make it ambiguous")
    func spreadView() throws {
        var rng = SplitMix64(seed: 5)
        // Camera looking along world +x (OpenCV axes: z forward = world x, x right = world −y, y down = world −z).
        let R_wc = Matrix3(columns: Vector3(0, -1, 0), Vector3(0, 0, -1), Vector3(1, 0, 0))
        let yaw = 0.4
        let Rz = Matrix3(rowMajor: [cos(yaw), -sin(yaw), 0, sin(yaw), cos(yaw), 0, 0, 0, 1])
        let truth = RigidTransform(rotationMatrix: Rz * R_wc, translation: Vector3(0.5, 1.0, 1.2))
        var keyframes: [Keyframe] = []
        var query: [DescribedKeypoint] = []
        var id = 0
        func point(_ position: Vector3, _ descriptor: BinaryDescriptor) -> KeyframePoint {
            id += 1
            return KeyframePoint(featureID: id, position_world: position, pixel: Vector2(0, 0), descriptor: descriptor)
        }
        // 40 points of the view, two per keyframe, each in two keyframes.
        var seen: [[KeyframePoint]] = Array(repeating: [], count: 40)
        for i in 0..<40 {
            let pc = Vector3(rng.uniform(-2, 2), rng.uniform(-1.2, 1.2), rng.uniform(2.5, 6))
            let d = Self.descriptor(&rng)
            let p = point(truth * pc, d)
            seen[i / 2].append(p)
            seen[20 + i / 2].append(p)
            let uv = try #require(camera.project(pc))
            query.append(DescribedKeypoint(pixel: uv, angle: 0, descriptor: Self.perturbed(d, 20, &rng)))
        }
        // Each keyframe also holds points from elsewhere in the room, and the query has corners the map lacks.
        for (k, points) in seen.enumerated() {
            var all = points
            for _ in 0..<10 { all.append(point(Vector3(rng.uniform(-3, 3), rng.uniform(-3, 3), rng.uniform(0, 2.5)), Self.descriptor(&rng))) }
            keyframes.append(Keyframe(id: k, timestamp: Double(k), T_world_camera: truth, points: all))
        }
        for _ in 0..<60 {
            query.append(DescribedKeypoint(pixel: Vector2(rng.uniform(0, 752), rng.uniform(0, 480)), angle: 0,
                                           descriptor: Self.descriptor(&rng)))
        }
        let map = KeyframeDatabase(keyframes: keyframes, vocabulary: nil)
        #expect(map.candidates(for: query.map(\.descriptor)).isEmpty, "no keyframe gathers the 12 votes the shortlist needs")
        var relocalizer = Relocalizer()
        let matches = relocalizer.pooledCorrespondences(query, camera: camera, in: map, where: nil)
        #expect(matches.count == 40, "each of the 40 seen points matched once despite its copy")
        let located = relocalizer.locateInPool(query, R_gravity_camera: R_wc, camera: camera, in: map, where: nil)
        let found = try #require(located)
        #expect((found.T_world_camera.translation - truth.translation).norm < 1e-4)
        #expect(found.inlierCount == 40)
        #expect(found.keyframeIDs.count >= 20 && Set(found.keyframeIDs).isSubset(of: Set(0..<40)))
        relocalizer.pooledPointBudget = 100
        #expect(relocalizer.pool(for: query.map(\.descriptor), in: map, where: nil).reduce(0) { $0 + $1.points.count } <= 100)
        relocalizer.pooledPointBudget = 0
        let off = relocalizer.locateInPool(query, R_gravity_camera: R_wc, camera: camera, in: map, where: nil)
        #expect(off == nil, "a budget of 0 points turns the fallback off")
    }

    @Test("one descriptor at two places is ambiguous and not matched")
    func twoPlaces() throws {
        var rng = SplitMix64(seed: 9)
        let d = Self.descriptor(&rng)
        let points = [KeyframePoint(featureID: 1, position_world: Vector3(2, 0, 1), pixel: Vector2(0, 0), descriptor: d),
                      KeyframePoint(featureID: 2, position_world: Vector3(2, 1, 1), pixel: Vector2(0, 0), descriptor: d)]
        let map = KeyframeDatabase(keyframes: [Keyframe(id: 0, timestamp: 0, T_world_camera: .identity, points: points)], vocabulary: nil)
        let query = [DescribedKeypoint(pixel: Vector2(300, 200), angle: 0, descriptor: d)]
        #expect(Relocalizer().pooledCorrespondences(query, camera: camera, in: map, where: nil).isEmpty)
    }
}
