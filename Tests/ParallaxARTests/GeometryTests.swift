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

    /// The plane-shading sampler's convex interior test (the inside depth) against its general one (even–odd plus
    /// distances to the edge segments): random hulls of either orientation, margins from 0 to a
    /// third of their size, points inside, outside and near the edges; nil for a non-convex polygon.
    @Test func convexInsideTestMatchesTheGeneralPolygonTest() throws {
        var state: UInt64 = 0xC0_4E_E5
        func uniform() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        var checked = 0, inside = 0
        for trial in 0..<40 {
            var hull = ConvexPolygon.hull((0..<12).map { _ in Vector2(uniform() * 4 - 2, uniform() * 3 - 1) })
            if trial % 2 == 1 { hull.reverse() }
            let orientation = try #require(ConvexPolygon.convexOrientation(hull))
            for _ in 0..<400 {
                let p = Vector2(uniform() * 5 - 2.5, uniform() * 4 - 1.5), margin = uniform() * 0.6
                let expected = PlaneShadingAccumulator.inside(p, hull, margin: margin)
                #expect(PlaneShadingAccumulator.inside(p, hull, margin: margin, convexOrientation: orientation) == expected,
                        "\(p) margin \(margin)")
                checked += 1
                if expected { inside += 1 }
            }
        }
        #expect(inside > checked / 10)  // the draw reaches the interior, not only the outside
        let notch = [Vector2(0, 0), Vector2(2, 0), Vector2(1, 0.5), Vector2(2, 1), Vector2(0, 1)]
        #expect(ConvexPolygon.convexOrientation(notch) == nil)
    }

    /// The grid clustering against the definition: a flood fill over all pairs within the radius.
    /// Clumps and scattered points with chains that just pass or just fail to link, points on
    /// cell edges and negative coordinates.
    @Test func clustersMatchAFloodFillOverAllPairs() {
        var state: UInt64 = 0x5EED
        func uniform() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        for (trial, radius) in [0.8, 0.3, 0.05, 1.7].enumerated() {
            var pts: [Vector2] = []
            for _ in 0..<6 {  // clumps
                let c = Vector2(uniform() * 8 - 4, uniform() * 8 - 4)
                for _ in 0..<40 { pts.append(c + Vector2(uniform() - 0.5, uniform() - 0.5) * radius * 3) }
            }
            for _ in 0..<120 { pts.append(Vector2(uniform() * 10 - 5, uniform() * 10 - 5)) }
            // A chain at exactly the radius (linked) and one just beyond it (not linked).
            for k in 0..<5 { pts.append(Vector2(20 + Double(k) * radius, -3)) }
            for k in 0..<3 { pts.append(Vector2(30 + Double(k) * radius * 1.0001, 7)) }
            var label = [Int](repeating: -1, count: pts.count)
            var expected: [[Int]] = []
            for s in pts.indices where label[s] < 0 {
                var component = [s], k = 0
                label[s] = trial
                while k < component.count {
                    let i = component[k]
                    k += 1
                    for j in pts.indices where label[j] < 0 && ((pts[j] - pts[i]) * (pts[j] - pts[i])).sum() <= radius * radius {
                        label[j] = trial
                        component.append(j)
                    }
                }
                expected.append(component.sorted())
            }
            expected.sort { $0.count != $1.count ? $0.count > $1.count : $0[0] < $1[0] }
            #expect(PointClusters.components(pts, radius: radius) == expected, "radius \(radius)")
        }
    }
}
