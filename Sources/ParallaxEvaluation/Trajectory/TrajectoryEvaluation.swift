import Foundation
import ParallaxDatasets
import ParallaxMath

/// Settings of one evaluation run.
public struct EvaluationOptions: Sendable, Codable, Equatable {
    /// How the estimate is aligned before measuring.
    public var alignment: AlignmentMethod = .posyaw
    /// Largest time difference accepted when pairing poses, seconds.
    public var maxDifference: Double = 0.01
    /// Seconds added to the estimate's times before pairing.
    public var timeOffset: Double = 0
    /// RPE step.
    public var rpeDelta: Double = 1
    /// Unit of the RPE step.
    public var rpeUnit: RPEDeltaUnit = .meters
    /// Use every pose as the start of an RPE pair instead of consecutive pairs.
    public var rpeAllPairs: Bool = false
    /// Fewest associated poses accepted.
    public var minimumPairs: Int = 3

    /// Default options: posyaw alignment, 10 ms association, RPE over 1 m.
    public init() {}
}

/// The figures of one evaluation, ready for a table or JSON.
public struct EvaluationReport: Sendable, Codable {
    /// RPE figures.
    public struct RPE: Sendable, Codable {
        /// The step.
        public var delta: Double
        /// Its unit (`m`, `s` or `f`).
        public var unit: RPEDeltaUnit
        /// Number of pose pairs.
        public var pairs: Int
        /// Translation error, metres.
        public var translation: ErrorStatistics
        /// Rotation error, degrees.
        public var rotationDeg: ErrorStatistics
        /// Translation error in % of the reference distance between the pair.
        public var translationPercent: ErrorStatistics
        /// Rotation error per metre of reference distance, deg/m.
        public var rotationDegPerMeter: ErrorStatistics
    }
    /// Alignment figures.
    public struct Alignment: Sendable, Codable {
        /// Method used.
        public var method: AlignmentMethod
        /// Rotation `R_ref_est`, row-major.
        public var rotation: [Double]
        /// Translation, metres.
        public var translation: [Double]
        /// Scale (1 unless sim3).
        public var scale: Double
        /// Yaw of the rotation about z, degrees.
        public var yawDeg: Double
    }
    /// Estimate label.
    public var estimate: String
    /// Reference label.
    public var reference: String
    /// Options used.
    public var options: EvaluationOptions
    /// Poses in the estimate file.
    public var estimatePoses: Int
    /// Poses in the reference file.
    public var referencePoses: Int
    /// Associated pose pairs.
    public var associatedPoses: Int
    /// Reference path length over the associated poses, metres.
    public var referencePathLength: Double
    /// Associated time span, seconds.
    public var duration: Double
    /// The alignment applied.
    public var alignment: Alignment
    /// ATE (translation after alignment), metres.
    public var ate: ErrorStatistics
    /// RPE, or `nil` when the step produced no pairs (see `notes`).
    public var rpe: RPE?
    /// Warnings worth showing (e.g. why RPE is missing).
    public var notes: [String]
}

/// A complete evaluation: association, alignment, ATE and RPE.
public struct TrajectoryEvaluation: Sendable {
    /// The paired poses.
    public var associated: AssociatedTrajectories
    /// ATE and the aligned estimate.
    public var ate: AbsoluteTrajectoryError
    /// RPE, when the step produced pairs.
    public var rpe: RelativePoseError?
    /// Summary figures.
    public var report: EvaluationReport

    /// Evaluates `estimate` against `reference`.
    /// - Throws: `EvaluationError` for no overlap in time, too few associated poses or a
    ///   degenerate alignment.
    public init(estimate: Trajectory, reference: Trajectory, options: EvaluationOptions = EvaluationOptions()) throws {
        associated = try TimestampAssociation.associate(
            reference: reference, estimate: estimate, maxDifference: options.maxDifference, offset: options.timeOffset)
        guard associated.count >= options.minimumPairs else {
            throw EvaluationError(
                "only \(associated.count) of \(estimate.count) poses of \(estimate.name) match \(reference.name) within "
                + "\(options.maxDifference) s; at least \(options.minimumPairs) are needed")
        }
        ate = try AbsoluteTrajectoryError(associated, alignment: options.alignment)
        var notes: [String] = []
        do {
            rpe = try RelativePoseError(
                reference: associated.reference, alignedEstimate: ate.alignedEstimate,
                delta: options.rpeDelta, unit: options.rpeUnit, allPairs: options.rpeAllPairs)
        } catch let error as EvaluationError {
            rpe = nil
            notes.append(error.message)
        }
        let a = ate.alignment
        let times = associated.reference.timestamps
        report = EvaluationReport(
            estimate: estimate.name, reference: reference.name, options: options,
            estimatePoses: estimate.count, referencePoses: reference.count, associatedPoses: associated.count,
            referencePathLength: associated.reference.pathLength,
            duration: (times.last ?? 0) - (times.first ?? 0),
            alignment: .init(
                method: a.method, rotation: a.rotation.rowMajor, translation: [a.translation.x, a.translation.y, a.translation.z],
                scale: a.scale, yawDeg: atan2(a.rotation[1, 0], a.rotation[0, 0]) * 180 / .pi),
            ate: ate.statistics,
            rpe: rpe.map {
                .init(delta: options.rpeDelta, unit: options.rpeUnit, pairs: $0.pairs.count, translation: $0.translation,
                      rotationDeg: $0.rotationDeg, translationPercent: $0.translationPercent,
                      rotationDegPerMeter: $0.rotationDegPerMeter)
            },
            notes: notes)
    }
}

extension EvaluationReport {
    /// Pretty-printed JSON with sorted keys (stable output for scripts and diffs).
    public func jsonText() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self) + "\n"
    }

    /// A readable plain-text table.
    public func table() -> String {
        func f(_ v: Double, _ digits: Int = 4) -> String { String(format: "%.\(digits)f", v) }
        func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s : s + String(repeating: " ", count: n - s.count) }
        func lpad(_ s: String, _ n: Int) -> String { s.count >= n ? s : String(repeating: " ", count: n - s.count) + s }
        var lines: [String] = []
        lines.append("estimate   \(estimate) (\(estimatePoses) poses)")
        lines.append("reference  \(reference) (\(referencePoses) poses)")
        lines.append("associated \(associatedPoses) poses within \(options.maxDifference) s"
            + (options.timeOffset != 0 ? " (offset \(options.timeOffset) s)" : "")
            + ", \(f(duration, 2)) s, \(f(referencePathLength, 2)) m of reference path")
        var align = "alignment  \(alignment.method.rawValue)"
        if alignment.method != .none {
            let t = alignment.translation
            align += ": yaw \(f(alignment.yawDeg, 3))°, t = [\(f(t[0])), \(f(t[1])), \(f(t[2]))] m"
            if alignment.method == .sim3 { align += ", scale \(f(alignment.scale, 6))" }
        }
        lines.append(align)
        lines.append("")
        let header = ["rmse", "mean", "median", "std", "min", "max"]
        lines.append(pad("metric", 26) + header.map { lpad($0, 10) }.joined())
        func row(_ label: String, _ s: ErrorStatistics) {
            lines.append(pad(label, 26) + [s.rmse, s.mean, s.median, s.std, s.min, s.max].map { lpad(f($0), 10) }.joined())
        }
        row("ATE translation (m)", ate)
        if let rpe {
            let d = "\(rpe.delta.formatted()) \(rpe.unit.rawValue)"
            row("RPE \(d) trans (m)", rpe.translation)
            row("RPE \(d) trans (%)", rpe.translationPercent)
            row("RPE \(d) rot (deg)", rpe.rotationDeg)
            row("RPE \(d) rot (deg/m)", rpe.rotationDegPerMeter)
            lines.append("(RPE over \(rpe.pairs) pose pairs; ATE sse \(ate.sse.formatted()))")
        }
        for note in notes { lines.append("note: \(note)") }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension Double {
    /// Shortest round-trip text (`1`, `0.5`), used in labels.
    fileprivate func formatted() -> String {
        self == rounded() && abs(self) < 1e15 ? String(Int64(self)) : "\(self)"
    }
}
