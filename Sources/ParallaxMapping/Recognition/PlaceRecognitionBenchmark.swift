import Foundation
import ParallaxDatasets
import ParallaxMath

/// Place recognition measured on a dataset with ground truth (`parallax vocabulary evaluate` and
/// the tests): every cam0 image is described as the relocalizer's query side does and posed from
/// the ground truth; every S-th image becomes a keyframe, the images halfway between are queries.
/// A query's *right* keyframes are those within ``distance`` and ``angle`` of its camera; a query
/// counts when at least one right keyframe is old enough to be searched.
public struct PlaceRecognitionBenchmark: Sendable {
    /// One described, posed image.
    public struct View: Sendable {
        /// Frame time (s).
        public var time: Double
        /// Ground-truth cam0 pose (OpenCV camera) in the dataset's world.
        public var T_world_camera: RigidTransform
        /// Described corners.
        public var keypoints: [DescribedKeypoint]
    }

    /// Figures of one run.
    public struct Score: Sendable, CustomStringConvertible {
        /// Keyframes in the database.
        public var keyframes = 0
        /// Queries with a right keyframe among the searchable ones.
        public var queries = 0
        /// Queries whose first candidate is right.
        public var top1 = 0
        /// Queries with a right keyframe among the first three candidates.
        public var top3 = 0
        /// Queries without any candidate.
        public var empty = 0
        /// Mean time of one `candidates` call (ms, wall clock).
        public var milliseconds = 0.0
        /// Fraction of queries right at rank 1.
        public var recall1: Double { queries == 0 ? 0 : Double(top1) / Double(queries) }
        /// Fraction of queries with a right keyframe in the top 3.
        public var recall3: Double { queries == 0 ? 0 : Double(top3) / Double(queries) }
        public var description: String {
            String(format: "%d keyframes, %d queries: top-1 %.1f %%, top-3 %.1f %%, no candidate %d, %.3f ms per query",
                   keyframes, queries, 100 * recall1, 100 * recall3, empty, milliseconds)
        }
    }

    /// The described images in time order.
    public let views: [View]
    /// A keyframe is right for a query within this distance (m) …
    public var distance = 0.3
    /// … and this angle between the optical axes (rad).
    public var angle = 20.0 * Double.pi / 180

    /// Describes every `stride`-th cam0 image of `dataset` that has a ground-truth pose within 10 ms.
    /// - Throws: the dataset's errors; ``VocabularyError`` when it has no ground truth.
    public init(dataset: EuRoCDataset, stride: Int = 1, relocalizer: Relocalizer = .init()) throws {
        let truth = try dataset.groundTruth()
        guard !truth.isEmpty else { throw VocabularyError("\(dataset.mav0.path): no ground truth to score place recognition") }
        let T_body_camera = dataset.cameras[0].T_body_camera
        let frames = try dataset.cameraFrames(0)
        var views: [View] = []
        var j = 0
        for frame in Swift.stride(from: 0, to: frames.count, by: max(stride, 1)).map({ frames[$0] }) {
            while j + 1 < truth.count, abs(truth[j + 1].timestampNs - frame.timestampNs) <= abs(truth[j].timestampNs - frame.timestampNs) { j += 1 }
            guard abs(truth[j].timestampNs - frame.timestampNs) <= 10_000_000 else { continue }
            views.append(View(time: seconds(fromNanoseconds: frame.timestampNs), T_world_camera: truth[j].T_world_body * T_body_camera,
                              keypoints: relocalizer.describeCorners(try frame.loadGray8())))
        }
        self.views = views
    }

    /// Keyframes from every `keyframeStride`-th view, queries halfway between; a query searches
    /// the keyframes at least `minimumAge` seconds older than itself (0: all earlier and later
    /// ones; 10: as loop detection does) with ``KeyframeDatabase/candidates(for:maximumDistance:count:minimumVotes:)``.
    public func run(keyframeStride: Int, vocabulary: Vocabulary?, minimumAge: Double = 0) -> Score {
        let step = max(keyframeStride, 2)
        let keyframes = Swift.stride(from: 0, to: views.count, by: step).map { i in
            Keyframe(id: i, timestamp: views[i].time, T_world_camera: views[i].T_world_camera,
                     points: views[i].keypoints.map { KeyframePoint(featureID: 0, position_world: .zero, pixel: $0.pixel, descriptor: $0.descriptor) })
        }
        let all = KeyframeDatabase(keyframes: keyframes, vocabulary: vocabulary)
        var score = Score(keyframes: keyframes.count)
        var seconds = 0.0
        let clock = ContinuousClock()
        for q in Swift.stride(from: step / 2, to: views.count, by: step).map({ views[$0] }) {
            let searched = minimumAge > 0 ? all.filter { q.time - $0.timestamp >= minimumAge } : all
            let right = Set(searched.keyframes.filter { isRight($0, for: q) }.map(\.id))
            guard !right.isEmpty else { continue }
            let descriptors = q.keypoints.map(\.descriptor)
            var found: [Keyframe] = []
            let elapsed = clock.measure { found = searched.candidates(for: descriptors, count: 3) }
            seconds += Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            score.queries += 1
            if found.isEmpty { score.empty += 1 }
            if let first = found.first, right.contains(first.id) { score.top1 += 1 }
            if found.contains(where: { right.contains($0.id) }) { score.top3 += 1 }
        }
        score.milliseconds = score.queries == 0 ? 0 : 1000 * seconds / Double(score.queries)
        return score
    }

    private func isRight(_ k: Keyframe, for q: View) -> Bool {
        (k.T_world_camera.translation - q.T_world_camera.translation).norm <= distance
            && k.axis_world.dot(q.T_world_camera.rotate(Vector3(0, 0, 1))) >= cos(angle)
    }
}
