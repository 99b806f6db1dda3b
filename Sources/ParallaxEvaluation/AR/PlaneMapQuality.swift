import Foundation
import ParallaxAR
import ParallaxMath

/// The plane map as a whole against the truth: which true planes the camera saw, whether each
/// seen floor, table and wall got an anchor, how many anchors there are per seen plane, and how
/// far plane hit tests land from any real surface.
public struct PlaneMapQuality: Sendable, Equatable {
    /// Truth planes the camera saw (ids): some of their sample points projected into the image,
    /// in front of the camera, within ``PlaneMapQualityRecorder/maximumRange``, from the side their normal faces.
    /// Occlusion is not modelled, so this over-counts what was really visible.
    public var visibleTruth: [String]
    /// Seen truth floors, tables and walls of which more than ``PlaneMapQualityRecorder/requiredArea``
    /// was in view unoccluded (``seenArea``) that no anchor matches, directly or through a matched
    /// coplanar truth plane (a poster on a matched wall, a rug on a matched floor).
    public var missed: [String]
    /// Floors, tables and walls in view by the sample-point test but with less than
    /// ``PlaneMapQualityRecorder/requiredArea`` seen unoccluded (a wall behind a bookcase, a strip
    /// at the image's edge): not required, and not counted as missed.
    public var glimpsed: [String] = []
    /// Area (m²) of each floor, table and wall seen unoccluded within range.
    public var seenArea: [String: Double] = [:]
    /// Plane anchors at the end.
    public var anchors: Int
    /// Distances (m) of `existingPlaneUsingExtent` hits from the nearest true surface: the
    /// nearest face of the scene when the recorder was given every face
    /// (``PlaneMapQualityRecorder/surfaces``, see ``measuredToEveryFace``), else the nearest truth plane.
    public var extentHitDistances: [Double]
    /// Whether the hit distances were measured to every face of the scene (books, table legs and
    /// the other faces too small for `planes.json` included) rather than to the truth planes alone.
    public var measuredToEveryFace = false
    /// Distances (m) of the `existingPlaneUsingExtent` hits from the nearest truth plane alone
    /// (`planes.json`), whichever ``measuredToEveryFace`` says: the figure before surfaces were
    /// written, for comparison.
    public var extentHitDistancesToPlanes: [Double] = []
    /// The same for `existingPlaneUsingGeometry` hits.
    public var geometryHitDistances: [Double]
    /// The same for `featurePoint` hits (the tracked points themselves, not the planes).
    public var featurePointHitDistances: [Double] = []
    /// The anchor each `existingPlaneUsingExtent` hit landed on (parallel to ``extentHitDistances``).
    public var extentHitAnchors: [UUID] = []
    /// When each `existingPlaneUsingExtent` hit was made, seconds after the first frame (parallel
    /// to ``extentHitDistances``).
    public var extentHitTimes: [Double] = []
    /// Distances (m) of the same `existingPlaneUsingExtent` hits from the nearest true surface when
    /// each is placed from the true camera of its frame rather than through the whole-run alignment:
    /// the hit is taken into the estimated camera's frame and out again through the true one.
    ///
    /// Why both: ``extentHitDistances`` maps the session's world into the truth's by one position
    /// and yaw alignment of the whole camera trajectory, so a hit that sits exactly where the camera
    /// sees the surface still counts as off while the tracker's world is displaced from where that
    /// alignment puts it (a mono start before the scale has settled, slow drift later). What a user
    /// sees is the hit relative to the camera: content placed there lands on the surface in the
    /// image. This figure measures that; the aligned one also charges the world's drift. The true
    /// camera is the true body pose at the image's true time times the camera that rendered the
    /// images: the simulation's true `T_BS` and time shift from `truth/meta.json`, else the written
    /// calibration.
    public var extentHitDistancesFromCamera: [Double] = []
    /// The same for `existingPlaneUsingGeometry` hits.
    public var geometryHitDistancesFromCamera: [Double] = []

    /// Anchors with `existingPlaneUsingExtent` hits more than `limit` (m) from any true surface,
    /// with those hits' count and median distance (m), most first: where the misses come from.
    /// The distance tells the kind of miss: a few centimetres is a plane a little off or tilted
    /// (or an object lying on it), tens of centimetres an outline that reaches past its surface.
    public func offSurfaceAnchors(beyond limit: Double = 0.02) -> [(anchor: UUID, hits: Int, medianDistance: Double)] {
        var misses: [UUID: [Double]] = [:]
        for (d, a) in zip(extentHitDistances, extentHitAnchors) where d > limit { misses[a, default: []].append(d) }
        return misses.map { ($0.key, $0.value.count, ErrorStatistics($0.value).median) }.sorted { $0.hits != $1.hits ? $0.hits > $1.hits : $0.anchor.uuidString < $1.anchor.uuidString }
    }

    /// `existingPlaneUsingExtent` hits per `bucket` seconds of session time: how many were made
    /// and how many landed more than `limit` (m) from any true surface, earliest bucket first.
    /// Misses in the first seconds come from points triangulated before the tracker had measured
    /// the motion (a hand-held start); later ones from the plane map itself.
    public func offSurfaceByTime(bucket: Double = 5, beyond limit: Double = 0.02) -> [(start: Double, hits: Int, off: Int)] {
        var rows: [Int: (hits: Int, off: Int)] = [:]
        for (d, t) in zip(extentHitDistances, extentHitTimes) {
            let k = Int((t / bucket).rounded(.down))
            var r = rows[k, default: (0, 0)]
            r.hits += 1
            if d > limit { r.off += 1 }
            rows[k] = r
        }
        return rows.keys.sorted().map { (Double($0) * bucket, rows[$0]!.hits, rows[$0]!.off) }
    }

    /// Anchors per seen truth plane.
    public var anchorsPerVisiblePlane: Double { Double(anchors) / Double(max(visibleTruth.count, 1)) }

    /// Fraction of `distances` within `limit` (m); nil when empty.
    public static func fraction(_ distances: [Double], within limit: Double) -> Double? {
        distances.isEmpty ? nil : Double(distances.filter { $0 <= limit }.count) / Double(distances.count)
    }
}

/// Gathers ``PlaneMapQuality`` over a run: visibility from the true camera poses, hit tests on a
/// grid of image points every ``hitFrameStride`` frames (kept in the estimator world until the
/// end, when the map into the truth world is known).
public struct PlaneMapQualityRecorder {
    /// Truth planes.
    public let truth: [TruthPlane]
    /// Every face of the scene (`truth/surfaces.json`), which hit distances are measured to; nil:
    /// the truth planes. A hit on a small face (a book's spine, a table leg) lands on a real
    /// surface, but the truth planes leave out faces under 0.1 m².
    public let surfaces: [TruthPlane]?
    /// Farthest distance (m) at which a plane counts as seen.
    public var maximumRange = 6.0
    /// Frames between visibility checks and between hit-test grids.
    public var visibilityStride = 5, hitFrameStride = 20
    /// Grid of hit-test points per side.
    public var gridSize = 8
    /// Area (m²) above which a seen floor, table or wall must be detected (the room's table top has
    /// 1.44 m²; shelves, cabinet tops and box sides are smaller and not required).
    public var requiredArea = 1.0
    private var seen = Set<String>()
    private var coverage: PlaneCoverage
    private var frames = 0
    private var extentHits: [Vector3] = [], geometryHits: [Vector3] = [], featureHits: [Vector3] = []
    private var extentAnchors: [UUID] = []
    private var extentTimes: [Double] = []
    /// Hits placed in the truth world through the true camera of their frame (see
    /// ``PlaneMapQuality/extentHitDistancesFromCamera``).
    private var extentHitsFromCamera: [Vector3] = [], geometryHitsFromCamera: [Vector3] = []
    private var firstTimestamp: Double?

    /// Creates a recorder.
    public init(truth: [TruthPlane], surfaces: [TruthPlane]? = nil) {
        self.truth = truth
        self.surfaces = surfaces
        coverage = PlaneCoverage(truth: truth)
    }

    /// The part of each truth floor, table and wall the camera saw, occlusion included (id →
    /// convex polygon in the plane's `ConvexPolygon.basis`; see ``PlaneEvaluator/report(T_truth_world:seenRegions:)``).
    public func seenRegions() -> [String: [Vector2]] { coverage.seenRegions() }

    /// Records one frame: `T_W_C` is the true OpenCV camera pose (truth world), `T_A_W` the session's.
    /// `renderingCamera`: the camera that rendered the image, when the dataset's written extrinsics
    /// differ from it (hits placed from the true camera use it; nil: `T_W_C`).
    public mutating func observe(_ frame: Frame, trueCamera T_W_C: RigidTransform?, T_A_W: RigidTransform?,
                                 renderingCamera: RigidTransform? = nil) {
        defer { frames += 1 }
        if firstTimestamp == nil { firstTimestamp = frame.timestamp }
        if frames % visibilityStride == 0, let T_W_C {
            markVisible(frame.camera, T_W_C: T_W_C)
            coverage.observe(frame.camera, T_W_C: T_W_C, maximumRange: maximumRange)
        }
        guard frames % hitFrameStride == 0, frame.camera.trackingState == .normal, let T_A_W else { return }
        let T_W_A = T_A_W.inverse
        // Session world → estimated camera → truth world through the true camera.
        let T_truth_session = (renderingCamera ?? T_W_C).map { $0 * frame.camera.poseOpenCV.inverse }
        for j in 0..<gridSize {
            for i in 0..<gridSize {
                let p = Vector2((Double(i) + 0.5) / Double(gridSize), (Double(j) + 0.5) / Double(gridSize))
                if let h = frame.hitTest(p, types: .existingPlaneUsingExtent).first, let anchor = h.anchor {
                    extentHits.append(T_W_A * h.position)
                    extentAnchors.append(anchor.identifier)
                    extentTimes.append(frame.timestamp - (firstTimestamp ?? frame.timestamp))
                    if let T_truth_session { extentHitsFromCamera.append(T_truth_session * h.position) }
                }
                if let h = frame.hitTest(p, types: .existingPlaneUsingGeometry).first {
                    geometryHits.append(T_W_A * h.position)
                    if let T_truth_session { geometryHitsFromCamera.append(T_truth_session * h.position) }
                }
                if let h = frame.hitTest(p, types: .featurePoint).first { featureHits.append(T_W_A * h.position) }
            }
        }
    }

    private mutating func markVisible(_ camera: Camera, T_W_C: RigidTransform) {
        let T_C_W = T_W_C.inverse
        for t in truth where !seen.contains(t.id) {
            guard t.normal.dot(T_W_C.translation - t.centre) > 0 else { continue }
            let samples = [t.centre] + t.polygon.map { t.centre + ($0 - t.centre) * 0.8 } + t.polygon.map { t.centre + ($0 - t.centre) * 0.4 }
            let inside = samples.filter { camera.sees(T_C_W * $0, within: maximumRange) }.count
            if inside >= 2 { seen.insert(t.id) }
        }
    }

    /// The figures, with `T_truth_world` mapping the session's estimator world into the truth's
    /// and `report` the plane scores (for matching anchors to truth planes).
    public func quality(report: PlaneEvaluationReport, T_truth_world: RigidTransform) -> PlaneMapQuality {
        let visible = truth.filter { seen.contains($0.id) }
        let matchedIDs = Set(report.planes.compactMap(\.truthID))
        let matched = truth.filter { matchedIDs.contains($0.id) }
        let seenArea = coverage.seenRegions().mapValues { ConvexPolygon.signedArea($0) }
        let required = visible.filter { PlaneCoverage.kinds.contains($0.kind) && $0.area > requiredArea }
        let glimpsed = required.filter { (seenArea[$0.id] ?? 0) <= requiredArea }.map(\.id)
        let missed = required.filter { t in
            guard (seenArea[t.id] ?? 0) > requiredArea else { return false }
            return !matched.contains { m in m.normal.dot(t.normal) > 0.99 && abs(m.offset - t.offset) < 0.03 }
        }.map(\.id)
        var quality = PlaneMapQuality(visibleTruth: visible.map(\.id), missed: missed, anchors: report.planes.count,
                                      extentHitDistances: extentHits.map { distanceToTruth(T_truth_world * $0) },
                                      geometryHitDistances: geometryHits.map { distanceToTruth(T_truth_world * $0) },
                                      extentHitAnchors: extentAnchors)
        quality.extentHitTimes = extentTimes
        quality.measuredToEveryFace = surfaces != nil
        quality.extentHitDistancesToPlanes = surfaces == nil
            ? quality.extentHitDistances : extentHits.map { Self.distance(T_truth_world * $0, toNearestOf: truth) }
        quality.extentHitDistancesFromCamera = extentHitsFromCamera.map(distanceToTruth)
        quality.geometryHitDistancesFromCamera = geometryHitsFromCamera.map(distanceToTruth)
        quality.featurePointHitDistances = featureHits.map { distanceToTruth(T_truth_world * $0) }
        quality.glimpsed = glimpsed
        quality.seenArea = seenArea
        return quality
    }

    /// Distance (m) from `p` to the nearest face of the scene, or truth polygon without
    /// ``surfaces`` (convex hull on its plane).
    func distanceToTruth(_ p: Vector3) -> Double { Self.distance(p, toNearestOf: surfaces ?? truth) }

    /// Distance (m) from `p` to the nearest of `truth`'s polygons (each the convex hull on its plane).
    public static func distance(_ p: Vector3, toNearestOf truth: [TruthPlane]) -> Double {
        truth.map { t in
            let (e1, e2) = ConvexPolygon.basis(ofPlaneWithNormal: t.normal)
            let hull = ConvexPolygon.hull(t.polygon.map { Vector2($0.dot(e1), $0.dot(e2)) })
            let inPlane = ConvexPolygon.distance(Vector2(p.dot(e1), p.dot(e2)), toConvex: hull)
            let along = p.dot(t.normal) - t.offset
            return (inPlane * inPlane + along * along).squareRoot()
        }.min() ?? .infinity
    }
}

extension Camera {
    /// True when a point in this camera's OpenCV frame lies more than 10 cm in front of it, within
    /// `range` (m), and projects inside the image (the truth-side visibility tests of the evaluation).
    func sees(_ c: Vector3, within range: Double) -> Bool {
        guard c.z > 0.1, c.norm < range else { return false }
        let u = fx * c.x / c.z + cx, v = fy * c.y / c.z + cy
        return u >= 0 && u < Double(imageResolution.width) && v >= 0 && v < Double(imageResolution.height)
    }
}
