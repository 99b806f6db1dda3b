import Foundation
import ParallaxDatasets
import ParallaxMath
import ParallaxVision
import ParallaxEvaluation
import Testing
@testable import ParallaxTracking

/// Diagnostic (run with PARALLAX_IDEAL_TRACKS=1): the estimator on the front-end's own tracks, then
/// on the same tracks moved onto the projections of points triangulated with the true poses.
@Suite("Ideal-tracks experiment",
       .enabled(if: ProcessInfo.processInfo.environment["PARALLAX_IDEAL_TRACKS"] != nil, "set PARALLAX_IDEAL_TRACKS=1 to run"),
       .needsSharedTrajectories)
struct IdealTracksExperiment {
    final class Recorder: @unchecked Sendable { var frames: [Double: FeatureFrame] = [:] }

    /// Runs the estimator on `dataset` recording every front-end frame; returns the frames, the run,
    /// the rig and the true body pose at a time (also ``IdealRollingShutterTracksExperiment``'s).
    static func recordedRun(_ dataset: EuRoCDataset, _ configuration: TrackerConfiguration) throws
        -> (Recorder, DatasetRunner.Summary, CameraRig, (Double) -> (Matrix3, Vector3)?) {
        let recorder = Recorder()
        let first = try DatasetRunner(dataset: dataset, configuration: configuration)
        first.estimator.core.frameFilter = { recorder.frames[$0.timestamp] = $0; return $0 }
        let measured = try first.run()
        let truth = try #require(try GroundTruthPoses(dataset: dataset))
        let pose: (Double) -> (Matrix3, Vector3)? = { t in
            truth.T_world_body(at: Int64((t * 1e9).rounded())).map { ($0.rotationMatrix, $0.translation) }
        }
        return (recorder, measured, first.estimator.core.rig, pose)
    }

    /// Each feature's point triangulated from its observations at their true poses (the ideal
    /// tracks' points; also ``IdealRollingShutterTracksExperiment``'s).
    static func points(_ observations: [Int: [Observation]], poses: [Int: [(Matrix3, Vector3)]], rig: CameraRig) -> [Int: Vector3] {
        var points: [Int: Vector3] = [:]
        for (id, obs) in observations {
            guard let p = poses[id], let x = Triangulation.triangulate(obs, poses: p, rig: rig, iterations: 10,
                                                                      minParallax: 0.005, maxErrorNormalized: .infinity)
            else { continue }
            points[id] = x
        }
        return points
    }

    @Test(arguments: ["udel_gore", "euroc_V1_01_easy"], [TrackerConfiguration.Mode.stereo, .mono])
    func idealTracks(trajectory: String, mode: TrackerConfiguration.Mode) throws {
        let (simulated, name) = try TrackingFixtures.simulated(trajectory: trajectory)
        let dataset = try #require(simulated, "\(name)")
        let (recorder, measured, rig, pose) = try Self.recordedRun(dataset, TrackerConfiguration(mode: mode))
        let cam0 = try dataset.cameras[0].makeCameraModel()
        let cam1 = dataset.cameras.count > 1 ? try dataset.cameras[1].makeCameraModel() : nil
        let times = recorder.frames.keys.sorted()
        var observations: [Int: [Observation]] = [:], poses: [Int: [(Matrix3, Vector3)]] = [:]
        for (k, t) in times.enumerated() {
            guard let p = pose(t), let f = recorder.frames[t] else { continue }
            for feature in f.features {
                observations[feature.id, default: []].append(Observation(frame: k, left: feature.normalized, right: feature.rightNormalized))
                poses[feature.id, default: []].append(p)
            }
        }
        let points = Self.points(observations, poses: poses, rig: rig)
        let second = try DatasetRunner(dataset: dataset, configuration: TrackerConfiguration(mode: mode))
        second.estimator.core.frameFilter = { frame in
            guard var f = recorder.frames[frame.timestamp], let (r, c) = pose(frame.timestamp) else { return frame }
            // Normalised coordinates of `x` in camera `cam` at this frame's true pose.
            func project(_ x: Vector3, _ cam: Int) -> Vector2? {
                let (rc, pc) = rig.cameraPose(cam, bodyRotation: r, bodyPosition: c)
                let q = rc.transpose * (x - pc)
                return q.z > 0.05 ? Vector2(q.x / q.z, q.y / q.z) : nil
            }
            for k in f.features.indices {
                guard let x = points[f.features[k].id], let n0 = project(x, 0) else { continue }
                f.features[k].normalized = n0
                f.features[k].pixel = cam0.distortToPixel(n0)
                if f.features[k].rightNormalized != nil, let cam1, let n1 = project(x, 1) {
                    f.features[k].rightNormalized = n1
                    f.features[k].rightPixel = cam1.distortToPixel(n1)
                }
            }
            return f
        }
        let ideal = try second.run()
        let a = try #require(try measured.evaluation()).report.ate.rmse
        let b = try #require(try ideal.evaluation()).report.ate.rmse
        print("IDEAL \(trajectory) \(mode.rawValue): measured tracks ATE \(String(format: "%.4f", a)) m, ideal tracks "
              + "\(String(format: "%.4f", b)) m (\(points.count) of \(observations.count) tracks triangulated)")
    }
}
