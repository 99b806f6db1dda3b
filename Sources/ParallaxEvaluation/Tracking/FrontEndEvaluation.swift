import Foundation
import ParallaxDatasets
import ParallaxMath
import ParallaxTracking
import ParallaxVision

/// How well the front-end's tracks agree with the true camera motion.
///
/// Runs the feature tracker over a dataset with ground truth, cuts every track into windows of
/// at most `windowFrames` observations (as the estimator consumes them), triangulates each window
/// with the **true** poses and reports the reprojection errors. With exact poses the residuals
/// measure the front-end alone: KLT drift, wrong stereo matches, and any mismatch between the
/// calibration and the images (a wrong focal length or distortion shows up as residuals that grow
/// with the motion inside a window). Points are triangulated from cam0 alone; in stereo mode the
/// cam1 residuals against those points are the stereo matching error.
public struct FrontEndEvaluation: Sendable {
    /// Summary statistics of the reprojection errors, in pixels.
    public struct Report: Sendable {
        /// Windows triangulated (tracks or track pieces).
        public var windows = 0
        /// Windows that did not triangulate (too little parallax, behind a camera).
        public var untriangulated = 0
        /// Left-camera residuals (pixels), one per observation.
        public var leftErrors: [Double] = []
        /// Right-camera residuals (pixels), one per stereo observation, against the point
        /// triangulated from the left track: the stereo matching error. Only windows over which
        /// cam0 moved at least twice the stereo baseline count (a shorter left track fixes the
        /// depth worse than the stereo pair does).
        public var rightErrors: [Double] = []
        /// Left residuals grouped by the point's depth in the first camera of its window:
        /// `depthBinEdges` give the upper edges (metres) of all bins but the last.
        public var leftErrorsByDepth: [[Double]] = Array(repeating: [], count: Report.depthBinEdges.count + 1)
        /// Upper depth edges (metres) of the depth bins.
        public static let depthBinEdges: [Double] = [2, 5, 10]
        /// Mean signed left residual (pixels, x and y): non-zero when the calibration is biased.
        public var meanSigned = Vector2.zero
        /// Mean signed right residual (pixels, x and y) over `rightErrors`: a non-zero x is a
        /// disparity bias, which scales every stereo depth.
        public var meanSignedRight = Vector2.zero

        /// RMS of `values`.
        public static func rms(_ values: [Double]) -> Double {
            values.isEmpty ? 0 : (values.reduce(0) { $0 + $1 * $1 } / Double(values.count)).squareRoot()
        }

        /// One line per camera: count, RMS, median, p95 and the share above 2 px.
        public var description: String {
            func line(_ name: String, _ e: [Double]) -> String {
                guard !e.isEmpty else { return "\(name): no observations" }
                let over = Double(e.filter { $0 > 2 }.count) / Double(e.count) * 100
                return String(format: "%@: %d observations, rms %.3f px, median %.3f, p95 %.3f, > 2 px %.2f %%",
                              name, e.count, Report.rms(e), SampleStatistics.quantile(e, 0.5),
                              SampleStatistics.quantile(e, 0.95), over)
            }
            var s = String(format: "windows %d (untriangulated %d), mean signed left residual (%.3f, %.3f) px\n",
                           windows, untriangulated, meanSigned.x, meanSigned.y)
            s += line("left", leftErrors)
            var lower = 0.0
            for (k, bin) in leftErrorsByDepth.enumerated() where !bin.isEmpty {
                let name = k < Report.depthBinEdges.count
                    ? String(format: "  depth %.0f–%.0f m", lower, Report.depthBinEdges[k])
                    : String(format: "  depth > %.0f m", Report.depthBinEdges[Report.depthBinEdges.count - 1])
                if k < Report.depthBinEdges.count { lower = Report.depthBinEdges[k] }
                s += "\n" + line(name, bin)
            }
            if !rightErrors.isEmpty {
                s += "\n" + line("right", rightErrors)
                s += String(format: ", mean signed (%.3f, %.3f) px", meanSignedRight.x, meanSignedRight.y)
            }
            return s
        }
    }

    /// Errors of this evaluation.
    public enum EvaluationError: Error, CustomStringConvertible {
        /// The dataset has no `state_groundtruth_estimate0`.
        case noGroundTruth(String)

        public var description: String {
            switch self {
            case .noGroundTruth(let path):
                return "\(path) has no ground truth (mav0/state_groundtruth_estimate0/data.csv): the front-end evaluation needs true poses"
            }
        }
    }

    /// The dataset.
    public let dataset: EuRoCDataset
    /// Front-end settings and mono/stereo mode.
    public let configuration: TrackerConfiguration
    /// Longest piece of a track triangulated at once (the estimator's window).
    public var windowFrames = 11

    /// Creates an evaluation.
    public init(dataset: EuRoCDataset, configuration: TrackerConfiguration) {
        self.dataset = dataset
        self.configuration = configuration
    }

    /// Runs the tracker over `[from, to]` seconds from the start and gathers the residuals.
    public func run(from: Double? = nil, to: Double? = nil) throws -> Report {
        let states = try dataset.groundTruth()
        guard states.count >= 2, let truth = GroundTruthPoses(states: states) else {
            throw EvaluationError.noGroundTruth(dataset.mav0.deletingLastPathComponent().path)
        }
        let cam0 = try dataset.cameras[0].makeCameraModel()
        let stereo = configuration.mode == .stereo && dataset.isStereo
        let T_b_c0 = dataset.cameras[0].T_body_camera
        var rig = TrackTriangulation(R_body_cam0: T_b_c0.rotationMatrix, p_body_cam0: T_b_c0.translation)
        var baseline = 0.0
        var tracker: FeatureTracker
        if stereo {
            let cam1 = try dataset.cameras[1].makeCameraModel()
            let T_c1_c0 = dataset.cameras[1].T_body_camera.inverse * T_b_c0
            rig = TrackTriangulation(R_body_cam0: T_b_c0.rotationMatrix, p_body_cam0: T_b_c0.translation,
                                     R_c1_c0: T_c1_c0.rotationMatrix, t_c1_c0: T_c1_c0.translation)
            baseline = T_c1_c0.translation.norm
            tracker = FeatureTracker(camera: cam0, rightCamera: cam1, T_right_left: T_c1_c0, configuration: configuration.frontEnd)
        } else {
            tracker = FeatureTracker(camera: cam0, configuration: configuration.frontEnd)
        }
        let focal = 0.5 * (cam0.fx + cam0.fy)

        var report = Report()
        var signedSum = Vector2.zero
        var signedRightSum = Vector2.zero
        var poses: [Int: (Matrix3, Vector3)] = [:]
        var tracks: [Int: [Observation]] = [:]
        var frameNumber = 0
        var previousRotation: Matrix3?

        func flush(_ obs: [Observation]) {
            let p = obs.compactMap { poses[$0.frame] }
            guard p.count == obs.count, obs.count >= 2 else { return }
            report.windows += 1
            // Triangulate from the left track alone so that the right residuals measure the stereo
            // matches on their own (a wrong match would otherwise pull the point and spread its error
            // over every observation of the window).
            guard let x = rig.triangulateCam0(obs.map(\.left), bodyPoses: p, iterations: 10, minParallax: 0.005,
                                              maxErrorNormalized: .infinity) else {
                report.untriangulated += 1
                return
            }
            // The right residual needs a left-only point at least as deep-accurate as the stereo
            // pair itself: only windows whose cam0 centres span twice the stereo baseline count.
            let centres = p.map { rig.cameraPose(0, bodyRotation: $0.0, bodyPosition: $0.1).1 }
            let span = centres.dropFirst().reduce(0.0) { max($0, ($1 - centres[0]).norm) }
            let (rFirst, cFirst) = rig.cameraPose(0, bodyRotation: p[0].0, bodyPosition: p[0].1)
            let depth = (rFirst.transpose * (x - cFirst)).z
            let bin = Report.depthBinEdges.firstIndex { depth < $0 } ?? Report.depthBinEdges.count
            for (k, o) in obs.enumerated() {
                let (r0, c0) = rig.cameraPose(0, bodyRotation: p[k].0, bodyPosition: p[k].1)
                let q0 = r0.transpose * (x - c0)
                let e0 = (Vector2(q0.x / q0.z, q0.y / q0.z) - o.left) * focal
                report.leftErrors.append(e0.norm)
                report.leftErrorsByDepth[bin].append(e0.norm)
                signedSum += e0
                if let rn = o.right, span >= 2 * baseline {
                    let (r1, c1) = rig.cameraPose(1, bodyRotation: p[k].0, bodyPosition: p[k].1)
                    let q1 = r1.transpose * (x - c1)
                    let e1 = (Vector2(q1.x / q1.z, q1.y / q1.z) - rn) * focal
                    report.rightErrors.append(e1.norm)
                    signedRightSum += e1
                }
            }
        }

        let iterator = try dataset.replay(from: from, to: to, includeGroundTruth: false).makeIterator()
        while let event = try iterator.next() {
            guard case .frame(let f) = event else { continue }
            // True body pose at the frame time (linear / spherical interpolation of the truth).
            guard let T_world_body = truth.T_world_body(at: f.timestampNs) else { continue }
            let rotation = T_world_body.rotationMatrix, position = T_world_body.translation

            guard let left = try f.loadGray8(0),
                  let plane = FloatPlane(width: left.width, height: left.height, gray8: left.pixels) else { continue }
            let right = stereo ? try f.loadGray8(1) : nil
            let rightPlane = right.flatMap { FloatPlane(width: $0.width, height: $0.height, gray8: $0.pixels) }
            // The true camera rotation since the previous frame seeds KLT, as the gyro would.
            let R_wc = rotation * T_b_c0.rotationMatrix
            let predicted = previousRotation.map { R_wc.transpose * $0 }
            previousRotation = R_wc
            let frame = tracker.process(image: plane, timestamp: f.timestamp, rightImage: rightPlane, predictedRotation: predicted)

            poses[frameNumber] = (rotation, position)
            let current = Set(frame.features.map(\.id))
            for id in tracks.keys.sorted() where !current.contains(id) {
                if let obs = tracks.removeValue(forKey: id) { flush(obs) }
            }
            for feature in frame.features {
                tracks[feature.id, default: []].append(Observation(frame: frameNumber, left: feature.normalized,
                                                                   right: stereo ? feature.rightNormalized : nil))
                if let obs = tracks[feature.id], obs.count >= windowFrames {
                    flush(obs)
                    tracks[feature.id] = []
                }
            }
            poses[frameNumber - windowFrames - 1] = nil
            frameNumber += 1
        }
        for id in tracks.keys.sorted() { if let obs = tracks[id] { flush(obs) } }
        if !report.leftErrors.isEmpty { report.meanSigned = signedSum / Double(report.leftErrors.count) }
        if !report.rightErrors.isEmpty { report.meanSignedRight = signedRightSum / Double(report.rightErrors.count) }
        return report
    }

    /// One observation of a track: cam0 and, when matched, cam1 normalised coordinates.
    private struct Observation {
        var frame: Int
        var left: Vector2
        var right: Vector2?
    }
}
