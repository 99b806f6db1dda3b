import Foundation
import ParallaxEvaluation
import ParallaxMath

@testable import ParallaxAR

/// Hit tests over a 10×10 grid of image points, compared with the true ray–plane intersections.
struct HitAccuracy {
    /// Worst distance to the true intersection over floor and table hits (m).
    var worstFloor = 0.0, worstTable = 0.0
    /// Hits checked.
    var floorHits = 0, tableHits = 0
    /// Largest distance of a hit from its anchor plane or from the ray (m): hit-test arithmetic.
    var worstResidual = 0.0

    init(frame: Frame, T_A_W: RigidTransform, truth: [TruthPlane]) {
        for gy in stride(from: 0.05, through: 0.95, by: 0.1) {
            for gx in stride(from: 0.05, through: 0.95, by: 0.1) {
                let point = Vector2(gx, gy)
                let (o, d) = frame.camera.ray(throughNormalized: point)
                guard let hit = frame.hitTest(point, types: .existingPlaneUsingGeometry).first, let anchor = hit.anchor else { continue }
                let v = hit.position - o
                worstResidual = max(worstResidual, abs(anchor.signedDistance(hit.position)), (v - d * v.dot(d)).norm)
                guard anchor.classification == .floor || anchor.classification == .table else { continue }
                // The truth surface of the same kind that the ray really meets, nearest in height.
                let height = (T_A_W.inverse * anchor.origin).z
                let kind = anchor.classification == .floor ? "floor" : "table"
                var best: (gap: Double, point: Vector3)?
                for t in truth where t.kind == kind && t.normal.z > 0.9 {
                    let nA = T_A_W.rotate(t.normal), pA = T_A_W * t.centre
                    let truePoint = o + d * ((pA - o).dot(nA) / d.dot(nA))
                    let w = T_A_W.inverse * truePoint
                    let polygon = ConvexPolygon.hull(t.polygon.map { Vector2($0.x, $0.y) })
                    guard ConvexPolygon.distance(Vector2(w.x, w.y), toConvex: polygon) == 0 else { continue }
                    let gap = abs(t.centre.z - height)
                    if gap < best?.gap ?? .infinity { best = (gap, truePoint) }
                }
                guard let truePoint = best?.point else { continue }
                let error = (hit.position - truePoint).norm
                if kind == "floor" {
                    floorHits += 1
                    worstFloor = max(worstFloor, error)
                } else {
                    tableHits += 1
                    worstTable = max(worstTable, error)
                }
            }
        }
    }

    var summary: String {
        String(format: "floor %d hits, worst %.2f cm; table %d hits, worst %.2f cm; residual %.1e m",
               floorHits, worstFloor * 100, tableHits, worstTable * 100, worstResidual)
    }
}
