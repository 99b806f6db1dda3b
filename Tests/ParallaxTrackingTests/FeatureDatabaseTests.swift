import ParallaxMath
@testable import ParallaxVision
import Testing
@testable import ParallaxTracking

/// The feature database's named queries and bookkeeping.
@Suite("Feature database")
struct FeatureDatabaseTests {
    static func frame(_ ids: [Int], time: Double) -> FeatureFrame {
        let features = ids.map { id in
            TrackedFeature(id: id, pixel: Vector2(Double(id), 0), normalized: Vector2(Double(id) * 0.01, 0),
                           rightPixel: nil, rightNormalized: Vector2(Double(id) * 0.01 - 0.05, 0), trackLength: 1)
        }
        return FeatureFrame(timestamp: time, features: features, trackedBeforeRansac: ids.count, rejectedByRansac: 0,
                            newFeatures: 0, timings: FrontEndTimings())
    }

    @Test("Lost tracks, tracks reaching the oldest clone, consumption and marginalisation")
    func queries() {
        var db = FeatureDatabase()
        db.append(Self.frame([1, 2, 3], time: 0), frameNumber: 1, stereo: false)
        db.append(Self.frame([2, 3, 4], time: 1), frameNumber: 2, stereo: true)
        db.append(Self.frame([3, 4], time: 2), frameNumber: 3, stereo: false)
        let current: Set = [3, 4]
        #expect(db.lostTracks(currentIDs: current).map(\.id) == [1, 2])
        #expect(db.track(2)?.observations.map(\.frame) == [1, 2])
        #expect(db.track(2)?.observations[0].right == nil && db.track(2)?.observations[1].right != nil)
        #expect(db.track(2)?.measurementCount == 3)
        #expect(db.tracksStarting(atFrame: 1, currentIDs: current).map(\.id) == [3])
        #expect(db.tracksStarting(atFrame: 2, currentIDs: current).map(\.id) == [4])

        db.consume(3)
        #expect(db.track(3)?.observations.isEmpty == true)
        db.remove([1, 2])
        #expect(db.count == 2 && db.track(1) == nil)

        // Marginalising frame 2 empties track 4's first observation but keeps it (still tracked).
        db.removeObservations(ofFrame: 2, currentIDs: current)
        #expect(db.track(4)?.observations.map(\.frame) == [3])
        // A consumed track that is no longer followed disappears when marginalisation touches it.
        db.removeObservations(ofFrame: 3, currentIDs: [4])
        #expect(db.track(3) == nil && db.track(4)?.observations.isEmpty == true)
    }
}
