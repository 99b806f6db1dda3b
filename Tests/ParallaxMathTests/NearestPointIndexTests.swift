import Testing
@testable import ParallaxMath

/// The k-d tree must answer exactly as a linear scan keeping the first minimum does, ties
/// included, since loop closures use it to pick each map point's keyframe correction.
@Suite("Nearest point index")
struct NearestPointIndexTests {
    static func linear(_ points: [Vector3], _ q: Vector3) -> Int? {
        points.indices.min { (points[$0] - q).squaredNorm < (points[$1] - q).squaredNorm }
    }

    @Test("agrees with a linear scan on scattered and clustered points")
    func agreesWithLinearScan() {
        var rng = SeededGenerator(seed: 7)
        for count in [1, 2, 3, 10, 57, 400] {
            // Keyframes along a path (clustered, nearly collinear) and scattered in a box.
            let path = (0..<count).map { i in Vector3(0.05 * Double(i), 0.3 * Double(i % 7), 1.5) }
            let box = (0..<count).map { _ in rng.vector3(scale: 4) }
            for points in [path, box] {
                let index = NearestPointIndex(points)
                for _ in 0..<300 {
                    let q = rng.vector3(scale: 6)
                    #expect(index.nearest(to: q) == Self.linear(points, q))
                }
                // Queries on the points themselves.
                for (i, p) in points.enumerated().prefix(50) {
                    #expect(index.nearest(to: p) == Self.linear(points, p))
                    #expect((points[index.nearest(to: p) ?? -1] - points[i]).squaredNorm == 0)
                }
            }
        }
    }

    @Test("ties go to the lower index, as a first-minimum scan")
    func tiesGoToLowerIndex() {
        // A lattice with duplicates: many queries are equidistant from several points.
        var points: [Vector3] = []
        for x in 0..<4 { for y in 0..<3 { for z in 0..<2 { points.append(Vector3(Double(x), Double(y), Double(z))) } } }
        points += points.reversed()
        let index = NearestPointIndex(points)
        for x in stride(from: -0.5, through: 3.5, by: 0.5) {
            for y in stride(from: -0.5, through: 2.5, by: 0.5) {
                for z in stride(from: -0.5, through: 1.5, by: 0.5) {
                    let q = Vector3(x, y, z)
                    #expect(index.nearest(to: q) == Self.linear(points, q))
                }
            }
        }
    }

    @Test("empty index and non-finite queries give nil")
    func emptyAndNonFinite() {
        #expect(NearestPointIndex([]).nearest(to: .zero) == nil)
        let index = NearestPointIndex([Vector3(1, 2, 3), Vector3(-1, 0, 0)])
        #expect(index.nearest(to: Vector3(.nan, 0, 0)) == nil)
        #expect(index.nearest(to: Vector3(0.9, 2, 3)) == 0)
    }
}
