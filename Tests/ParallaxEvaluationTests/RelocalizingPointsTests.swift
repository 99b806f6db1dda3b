import Foundation
import ParallaxAR
import ParallaxTracking
import Testing

/// A session that starts from a saved world map relocalizes before it knows where it is in the
/// map's world: the points it tracks meanwhile must not enter its plane map (left there, they
/// would lie wherever the odometry's own frame happened to put them and found phantom planes).
@Suite(.serialized, .enabled(if: PlaneWalks.available, "needs ../shared/trajectories/rpng_table_*.txt"))
struct RelocalizingPointsTests {
    @Test func noPointsEnterThePlaneMapWhileRelocalizing() throws {
        let root = try PlaneWalks.dataset("rpng_table_01", seed: 1)
        // Session 1 maps 10–18 s.
        let first = try Session(datasetAt: root, replay: ReplayOptions(source: .tracking, startTime: 10, stopTime: 18, trackerMode: .mono))
        first.run(WorldTrackingConfiguration(planeDetection: [.horizontal, .vertical], isLightEstimationEnabled: false))
        while try first.nextFrame() != nil {}
        let map = try first.getCurrentWorldMap()

        // Session 2 replays 0–14 s with that map: its odometry starts in a frame of its own, away
        // from the mapped stretch.
        let second = try Session(datasetAt: root, replay: ReplayOptions(source: .tracking, startTime: 0, stopTime: 14, trackerMode: .mono))
        var configuration = WorldTrackingConfiguration(planeDetection: [.horizontal, .vertical], isLightEstimationEnabled: false)
        configuration.initialWorldMap = map
        second.run(configuration)
        var relocalizing = 0, normal = 0
        while let frame = try second.nextFrame() {
            if frame.camera.trackingState == .limited(.relocalizing) {
                relocalizing += 1
                if normal == 0 { #expect(second.mapPointCount == 0, "points entered before the session was placed") }
            } else if frame.camera.trackingState == .normal {
                normal += 1
            }
        }
        #expect(relocalizing > 0, "the second session relocalizes first")
        #expect(normal > 0, "and then tracks in the map's world")
        #expect(second.mapPointCount > 0)
    }
}
