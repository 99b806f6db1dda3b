import Foundation
import ParallaxAR
import ParallaxMath

/// Accuracy of one detected plane against its matching truth plane (all in the z-up world `W`).
public struct PlaneScore: Sendable, Equatable {
    /// Anchor identifier.
    public var identifier: UUID
    /// Detected alignment and classification.
    public var alignment: PlaneAlignment
    /// Detected classification.
    public var classification: PlaneClassification
    /// Matched truth plane (nil when none matches).
    public var truthID: String?
    /// Kind of the matched truth plane.
    public var truthKind: String?
    /// Angle between the normals (degrees).
    public var normalErrorDeg: Double?
    /// Distance of the detected boundary's centroid from the truth plane (cm).
    public var offsetErrorCm: Double?
    /// The same, signed: positive when the detected plane lies on the truth normal's side (cm).
    public var signedOffsetCm: Double?
    /// Intersection over union of the detected and true polygons, on the truth plane.
    public var iou: Double?
    /// The same against the part of the true polygon the camera saw (``PlaneMapQualityRecorder/seenRegions()``):
    /// what a detection can reach on a walk that does not see the whole surface.
    public var iouSeen: Double?
    /// Detected area (m²).
    public var area: Double
    /// Seconds from tracking start to the anchor's first appearance.
    public var timeToDetect: Double
}

/// Summary of a plane-detection run.
public struct PlaneEvaluationReport: Sendable, Equatable {
    /// Every plane anchor at the end, in anchor order.
    public var planes: [PlaneScore]
    /// The detected plane matched to the largest truth floor with the largest overlap.
    public var floor: PlaneScore?
    /// Seconds from tracking start to the first detected plane matching any truth floor.
    public var floorTimeToDetect: Double?
    /// Frames observed.
    public var frames: Int
    /// Dataset seconds of the first normal-tracking frame.
    public var trackingStartTime: Double?
    /// The map as a whole: seen planes, missed ones, anchors per plane, hit-test distances
    /// (filled by ``PlaneEvaluationRun``).
    public var quality: PlaneMapQuality? = nil
}

/// Scores plane anchors against `truth/planes.json` (Parallax's simulator truth).
///
/// Matching: a detected plane matches the truth plane of the same orientation (normals within
/// 20°, offsets within 15 cm) whose polygon it overlaps most, on the truth plane; failing any
/// overlap, the nearest one within 30 cm of its centroid.
public struct PlaneEvaluator {
    /// Truth planes.
    public let truth: [TruthPlane]
    private var firstSeen: [UUID: Double] = [:]
    private var frames = 0
    private var trackingStart: Double?
    private var last: (anchors: [PlaneAnchor], T_W_A: RigidTransform)?

    /// Creates an evaluator.
    public init(truth: [TruthPlane]) { self.truth = truth }

    /// Records one frame (call for every frame of the run).
    public mutating func observe(_ frame: Frame, T_A_W: RigidTransform?, trackingStartTime: Double?) {
        frames += 1
        guard let T_A_W, let start = trackingStartTime else { return }
        trackingStart = start
        let planes = frame.planeAnchors
        for p in planes where firstSeen[p.identifier] == nil { firstSeen[p.identifier] = frame.timestamp - start }
        last = (planes, T_A_W.inverse)
    }

    /// The figures for the last observed frame. `T_truth_world` maps the session's estimator
    /// world into the truth's world: the identity for ground-truth poses, a 4-DoF (position + yaw)
    /// trajectory alignment for the tracker, whose world origin and yaw are arbitrary.
    /// The floor's time to detect is the first appearance of the earliest final anchor that
    /// matches a truth floor (merges keep the older anchor, so this is the first detection).
    /// `seenRegions` (truth id → seen part, as ``PlaneMapQualityRecorder/seenRegions()`` gives)
    /// adds ``PlaneScore/iouSeen``.
    public func report(T_truth_world: RigidTransform = .identity, seenRegions: [String: [Vector2]] = [:]) -> PlaneEvaluationReport {
        var scores: [PlaneScore] = []
        var floor: (score: PlaneScore, overlap: Double)?
        var floorSeenAt: Double?
        let largestFloor = truth.indices.filter { truth[$0].kind == "floor" }.max { truth[$0].area < truth[$1].area }
        if let last {
            for p in last.anchors {
                var s = PlaneScore(identifier: p.identifier, alignment: p.alignment, classification: p.classification,
                                   area: p.geometry.area, timeToDetect: firstSeen[p.identifier] ?? 0)
                if let m = match(p, T_W_A: T_truth_world * last.T_W_A) {
                    let t = truth[m.index]
                    s.truthID = t.id
                    s.truthKind = t.kind
                    s.normalErrorDeg = acos(max(-1, min(1, m.normal.dot(t.normal)))) * 180 / .pi
                    s.signedOffsetCm = (m.centroid - t.centre).dot(t.normal) * 100
                    s.offsetErrorCm = abs((m.centroid - t.centre).dot(t.normal)) * 100
                    s.iou = m.iou
                    if let region = seenRegions[t.id] { s.iouSeen = ConvexPolygon.iou(m.polygon, region) }
                    if m.index == largestFloor, m.overlap > floor?.overlap ?? -1 { floor = (s, m.overlap) }
                    if t.kind == "floor" { floorSeenAt = min(floorSeenAt ?? .infinity, s.timeToDetect) }
                }
                scores.append(s)
            }
        }
        return PlaneEvaluationReport(planes: scores, floor: floor?.score, floorTimeToDetect: floorSeenAt,
                                     frames: frames, trackingStartTime: trackingStart)
    }

    private struct Match {
        var index: Int, overlap: Double, iou: Double, normal: Vector3, centroid: Vector3
        /// The detected polygon on the truth plane, in its `ConvexPolygon.basis`.
        var polygon: [Vector2]
    }

    private func match(_ p: PlaneAnchor, T_W_A: RigidTransform) -> Match? {
        let n = T_W_A.rotate(p.normal)
        let boundary = p.worldBoundary.map { T_W_A * $0 }
        guard boundary.count >= 3 else { return nil }
        var best: Match?
        var nearest: (index: Int, distance: Double)?
        for (i, t) in truth.enumerated() {
            guard n.dot(t.normal) > cos(20 * Double.pi / 180) else { continue }
            let (e1, e2) = ConvexPolygon.basis(ofPlaneWithNormal: t.normal)
            func flat(_ q: Vector3) -> Vector2 { Vector2(q.dot(e1), q.dot(e2)) }
            let mine = ConvexPolygon.hull(boundary.map(flat)), theirs = ConvexPolygon.hull(t.polygon.map(flat))
            let c2 = ConvexPolygon.centroid(mine)
            let centroid = boundary.reduce(Vector3.zero, +) / Double(boundary.count)
            let centre3 = t.normal * centroid.dot(t.normal) + e1 * c2.x + e2 * c2.y
            guard abs((centre3 - t.centre).dot(t.normal)) < 0.15 else { continue }
            let overlap = max(0, ConvexPolygon.signedArea(ConvexPolygon.intersection(mine, theirs)))
            let m = Match(index: i, overlap: overlap, iou: ConvexPolygon.iou(mine, theirs), normal: n, centroid: centre3, polygon: mine)
            if overlap > 0, overlap > best?.overlap ?? 0 { best = m }
            let d = ConvexPolygon.distance(c2, toConvex: theirs)
            if d < 0.3, d < nearest?.distance ?? .infinity {
                nearest = (i, d)
                if best == nil || best?.overlap == 0 { best = Match(index: i, overlap: 0, iou: m.iou, normal: n, centroid: centre3, polygon: mine) }
            }
        }
        return best
    }
}
