import ArgumentParser
import Foundation
import ParallaxAR
import ParallaxDatasets
import ParallaxEvaluation
import ParallaxSceneGraph
import ParallaxTracking

/// `parallax evaluate planes DATASET`: replays a simulated dataset with plane detection and
/// scores the planes against its `truth/planes.json`.
struct EvaluatePlanesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "planes",
        abstract: "Score AR plane detection against a simulated dataset's truth/planes.json.",
        discussion: """
            Runs an AR session (horizontal + vertical plane detection) over DATASET and compares \
            every plane anchor at the end with the truth planes (z-up world): normal error (deg), \
            offset error (cm; signed in the table, + = on the side the truth normal points to), IoU of the polygons on the truth plane (against the whole truth polygon, and against the part the camera saw, occlusion included), and the time from the start \
            of tracking to the first detection. --pose-source tracking (the default) runs the VIO \
            tracker; --pose-source groundtruth uses the dataset's poses (with points triangulated \
            from the images), which scores plane detection apart from tracking error.
            """)

    @OptionGroup var input: DatasetArgument
    @OptionGroup var poses: PoseSourceOption
    @OptionGroup var cameras: CameraOptions
    @OptionGroup var calibration: OnlineCalibrationOptions

    @Option(name: [.customLong("to"), .customLong("until")], parsing: .unconditional,
            help: "Stop this many seconds after the dataset start (positive).")
    var to: Double?

    @Option(help: ArgumentHelp(
        "The scene the dataset was simulated with: hit distances are measured to its every face.",
        discussion: "Simulations write every face to truth/surfaces.json, which is used when present; "
            + "this is for datasets simulated before that file was written (placed with truth/planes.json's T_scene_world). "
            + "Without either, hits are measured to the truth planes, which leave out faces under 0.1 m² (books, table legs).",
        valueName: "scene.json"))
    var scene: String?

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    func validate() throws {
        if let to { try NumberChecks.positive(to, "--to", atMost: NumberChecks.maxSeconds, unit: "s") }
    }

    func run() throws {
        let source = poses.poseSource
        let mode = try cameras.mode(for: try input.open(policy: .lenient), named: input.dataset)
        var tracker: TrackerConfiguration?
        if calibration.parts != nil {
            var configuration = TrackerConfiguration(mode: mode)
            try calibration.apply(to: &configuration)
            tracker = configuration
        }
        let surfaces = try scene.map { try PlaneTruthFile.surfaces(of: Scene.load(contentsOf: URL(fileURLWithPath: $0)), datasetRoot: input.url) }
        let report = try PlaneEvaluationRun.run(datasetRoot: input.url, source: source, stopTime: to, trackerMode: mode,
                                                trackerConfiguration: tracker, surfaces: surfaces)
        print(json ? Self.json(report, source: source) : Self.text(report, source: source))
    }

    static func f(_ x: Double?, _ digits: Int = 3) -> String {
        x.map { String(format: "%.\(digits)f", $0) } ?? "-"
    }

    static func text(_ r: PlaneEvaluationReport, source: PoseSourceKind) -> String {
        var s = "source: \(source.rawValue), frames: \(r.frames), planes: \(r.planes.count)\n"
        if let floor = r.floor {
            s += "floor: normal \(f(floor.normalErrorDeg)) deg, offset \(f(floor.offsetErrorCm)) cm, IoU \(f(floor.iou)) (seen part \(f(floor.iouSeen))), "
            s += "detected after \(f(r.floorTimeToDetect, 2)) s of tracking\n"
        } else {
            s += "floor: not detected\n"
        }
        s += "alignment   class    truth                normal°  offset cm  IoU    IoU seen  area m²  t detect s\n"
        for p in r.planes {
            s += p.alignment.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0)
            s += p.classification.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)
            s += (p.truthID ?? "-").padding(toLength: 21, withPad: " ", startingAt: 0)
            s += f(p.normalErrorDeg).padding(toLength: 9, withPad: " ", startingAt: 0)
            s += f(p.signedOffsetCm).padding(toLength: 11, withPad: " ", startingAt: 0)
            s += f(p.iou).padding(toLength: 7, withPad: " ", startingAt: 0)
            s += f(p.iouSeen).padding(toLength: 10, withPad: " ", startingAt: 0)
            s += f(p.area).padding(toLength: 9, withPad: " ", startingAt: 0)
            s += f(p.timeToDetect, 2) + "\n"
        }
        if let q = r.quality { s += qualityText(q) + offSurfaceText(q, r) }
        return s.trimmingCharacters(in: .newlines)
    }

    /// The map-level lines: anchors per seen plane, missed planes, hit tests against the truth.
    static func qualityText(_ q: PlaneMapQuality) -> String {
        var s = "map: \(q.anchors) anchors for \(q.visibleTruth.count) truth planes in view "
        s += "(\(f(q.anchorsPerVisiblePlane, 2)) per plane; visibility ignores occlusion)\n"
        s += "missed floors/tables/walls in view (over 1 m² seen unoccluded): \(q.missed.isEmpty ? "none" : q.missed.joined(separator: ", "))\n"
        if !q.glimpsed.isEmpty {
            s += "only glimpsed (under 1 m² seen unoccluded, not required): "
                + q.glimpsed.map { "\($0) \(f(q.seenArea[$0] ?? 0, 2)) m²" }.joined(separator: ", ") + "\n"
        }
        func figures(_ d: [Double]) -> (within: String, p95: String) {
            let h = hitFigures(d)
            return (h.within.map { f(100 * $0, 1) } ?? "-", f(h.p95Cm, 2))
        }
        for (name, d) in [("existingPlaneUsingExtent", q.extentHitDistances), ("existingPlaneUsingGeometry", q.geometryHitDistances),
                          ("featurePoint", q.featurePointHitDistances)] {
            let (within, p95) = figures(d)
            s += "\(name) hits: \(d.count), within 2 cm of a true surface \(within) %, 95th percentile \(p95) cm\n"
        }
        if q.measuredToEveryFace {
            s += "hit distances measured to every face of the scene; to the truth planes alone (faces of 0.1 m² or more), "
                + "existingPlaneUsingExtent hits within 2 cm \(figures(q.extentHitDistancesToPlanes).within) %\n"
        } else {
            s += "hit distances measured to the truth planes (faces of 0.1 m² or more; no truth/surfaces.json, no --scene)\n"
        }
        // Each hit placed from its frame's true camera: what the user sees, without the world's drift.
        for (name, d) in [("existingPlaneUsingExtent", q.extentHitDistancesFromCamera),
                          ("existingPlaneUsingGeometry", q.geometryHitDistancesFromCamera)] where !d.isEmpty {
            let (within, p95) = figures(d)
            s += "\(name) hits placed from the true camera (camera-relative): within 2 cm \(within) %, 95th percentile \(p95) cm\n"
        }
        return s
    }

    /// The share of hit distances `d` (m) within 2 cm and their 95th percentile (cm); nil without hits.
    static func hitFigures(_ d: [Double]) -> (within: Double?, p95Cm: Double?) {
        (PlaneMapQuality.fraction(d, within: 0.02), d.isEmpty ? nil : 100 * SampleStatistics.quantile(d, 0.95))
    }

    /// The anchors the off-surface extent hits land on (at most five), by their row in the table.
    static func offSurfaceText(_ q: PlaneMapQuality, _ r: PlaneEvaluationReport) -> String {
        let worst = q.offSurfaceAnchors().prefix(5)
        guard !worst.isEmpty else { return "" }
        let rows = worst.map { w -> String in
            let row = r.planes.firstIndex { $0.identifier == w.anchor }
            let p = row.map { r.planes[$0] }
            return "#\(row.map { String($0 + 1) } ?? "?") \(p?.classification.rawValue ?? "?") \(p?.truthID ?? "-"): \(w.hits)"
                + String(format: " (median %.1f cm)", 100 * w.medianDistance)
        }
        let times = q.offSurfaceByTime().map { "\(Int($0.start))–\(Int($0.start + 5)) s \($0.off)/\($0.hits)" }
        return "extent hits beyond 2 cm by anchor (table row, median distance of those hits): " + rows.joined(separator: ", ") + "\n"
            + "extent hits beyond 2 cm by session time (off/all): " + times.joined(separator: ", ") + "\n"
    }

    static func json(_ r: PlaneEvaluationReport, source: PoseSourceKind) -> String {
        func n(_ x: Double?) -> String { x.map { String(format: "%.6f", $0) } ?? "null" }
        func score(_ p: PlaneScore) -> String {
            "{\"identifier\": \"\(p.identifier.uuidString)\", \"alignment\": \"\(p.alignment.rawValue)\", "
                + "\"classification\": \"\(p.classification.rawValue)\", "
                + "\"truth\": \(p.truthID.map { "\"\($0)\"" } ?? "null"), \"normalErrorDeg\": \(n(p.normalErrorDeg)), "
                + "\"offsetErrorCm\": \(n(p.offsetErrorCm)), \"signedOffsetCm\": \(n(p.signedOffsetCm)), \"iou\": \(n(p.iou)), \"iouSeen\": \(n(p.iouSeen)), \"area\": \(n(p.area)), "
                + "\"timeToDetect\": \(n(p.timeToDetect))}"
        }
        var s = "{\"source\": \"\(source.rawValue)\", \"frames\": \(r.frames), "
        s += "\"floor\": \(r.floor.map(score) ?? "null"), \"floorTimeToDetect\": \(n(r.floorTimeToDetect)), "
        s += "\"planes\": [" + r.planes.map(score).joined(separator: ", ") + "]"
        s += ", \"map\": " + (r.quality.map(qualityJSON) ?? "null") + "}"
        return s
    }

    /// The map-level figures of ``qualityText(_:)`` as a JSON object: anchors, truth planes in
    /// view, missed and glimpsed planes, and each hit type's count, share within 2 cm and 95th
    /// percentile (cm), aligned and placed from the true camera.
    static func qualityJSON(_ q: PlaneMapQuality) -> String {
        func n(_ x: Double?) -> String { x.map { String(format: "%.6f", $0) } ?? "null" }
        func names(_ a: [String]) -> String { "[" + a.map(JSONText.quoted).joined(separator: ", ") + "]" }
        func hits(_ d: [Double]) -> String {
            let h = hitFigures(d)
            return "{\"count\": \(d.count), \"within2cm\": \(n(h.within)), \"p95Cm\": \(n(h.p95Cm))}"
        }
        var s = "{\"anchors\": \(q.anchors), \"truthPlanesInView\": \(q.visibleTruth.count), "
        s += "\"missed\": \(names(q.missed)), \"glimpsed\": \(names(q.glimpsed)), "
        s += "\"measuredToEveryFace\": \(q.measuredToEveryFace), "
        s += "\"existingPlaneUsingExtent\": \(hits(q.extentHitDistances)), "
        s += "\"existingPlaneUsingGeometry\": \(hits(q.geometryHitDistances)), "
        s += "\"featurePoint\": \(hits(q.featurePointHitDistances)), "
        s += "\"existingPlaneUsingExtentToPlanesOnly\": \(hits(q.extentHitDistancesToPlanes)), "
        s += "\"fromTrueCamera\": {\"existingPlaneUsingExtent\": \(hits(q.extentHitDistancesFromCamera)), "
        s += "\"existingPlaneUsingGeometry\": \(hits(q.geometryHitDistancesFromCamera))}}"
        return s
    }
}
