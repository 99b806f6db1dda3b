import Foundation
import ParallaxAR
import ParallaxDatasets
import ParallaxMath
import ParallaxSimulation
import ParallaxTracking

/// Replays a simulated dataset with horizontal and vertical plane detection and scores the
/// planes against its `truth/planes.json` (the engine of `parallax evaluate-planes`).
public enum PlaneEvaluationRun {
    /// Runs the session over `root`; with the tracker, its world is first aligned to the truth
    /// world by the position + yaw alignment of the camera trajectory (needs ground truth). (the folder holding `mav0` and `truth`) and returns the report.
    /// - Parameters:
    ///   - source: ground-truth poses or the tracker.
    ///   - stopTime: seconds after the dataset start to stop at (nil: the whole dataset).
    ///   - trackerMode: mono or stereo tracking (nil: stereo when the dataset has two cameras).
    ///   - trackerConfiguration: the tracker's settings (nil: the defaults; `trackerMode` overrides its mode).
    ///   - surfaces: every face of the scene, which hit distances are measured to (nil: the
    ///     dataset's `truth/surfaces.json` when it has one, else its planes).
    ///   - frameHandler: called with each frame (e.g. for progress or exports).
    public static func run(datasetRoot root: URL, source: PoseSourceKind, stopTime: Double? = nil,
                           trackerMode: TrackerConfiguration.Mode? = nil, trackerConfiguration: TrackerConfiguration? = nil,
                           surfaces: [TruthPlane]? = nil,
                           frameHandler: ((Frame) throws -> Void)? = nil) throws -> PlaneEvaluationReport {
        let truth = try PlaneTruthFile.read(contentsOf: PlaneTruthFile.url(datasetRoot: root))
        let surfacesFile = PlaneTruthFile.surfacesURL(datasetRoot: root)
        let surfaces = try surfaces ?? (FileManager.default.fileExists(atPath: surfacesFile.path)
            ? PlaneTruthFile.read(contentsOf: surfacesFile) : nil)
        let session = try Session(datasetAt: root, replay: ReplayOptions(source: source, stopTime: stopTime,
                                                                           trackerMode: trackerMode,
                                                                           trackerConfiguration: trackerConfiguration))
        session.run(WorldTrackingConfiguration(planeDetection: [.horizontal, .vertical], isLightEstimationEnabled: false))
        var evaluator = PlaneEvaluator(truth: truth)
        var recorder = PlaneMapQualityRecorder(truth: truth, surfaces: surfaces)
        let reference = GroundTruthPoses(states: try session.dataset.groundTruth())
        let T_B_C = session.cameraCalibration?.T_body_camera ?? .identity
        // The camera that rendered the images and when, when the simulation wrote sensor effects
        // (a calibration error, a camera–IMU time shift): hits placed from the true camera use it
        // (PlaneMapQuality.extentHitDistancesFromCamera).
        let rendering = try renderingCamera(datasetRoot: root)
        var estimated: [Vector3] = [], actual: [Vector3] = []
        while let frame = try session.nextFrame() {
            evaluator.observe(frame, T_A_W: session.worldTransform, trackingStartTime: session.trackingStartTime)
            let T_W_B = reference?.T_world_body(at: frame.timestampNs, holdingEndsFor: Session.groundTruthEndHoldNs)
            let T_W_B_rendered = rendering.map {
                reference?.T_world_body(at: frame.timestampNs + $0.timeShiftNs, holdingEndsFor: Session.groundTruthEndHoldNs)
            } ?? T_W_B
            recorder.observe(frame, trueCamera: T_W_B.map { $0 * T_B_C }, T_A_W: session.worldTransform,
                             renderingCamera: T_W_B_rendered.map { $0 * (rendering?.T_body_camera ?? T_B_C) })
            if frame.camera.trackingState == .normal, let T_A_W = session.worldTransform, let T_W_B {
                estimated.append(T_A_W.inverse * frame.camera.position)
                actual.append((T_W_B * T_B_C).translation)
            }
            try frameHandler?(frame)
        }
        var T_truth_world = RigidTransform.identity
        if source == .tracking {
            // The tracker's world has its own origin and yaw: align it to the truth world (4-DoF).
            let alignment = try TrajectoryAlignment.estimate(.posyaw, estimate: estimated, reference: actual)
            T_truth_world = RigidTransform(rotationMatrix: alignment.rotation, translation: alignment.translation)
        }
        var report = evaluator.report(T_truth_world: T_truth_world, seenRegions: recorder.seenRegions())
        report.quality = recorder.quality(report: report, T_truth_world: T_truth_world)
        return report
    }

    /// cam0 as it rendered the images, from a simulation's `truth/meta.json`: its true `T_BS` and
    /// the true camera–IMU time shift (an image stamped `t` was seen at `t + timeShiftNs` on the
    /// ground truth's clock). Nil when the file is absent (no sensor effects).
    static func renderingCamera(datasetRoot root: URL) throws -> (T_body_camera: RigidTransform, timeShiftNs: Int64)? {
        let url = root.appendingPathComponent("truth/meta.json")
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let meta: SensorMetaFile
        do {
            meta = try JSONDecoder().decode(SensorMetaFile.self, from: Data(contentsOf: url))
        } catch {
            throw EvaluationError("\(url.path): not a simulation meta file: \(error)")
        }
        guard let rows = meta.cameras.first?.trueCalibration.T_BS, rows.count == 4, rows.allSatisfy({ $0.count == 4 }),
              rows.joined().allSatisfy(\.isFinite) else {
            throw EvaluationError("\(url.path): cameras[0].trueCalibration.T_BS is not four rows of four finite numbers")
        }
        guard meta.timeshift_cam_imu.isFinite, abs(meta.timeshift_cam_imu) <= 1 else {
            throw EvaluationError("\(url.path): timeshift_cam_imu \(meta.timeshift_cam_imu) s is not a finite shift within ±1 s")
        }
        return (RigidTransform(matrix: Matrix4(rowMajor: Array(rows.joined()))), Int64((meta.timeshift_cam_imu * 1e9).rounded()))
    }
}
