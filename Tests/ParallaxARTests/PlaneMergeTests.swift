import Foundation
import ParallaxMath
import Testing

@testable import ParallaxAR

/// Wall copies that tracking drift splits off, and points under the floor (z-up world).
@Suite struct PlaneMergeTests {
    typealias Noise = PlaneTrackerTests.Noise

    /// Points on the vertical sheet `y = y0 + slope·(x − x0)`, over `xs` and heights 0.2–2.4 m.
    static func sheet(_ noise: inout Noise, xs: ClosedRange<Double>, y0: Double, x0: Double = 0, slope: Double = 0,
                      columns: Int = 12, rows: Int = 6) -> [Vector3] {
        var pts: [Vector3] = []
        for i in 0..<(columns * rows) {
            let x = xs.lowerBound + (xs.upperBound - xs.lowerBound) * Double(i % columns) / Double(columns - 1)
            let z = 0.2 + 2.2 * Double(i / columns) / Double(rows - 1)
            pts.append(Vector3(x, y0 + slope * (x - x0) + noise.next(0.006), z))
        }
        return pts
    }

    static func support(_ points: [Vector3], from id: UInt64) -> PlaneSupport {
        PlaneSupport(ids: points.indices.map { id + UInt64($0) }, positions: points)
    }

    @Test func oneWallSeenAsTwoTiltedSlabsIsExplainedByOnePlane() throws {
        var noise = Noise(state: 11)
        var tracker = PlaneTracker(detection: [.vertical])
        // The far end of a wall placed 3.5 cm off and turned 2.5° by drift: more than the 2.5 cm band
        // of the first fit, well within what one plane through both explains.
        let near = Self.sheet(&noise, xs: -2.5...0.5, y0: 2)
        let far = Self.sheet(&noise, xs: 0...2, y0: 2.035, x0: 1, slope: tan(2.5 * Double.pi / 180))
        tracker.support[0] = Self.support(near, from: 0)
        tracker.support[1] = Self.support(far, from: 1000)
        let fit = try #require(tracker.jointVerticalFit(0, 1))
        #expect(abs(abs(fit.normal.y) - 1) < 1e-3)
        #expect(fit.band > tracker.distanceThreshold && fit.band <= 2 * tracker.distanceThreshold)
    }

    @Test func aSurfaceInFrontOfAWallIsNotExplainedByOnePlane() {
        var noise = Noise(state: 12)
        var tracker = PlaneTracker(detection: [.vertical])
        // A cabinet front 12 cm in front of the wall, over part of it.
        tracker.support[0] = Self.support(Self.sheet(&noise, xs: -2.5...2.5, y0: 2), from: 0)
        tracker.support[1] = Self.support(Self.sheet(&noise, xs: 0...1.2, y0: 1.88), from: 1000)
        #expect(tracker.jointVerticalFit(0, 1) == nil)
        // Nor a wall that is unknown yet (no support).
        #expect(tracker.jointVerticalFit(0, 2) == nil)
    }

    /// A wall found, then points of its far end that drift placed off its band: without the joint
    /// test they found a second wall; with it they end as one anchor whose band holds both.
    @Test(arguments: [true, false])
    func driftedFarEndOfAWallMergesIntoIt(joint: Bool) {
        var noise = Noise(state: 13)
        var tracker = PlaneTracker(detection: [.vertical])
        if !joint { tracker.jointMergeShare = 2 }   // no share reaches 2: the joint test never passes
        let camera = Vector3(0, 0, 1.6)
        let near = Self.sheet(&noise, xs: -3...0, y0: 2, columns: 16)
        _ = tracker.update(points: PlaneTrackerTests.map(near), cameraPosition: camera, timestamp: 0)
        #expect(tracker.planes.count == 1)
        // Its far end, 0.7 m on, 4 cm off and turned 3°: the corners of the two fits lie 15 cm and
        // more apart, so only the joint test can tell that they are one surface.
        let far = Self.sheet(&noise, xs: 0.7...2.7, y0: 2.04, x0: 1.7, slope: tan(3 * Double.pi / 180))
        for t in 1...3 {
            _ = tracker.update(points: PlaneTrackerTests.map(near + far), cameraPosition: camera, timestamp: Double(t))
        }
        if joint {
            #expect(tracker.planes.count == 1)
            let wall = tracker.planes.values.first
            #expect(wall.map { tracker.inlierBand($0.id) > tracker.distanceThreshold } == true)
        } else {
            #expect(tracker.planes.count == 2)
        }
    }

    /// Mistriangulated points under the floor neither found a wall nor extend one (with the
    /// rule off, the same points do found one).
    @Test(arguments: [true, false])
    func pointsUnderTheFloorFoundNoWall(rule: Bool) throws {
        var noise = Noise(state: 14)
        var tracker = PlaneTracker(detection: [.horizontal, .vertical])
        if !rule { tracker.belowFloorTolerance = .infinity }
        let camera = Vector3(0, 0, 1.6)
        var floor: [Vector3] = []
        for i in 0..<100 {
            floor.append(Vector3(-2 + 4 * Double(i % 10) / 9, -1 + 2.5 * Double(i / 10) / 9, noise.next(0.005)))
        }
        _ = tracker.update(points: PlaneTrackerTests.map(floor), cameraPosition: camera, timestamp: 0)
        #expect(tracker.planes.values.map(\.classification) == [.floor])
        // A sheet of outliers 0.2–0.8 m under the floor, in the shape of a wall.
        var under: [Vector3] = []
        for i in 0..<48 {
            under.append(Vector3(-1 + 2 * Double(i % 8) / 7, 1.2 + noise.next(0.005), -0.8 + 0.6 * Double(i / 8) / 5))
        }
        _ = tracker.update(points: PlaneTrackerTests.map(floor + under), cameraPosition: camera, timestamp: 1)
        #expect(tracker.planes.values.contains { $0.alignment == .vertical } == !rule)
        let lowest = tracker.planes.values.flatMap(\.boundary).map(\.z).min() ?? 0
        #expect((lowest > -0.05) == rule)
    }
}
