import Foundation
import ParallaxMath
import Testing

@testable import ParallaxAR

@Suite struct GeometryTests {
    @Test func hullDropsInteriorAndCollinearPoints() {
        let pts = [Vector2(0, 0), Vector2(1, 0), Vector2(2, 0), Vector2(2, 1), Vector2(0, 1), Vector2(1, 0.5)]
        let h = ConvexPolygon.hull(pts)
        #expect(h.count == 4)
        #expect(abs(ConvexPolygon.signedArea(h) - 2) < 1e-12)
    }

    @Test func iouOfShiftedSquares() {
        let a = [Vector2(0, 0), Vector2(1, 0), Vector2(1, 1), Vector2(0, 1)]
        let b = a.map { $0 + Vector2(0.5, 0) }
        #expect(abs(ConvexPolygon.iou(a, b) - 0.5 / 1.5) < 1e-12)
        #expect(abs(ConvexPolygon.iou(a, a) - 1) < 1e-12)
        #expect(ConvexPolygon.iou(a, a.map { $0 + Vector2(3, 0) }) == 0)
    }

    @Test func minimumRectangleOfRotatedRectangle() {
        let angle = 0.3
        let u = Vector2(cos(angle), sin(angle)), v = Vector2(-sin(angle), cos(angle))
        let rect = [u * 0 + v * 0, u * 2, u * 2 + v * 0.5, v * 0.5].map { $0 + Vector2(1, 1) }
        let r = ConvexPolygon.minimumAreaRectangle(ConvexPolygon.hull(rect))
        #expect(abs(r.size.x * r.size.y - 1) < 1e-9)
        #expect(abs(max(r.size.x, r.size.y) - 2) < 1e-9)
        #expect((r.centre - (Vector2(1, 1) + u + v * 0.25)).norm < 1e-9)
    }

    @Test func clustersSplitDistantGroups() {
        let pts = [Vector2(0, 0), Vector2(0.1, 0), Vector2(0.2, 0.1), Vector2(5, 5), Vector2(5.1, 5)]
        let c = PointClusters.components(pts, radius: 0.3)
        #expect(c == [[0, 1, 2], [3, 4]])
    }
}
