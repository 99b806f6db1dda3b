import Foundation
import ParallaxDatasets
import ParallaxEvaluation
import ParallaxMapping
import ParallaxMath
import ParallaxTracking
import ParallaxVision
import Testing

@Suite("Relocalization on simulated datasets", .serialized)
struct RelocalizationTests {
    /// The issue's 3 s blackout (black images) on the simulated V1_01 flight (stereo, two places)
    /// and a hand-held walk (mono, TUM-VI room3): tracking must be back, placed in the map, within
    /// 1 s of the images returning, and the position must not jump by more than 5 cm against the
    /// ground truth (alignment fitted before the blackout). The tracker coasts through on the IMU;
    /// the map confirms or corrects that pose by projecting its points into the predicted view.
    /// Known gap (docs/world-maps.md): mono on the V1_01 flight keeps too few keyframe points
    /// there and is not back within 1 s.
    @Test("3 s blackout: back within 1 s in the same world frame",
          .enabled(if: MappingFixtures.hasTrajectories, "needs ../shared/trajectories"),
          arguments: [("euroc_V1_01_easy", true, 9.0), ("euroc_V1_01_easy", true, 20.0), ("tumvi_room3", false, 12.0)])
    func blackout(trajectory: String, stereo: Bool, start: Double) throws {
        let data = try MappingFixtures.simulated(trajectory: trajectory, stereo: stereo, duration: 30)
        let mapper = WorldMapper(camera: try data.cameras[0].makeCameraModel())
        let end = start + 3
        let samples = try MappedReplay(dataset: data, mode: stereo ? .stereo : .mono, blackout: start...end)
            .run(mapper: mapper, to: end + 4)
        let before = samples.filter { $0.time < start && $0.state == .normal && $0.position_world != nil && $0.truth_world != nil }
        #expect(before.count > 50)
        let alignment = try TrajectoryAlignment.estimate(.posyaw, estimate: before.compactMap(\.position_world),
                                                         reference: before.compactMap(\.truth_world))
        func error(_ s: MappedReplay.Sample) -> Vector3? {
            guard let p = s.position_world, let t = s.truth_world else { return nil }
            return alignment.apply(p) - t
        }
        let lastBefore = try #require(before.last.flatMap(error))
        let back = samples.first { $0.time > end && $0.state == .normal && $0.output.isAligned }
        let recovery = try #require(back)
        let errorAfter = try #require(error(recovery))
        let jump = (errorAfter - lastBefore).norm
        print("\(trajectory) blackout \(start)–\(end) s: back \(String(format: "%.2f", recovery.time - end)) s after images return, jump "
              + "\(String(format: "%.3f", jump)) m, relocalizations \(mapper.relocalizationCount), keyframes "
              + "\(mapper.database.keyframes.count), mapping ms/keyframe \(String(format: "%.1f", mapper.keyframeMilliseconds.reduce(0, +) / Double(max(1, mapper.keyframeMilliseconds.count))))")
        #expect(recovery.time - end <= 1.0)
        #expect(jump <= 0.05)
        // Stays in the same world afterwards: every later normal frame within 5 cm of the pre-blackout error.
        let later = samples.filter { $0.time > recovery.time && $0.time < recovery.time + 3 && $0.state == .normal }
        let worst = later.compactMap(error).map { ($0 - lastBefore).norm }.max() ?? 0
        #expect(worst <= 0.05, "worst later deviation \(worst)")
    }
}

@Suite("Second session in a saved map", .serialized)
struct SecondSessionTests {
    /// Session 1 maps the first 12 s of the simulated V1_01 flight and saves the map (through the
    /// file format); session 2 starts at 6 s (a fresh tracker, mid-flight) with the loaded map: it must localize within 2 s, and
    /// its positions in the map world must agree with session 1's world within 5 cm — where an
    /// anchor saved in session 1 would reappear.
    @Test("loads a map, localizes within 2 s, same world within 5 cm", .enabled(if: MappingFixtures.hasTrajectories, "needs ../shared/trajectories"))
    func secondSession() throws {
        let data = try MappingFixtures.simulated(trajectory: "euroc_V1_01_easy", stereo: true, duration: 30)
        let camera = try data.cameras[0].makeCameraModel()
        let first = WorldMapper(camera: camera)
        let one = try MappedReplay(dataset: data, mode: .stereo).run(mapper: first, to: 12)
        let good = one.filter { $0.state == .normal && $0.position_world != nil && $0.truth_world != nil }
        let alignment = try TrajectoryAlignment.estimate(.posyaw, estimate: good.compactMap(\.position_world),
                                                         reference: good.compactMap(\.truth_world))
        let archive = MapArchive(keyframes: first.database, T_A_W: .identity, anchors: [])
        let loaded = try MapFile.decode(MapFile.encode(archive))
        #expect(loaded.keyframes.keyframes.count == first.database.keyframes.count)

        let second = WorldMapper(camera: camera, database: loaded.keyframes)
        let two = try MappedReplay(dataset: data, mode: .stereo).run(mapper: second, from: 6, to: 12)
        let localized = try #require(two.first { $0.state == .normal && $0.output.isAligned }, "never localized")
        let errors = two.filter { $0.time >= localized.time && $0.time < localized.time + 4 && $0.state == .normal }
            .compactMap { s in s.position_world.flatMap { p in s.truth_world.map { (alignment.apply(p) - $0).norm } } }
        let sorted = errors.sorted()
        let median = sorted.isEmpty ? .infinity : sorted[sorted.count / 2]
        print("second session: localized after \(String(format: "%.2f", localized.time)) s, median error against "
              + "session 1's world \(String(format: "%.3f", median)) m over \(errors.count) frames, map \(loaded.keyframes.keyframes.count) keyframes")
        #expect(localized.time <= 2.0)
        #expect(median <= 0.05)
    }
}
