import Foundation
import ParallaxEvaluation
import ParallaxMapping
import Testing

/// The map grows with what was seen, not with time: on a revisit the content test
/// (``WorldMapperConfiguration/redundancy``) makes few keyframes where the pose test alone keeps
/// making them for every new way of looking at the same table.
@Suite("Map growth on a revisit", .serialized)
struct MapGrowthTests {
    /// The simulated rpng_table_03 walk (mono, 10 Hz, 60 s), which circles a table and comes back
    /// to what it saw: keyframes made in the last 30 s with the content test and with the pose test
    /// alone (measured stop 72: 27 against 66, 101 against 157 in all), and the live estimate,
    /// which must not suffer for it (0.44 against 0.42 cm).
    @Test("revisits add at most half the keyframes the pose test alone adds, at the same accuracy",
          .enabled(if: MappingFixtures.hasTrajectories, "needs ../shared/trajectories"))
    func revisitsAddFewKeyframes() throws {
        let data = try MappingFixtures.tableWalk()
        var poseOnly = WorldMapperConfiguration()
        poseOnly.redundancy.observers = 0
        var results: [(late: Int, all: Int, live: Double)] = []
        for configuration in [WorldMapperConfiguration(), poseOnly] {
            let mapper = WorldMapper(camera: try data.cameras[0].makeCameraModel(), configuration: configuration)
            let samples = try MappedReplay(dataset: data, mode: .mono).run(mapper: mapper, to: 60)
            let accuracy = try #require(try LoopClosureAccuracy(samples: samples, mapper: mapper))
            let times = mapper.database.keyframes.map(\.timestamp)
            let start = try #require(times.first)  // the dataset's clock; the first keyframe comes with the first pose
            results.append((times.filter { $0 >= start + 30 }.count, times.count, accuracy.live))
        }
        let (content, pose) = (results[0], results[1])
        print(String(format: "keyframes in the last 30 s: %d with the content test, %d without (in all %d, %d); live ATE %.2f, %.2f cm",
                     content.late, pose.late, content.all, pose.all, content.live * 100, pose.live * 100))
        #expect(pose.late > 0)
        #expect(content.late * 2 <= pose.late)
        #expect(content.live <= pose.live * 1.2)
    }
}
