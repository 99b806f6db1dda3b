import Foundation
import ParallaxDatasets
import ParallaxMath
import ParallaxVision
import ParallaxEvaluation
import Testing
@testable import ParallaxTracking

/// Diagnostic (run with PARALLAX_RS_DATASET=DIR, a simulated mono rolling-shutter dataset with
/// `line_delay` stated and no camera–IMU time offset): the estimator on the front-end's own tracks,
/// then on the same tracks moved onto the exact rolling-shutter projections (each row seen from its
/// own true pose) of points triangulated from the true row poses. It prints the ATE and how far the
/// online extrinsic rotation and intrinsics moved from the truth: with the ideal tracks, whatever
/// is left is the estimator's model, not the images. It found the held gyro reading of the rows'
/// turn (docs/tracking-design.md, "The rows' turn").
@Suite("Ideal rolling-shutter tracks experiment",
       .enabled(if: ProcessInfo.processInfo.environment["PARALLAX_RS_DATASET"] != nil, "set PARALLAX_RS_DATASET=DIR to run"))
struct IdealRollingShutterTracksExperiment {
    @Test func idealRollingShutterTracks() throws {
        let path = try #require(ProcessInfo.processInfo.environment["PARALLAX_RS_DATASET"])
        let dataset = try EuRoCDataset(url: URL(fileURLWithPath: path))
        let camera = dataset.cameras[0]
        let lineDelay = camera.lineDelay ?? 0, middle = Double(camera.height - 1) / 2
        let configuration = TrackerConfiguration(mode: .mono)
        let (recorder, measured, rig, pose) = try IdealTracksExperiment.recordedRun(dataset, configuration)
        let model = try camera.makeCameraModel()
        // Points from the recorded tracks and the true pose of each observation's row.
        var observations: [Int: [Observation]] = [:], poses: [Int: [(Matrix3, Vector3)]] = [:]
        for (k, t) in recorder.frames.keys.sorted().enumerated() {
            for feature in recorder.frames[t]?.features ?? [] {
                guard let p = pose(t + (feature.pixel.y - middle) * lineDelay) else { continue }
                observations[feature.id, default: []].append(Observation(frame: k, left: feature.normalized, right: nil))
                poses[feature.id, default: []].append(p)
            }
        }
        let points = IdealTracksExperiment.points(observations, poses: poses, rig: rig)
        let second = try DatasetRunner(dataset: dataset, configuration: configuration)
        second.estimator.core.frameFilter = { frame in
            guard var f = recorder.frames[frame.timestamp] else { return frame }
            for k in f.features.indices {
                guard let x = points[f.features[k].id] else { continue }
                // The row that sees the point depends on where it lands: iterate to the fixed point.
                var row = f.features[k].pixel.y
                for _ in 0..<20 {
                    guard let (r, c) = pose(frame.timestamp + (row - middle) * lineDelay) else { break }
                    let (rc, pc) = rig.cameraPose(0, bodyRotation: r, bodyPosition: c)
                    let q = rc.transpose * (x - pc)
                    guard q.z > 0.05 else { break }
                    let n = Vector2(q.x / q.z, q.y / q.z)
                    f.features[k].normalized = n
                    f.features[k].pixel = model.distortToPixel(n)
                    if abs(f.features[k].pixel.y - row) < 1e-6 { break }
                    row = f.features[k].pixel.y
                }
            }
            return f
        }
        let ideal = try second.run()
        let a = try #require(try measured.evaluation()).report.ate.rmse
        let b = try #require(try ideal.evaluation()).report.ate.rmse
        let s = try #require(second.estimator.core.state)
        let turn = SO3.log(s.rig.R_body_cam0 * camera.T_body_camera.rotationMatrix.transpose) * (180 / Double.pi)
        let offsets = s.intrinsicOffsets.first.map { o in (0..<4).map { String(format: "%.2f", o[$0]) } } ?? []
        print(String(format: "IDEAL RS: measured tracks ATE %.4f m, ideal tracks ATE %.4f m", a, b)
              + ", extrinsic rotation off by \(turn) deg (body axes), fx fy cx cy off by \(offsets) px")
    }
}
