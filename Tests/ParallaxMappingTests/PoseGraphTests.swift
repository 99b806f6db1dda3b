import Foundation
import ParallaxMath
import ParallaxTracking
import Testing

@testable import ParallaxMapping

@Suite("4-DoF pose graph")
struct PoseGraphTests {
    /// Truth: 80 poses around a 2 m circle (heading along it, height waving), the last one back
    /// next to the first.
    static func circle(_ n: Int = 80) -> [YawPose] {
        (0..<n).map { i in
            let a = 2 * Double.pi * Double(i) / Double(n - 1) * 0.98
            return YawPose(yaw: wrapAngle(a + .pi / 2), position: Vector3(2 * cos(a), 2 * sin(a), 1.2 + 0.2 * sin(3 * a)))
        }
    }

    /// Composes relative measurements from a start pose (what odometry does).
    static func integrate(_ start: YawPose, _ steps: [YawPose]) -> [YawPose] {
        var out = [start]
        for m in steps {
            let p = out[out.count - 1]
            out.append(YawPose(yaw: wrapAngle(p.yaw + m.yaw), position: p.position + rotateZ(m.position, by: p.yaw)))
        }
        return out
    }

    /// Noise-free odometry and loop edges, a start far off (the odometry integrated with a yaw
    /// drift of 0.4° per step and a 1 % scale error): the optimum is the truth, exactly.
    @Test("noise-free drifting loop: exact recovery")
    func exactRecovery() {
        let truth = Self.circle()
        let steps = zip(truth, truth.dropFirst()).map { $0.relative(to: $1) }
        let drifted = Self.integrate(truth[0], steps.map {
            YawPose(yaw: $0.yaw + 0.4 * .pi / 180, position: $0.position * 1.01)
        })
        var edges = steps.enumerated().map {
            PoseGraphEdge(from: $0.offset, to: $0.offset + 1, measurement: $0.element, positionSigma: 0.01, yawSigma: 0.005)
        }
        let last = truth.count - 1
        edges.append(PoseGraphEdge(from: 0, to: last, measurement: truth[0].relative(to: truth[last]), positionSigma: 0.03,
                                   yawSigma: 0.01, huber: 3))
        edges.append(PoseGraphEdge(from: 5, to: last - 2, measurement: truth[5].relative(to: truth[last - 2]), positionSigma: 0.03,
                                   yawSigma: 0.01, huber: 3))
        var graph = PoseGraph(nodes: drifted, fixed: [true] + Array(repeating: false, count: last), edges: edges)
        let before = zip(graph.nodes, truth).map { ($0.position - $1.position).norm }.max() ?? 0
        graph.optimize(iterations: 30)
        let after = zip(graph.nodes, truth).map { ($0.position - $1.position).norm }.max() ?? 0
        let yaw = zip(graph.nodes, truth).map { abs(wrapAngle($0.yaw - $1.yaw)) }.max() ?? 0
        #expect(before > 0.3, "the start must be far off: \(before)")
        #expect(after < 1e-6, "position error \(after)")
        #expect(yaw < 1e-8, "yaw error \(yaw)")
        #expect(graph.cost() < 1e-12)
    }

    /// Three laps of the circle with a loop edge from every pose of the later laps to the same
    /// place on the first (a walk that keeps revisiting a room: each later node joined to the first
    /// lap, which made the old profile Cholesky nearly dense): from a drifted start the optimum must
    /// still be exact.
    @Test("revisiting laps: the exact optimum")
    func revisitingLaps() {
        let lap = Self.circle(60)
        let truth = (0..<3).flatMap { k in lap.map { YawPose(yaw: $0.yaw, position: $0.position + Vector3(0, 0, 0.05 * Double(k))) } }
        let steps = zip(truth, truth.dropFirst()).map { $0.relative(to: $1) }
        var edges = steps.enumerated().map {
            PoseGraphEdge(from: $0.offset, to: $0.offset + 1, measurement: $0.element, positionSigma: 0.01, yawSigma: 0.005)
        }
        for j in lap.count..<truth.count {
            let i = j % lap.count
            edges.append(PoseGraphEdge(from: i, to: j, measurement: truth[i].relative(to: truth[j]), positionSigma: 0.03, yawSigma: 0.01))
        }
        let drifted = Self.integrate(truth[0], steps.map { YawPose(yaw: $0.yaw + 0.2 * .pi / 180, position: $0.position * 1.005) })
        var graph = PoseGraph(nodes: drifted, fixed: [true] + Array(repeating: false, count: truth.count - 1), edges: edges)
        graph.optimize(iterations: 30)
        let after = zip(graph.nodes, truth).map { ($0.position - $1.position).norm }.max() ?? 0
        #expect(after < 1e-6, "position error \(after)")
    }

    /// Drifting odometry measurements and one exact loop edge: the loop spreads the error, the
    /// end point comes back near the truth and the worst error over the loop shrinks.
    @Test("drifting odometry, exact loop: error spread along the chain")
    func driftingMeasurements() {
        let truth = Self.circle()
        let steps = zip(truth, truth.dropFirst()).map { $0.relative(to: $1) }
        let biased = steps.map { YawPose(yaw: $0.yaw + 0.2 * .pi / 180, position: $0.position * 1.01) }
        let odometry = Self.integrate(truth[0], biased)
        var edges = biased.enumerated().map {
            PoseGraphEdge(from: $0.offset, to: $0.offset + 1, measurement: $0.element, positionSigma: 0.01, yawSigma: 0.005)
        }
        let last = truth.count - 1
        edges.append(PoseGraphEdge(from: 0, to: last, measurement: truth[0].relative(to: truth[last]), positionSigma: 0.01,
                                   yawSigma: 0.005))
        var graph = PoseGraph(nodes: odometry, fixed: [true] + Array(repeating: false, count: last), edges: edges)
        graph.optimize(iterations: 30)
        func worst(_ nodes: [YawPose]) -> Double { zip(nodes, truth).map { ($0.position - $1.position).norm }.max() ?? 0 }
        let endBefore = (odometry[last].position - truth[last].position).norm
        let endAfter = (graph.nodes[last].position - truth[last].position).norm
        #expect(endAfter < endBefore / 4, "end error \(endBefore) → \(endAfter)")
        #expect(worst(graph.nodes) < worst(odometry) / 2, "worst error \(worst(odometry)) → \(worst(graph.nodes))")
    }

    /// The block Cholesky against a dense answer: 9 nodes (36 unknowns) joined as a chain plus
    /// long links (0–8, 2–6, 1–7), so the minimum-degree elimination has to create fill.
    @Test("block Cholesky solves a sparse system with fill")
    func blockCholesky() throws {
        let nodes = 9, n = 4 * nodes
        let links = (0..<(nodes - 1)).map { ($0, $0 + 1) } + [(0, 8), (2, 6), (1, 7)]
        var dense = [[Double]](repeating: [Double](repeating: 0, count: n), count: n)
        for (a, b) in links {
            for r in 0..<4 {
                for c in 0..<4 {
                    let v = 0.3 / Double(1 + r + 2 * c + a + b)
                    dense[4 * b + r][4 * a + c] += v
                    dense[4 * a + c][4 * b + r] += v
                }
            }
        }
        for i in 0..<n {
            for j in (4 * (i / 4))...i {
                let v = i == j ? 4.0 + Double(i % 5) : 0.1 / Double(1 + i - j)
                dense[i][j] += v
                if i != j { dense[j][i] += v }
            }
        }
        var A = BlockCholesky(count: nodes)
        for i in 0..<n {
            for j in 0...i where dense[i][j] != 0 { A.add(dense[i][j], row: i, column: j) }
        }
        let x = (0..<n).map { Double($0 % 7) - 2.5 }
        let b = dense.map { row in zip(row, x).reduce(0) { $0 + $1.0 * $1.1 } }
        let solved = try #require(A.solve(b))
        #expect(zip(solved, x).map { abs($0 - $1) }.max() ?? 1 < 1e-10)
        var negative = BlockCholesky(count: 1)
        negative.add(-1, row: 0, column: 0)
        #expect(negative.solve([1, 0, 0, 0]) == nil)
    }
}

@Suite("Loop checks")
struct LoopCheckTests {
    /// The odometry edges between consecutive keyframes carry the mono σ for a mono tracker and
    /// the stereo σ (half) for a stereo one.
    @Test("odometry edges weighted by the tracker's mode")
    func odometrySigmaByMode() {
        let keyframes = (0..<3).map { i in
            Keyframe(id: i, timestamp: Double(i), T_world_camera: RigidTransform(rotationMatrix: .identity, translation: Vector3(Double(i), 0, 0)),
                     points: [])
        }
        let database = KeyframeDatabase(keyframes: keyframes, vocabulary: nil)
        for mode in [TrackerConfiguration.Mode.mono, .stereo] {
            var configuration = LoopClosureConfiguration()
            configuration.trackerMode = mode
            var closer = LoopCloser(configuration: configuration)
            for k in keyframes { closer.keyframeAdded(id: k.id, segment: 0, T_odom_camera: k.T_world_camera, timestamp: k.timestamp) }
            let edges = closer.graph(database).graph.edges
            let expected = mode == .stereo ? configuration.stereoOdometrySigma : configuration.odometrySigma
            #expect(edges.count == 2)
            #expect(edges.allSatisfy { $0.positionSigma == expected.position && $0.yawSigma == expected.yaw })
        }
        #expect(LoopClosureConfiguration().stereoOdometrySigma.position < LoopClosureConfiguration().odometrySigma.position)
    }

    /// A place match that disagrees with the odometry (too few inliers even for confirmation, a yaw or a position far
    /// from the prediction) is refused; an agreeing one passes.
    @Test("false loops are refused by the odometry checks")
    func falseLoops() {
        var closer = LoopCloser(configuration: LoopClosureConfiguration())
        let predicted = RigidTransform(rotationMatrix: GravityAlignedPnP.rz(0.3), translation: Vector3(1, 2, 1.5))
        closer.keyframeAdded(id: 0, segment: 0, T_odom_camera: predicted, timestamp: 0)
        closer.moved(to: predicted, newSegment: true)
        func match(yaw: Double, shift: Vector3, inliers: Int) -> Relocalization {
            Relocalization(T_world_camera: RigidTransform(rotationMatrix: GravityAlignedPnP.rz(0.3 + yaw),
                                                          translation: predicted.translation + shift),
                           inlierCount: inliers, keyframeIDs: [0])
        }
        #expect(closer.check(match(yaw: 0.01, shift: Vector3(0.05, 0, 0), inliers: 60), predicted: predicted, oldKeyframe: 0, segment: 0) == nil)
        // Fewer than even a confirmed loop needs (20 would pass here and wait for a second detection).
        #expect(closer.check(match(yaw: 0, shift: .zero, inliers: 12), predicted: predicted, oldKeyframe: 0, segment: 0) != nil)
        #expect(closer.check(match(yaw: 0.3, shift: .zero, inliers: 60), predicted: predicted, oldKeyframe: 0, segment: 0) != nil)
        #expect(closer.check(match(yaw: 0, shift: Vector3(0, 0.5, 0), inliers: 60), predicted: predicted, oldKeyframe: 0, segment: 0) != nil)
    }
}
