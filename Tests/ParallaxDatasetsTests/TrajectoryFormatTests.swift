import Foundation
import ParallaxMath
import Testing
@testable import ParallaxDatasets

@Suite("Trajectory files (TUM, EuRoC CSV)")
struct TrajectoryFormatTests {
    static let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let shared = here.deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared")

    /// The real trajectories under `../shared` (tests reading them are skipped without them).
    static let realTrajectories = ["trajectories/euroc_V1_01_easy.txt", "trajectories/udel_gore.txt"]
    static let realTrajectoriesPresent = realTrajectories.allSatisfy {
        FileManager.default.fileExists(atPath: shared.appendingPathComponent($0).path)
    }

    static func message(_ body: () throws -> Void) -> String? {
        do { try body() } catch { return "\(error)" }
        return nil
    }

    @Test("TUM: comments, blank lines, tabs and extra columns; w last")
    func tumParsing() throws {
        let text = """
            # timestamp tx ty tz qx qy qz qw

            1.5 1 2 3 0 0 0 1 extra columns ignored
               # indented comment
            2.25\t4 5 6\t0.5 0.5 0.5 0.5 9 9
            """
        let t = try TUMTrajectory.parse(text, name: "a.txt")
        #expect(t.count == 2)
        #expect(t.poses[0].time == 1.5 && t.poses[0].timeNs == 1_500_000_000)
        #expect(t.poses[1].T_world_body.translation == Vector3(4, 5, 6))
        #expect(t.poses[1].T_world_body.rotation == Quaternion(w: 0.5, x: 0.5, y: 0.5, z: 0.5))
        #expect(t.poses[0].T_world_body.rotation == .identity)
    }

    @Test("TUM errors name file, line and what is wrong")
    func tumErrors() {
        let short = Self.message { _ = try TUMTrajectory.parse("# c\n1 2 3 4 5\n", name: "est.txt") }
        #expect(short == "est.txt:2: expected 8 numbers, found 5")
        let nan = Self.message { _ = try TUMTrajectory.parse("1 nan 0 0 0 0 0 1\n", name: "e.txt") }
        #expect(nan == "e.txt:1: column 2: 'nan' is not finite")
        let inf = Self.message { _ = try TUMTrajectory.parse("1 0 0 0 0 0 0 1\n2 0 -inf 0 0 0 0 1\n", name: "e.txt") }
        #expect(inf == "e.txt:2: column 3: '-inf' is not finite")
        let word = Self.message { _ = try TUMTrajectory.parse("1 0 0 zero 0 0 0 1\n", name: "e.txt") }
        #expect(word == "e.txt:1: column 4: 'zero' is not a number")
        let order = Self.message { _ = try TUMTrajectory.parse("2 0 0 0 0 0 0 1\n\n1 0 0 0 0 0 0 1\n", name: "e.txt") }
        #expect(order?.hasPrefix("e.txt:3: timestamp 1 is not after 2.0 on line 1") == true)
        let repeated = Self.message { _ = try TUMTrajectory.parse("2 0 0 0 0 0 0 1\n2 0 0 0 0 0 0 1\n", name: "e.txt") }
        #expect(repeated?.hasPrefix("e.txt:2:") == true)
        let quat = Self.message { _ = try TUMTrajectory.parse("1 0 0 0 0 0 0 0\n", name: "e.txt") }
        #expect(quat == "e.txt:1: quaternion norm 0.0 is not 1")
        let missing = Self.message { _ = try Trajectory.read(contentsOf: URL(fileURLWithPath: "/nonexistent/x.txt")) }
        #expect(missing == "/nonexistent/x.txt: cannot read file: no such file")
    }

    @Test("TUM writing round-trips exactly, full-precision values and nanoseconds included")
    func tumRoundTrip() throws {
        var poses: [TrajectoryPose] = []
        var rng = SplitMix64(seed: 42)
        for k in 0..<200 {
            let q = Quaternion(w: .random(in: -1...1, using: &rng), x: .random(in: -1...1, using: &rng),
                               y: .random(in: -1...1, using: &rng), z: .random(in: -1...1, using: &rng)).normalized
            let p = Vector3(.random(in: -1e3...1e3, using: &rng), .random(in: -1e-7...1e-7, using: &rng), Double(k) / 3)
            poses.append(TrajectoryPose(time: 1e9 + Double(k) * 0.0123456789, T_world_body: RigidTransform(rotation: q, translation: p)))
        }
        let synthetic = Trajectory(poses: poses, name: "synthetic")
        let back = try TUMTrajectory.parse(TUMTrajectory.format(synthetic), name: "synthetic")
        #expect(back.poses.map(\.T_world_body) == synthetic.poses.map(\.T_world_body))
        #expect(back.timestamps == synthetic.timestamps)
        // Re-formatting what was read gives the same text again.
        #expect(TUMTrajectory.format(back) == TUMTrajectory.format(try TUMTrajectory.parse(TUMTrajectory.format(back))))
    }

    @Test("The real TUM files round-trip exactly",
          .enabled(if: TrajectoryFormatTests.realTrajectoriesPresent, "needs ../shared/trajectories beside the repository"))
    func realTUMRoundTrip() throws {
        for file in Self.realTrajectories {
            let original = try Trajectory.read(contentsOf: Self.shared.appendingPathComponent(file))
            let again = try TUMTrajectory.parse(TUMTrajectory.format(original), name: original.name)
            let same = again == original   // compared outside #expect: a failure would print every pose
            #expect(same, "\(file) round trip")
        }
    }

    @Test("Real TUM files: counts, times, extra columns of udel_gore",
          .enabled(if: TrajectoryFormatTests.realTrajectoriesPresent, "needs ../shared/trajectories beside the repository"))
    func realTUM() throws {
        let v101 = Self.shared.appendingPathComponent("trajectories/euroc_V1_01_easy.txt")
        let gore = Self.shared.appendingPathComponent("trajectories/udel_gore.txt")
        let a = try Trajectory.read(contentsOf: v101)
        #expect(a.count == 2895)
        #expect(a.poses[0].timeNs == 1_403_715_273_262_140_000)
        #expect(a.poses[0].T_world_body.rotation == Quaternion(w: 0.069433, x: -0.824237, y: -0.106942, z: -0.551702))
        // The first data line written back keeps its timestamp text.
        #expect(TUMTrajectory.format(a).split(separator: "\n")[1].hasPrefix("1403715273.26214 0.878895 2.1834 0.948427"))
        let b = try Trajectory.read(contentsOf: gore)
        #expect(b.count == 3445)
        #expect(b.poses[0].timeNs == 1_521_753_105_031_429_052)   // 15 decimals, rounded to the nanosecond
        #expect(b.poses[1].T_world_body.translation.x == 0.0001928688)
    }

    @Test("EuRoC CSV: w first, extra columns ignored, nanoseconds kept, errors with line")
    func eurocCSV() throws {
        let t = try EuRoCTrajectory.parse("#timestamp [ns],x\n1000000001, 1, 2, 3, 0.5, 0.5, -0.5, 0.5, 7, 8\n", name: "gt.csv")
        #expect(t.poses[0].timeNs == 1_000_000_001 && t.poses[0].time == 1.000000001)
        #expect(t.poses[0].T_world_body.rotation == Quaternion(w: 0.5, x: 0.5, y: -0.5, z: 0.5))
        #expect(Self.message { _ = try EuRoCTrajectory.parse("#h\n1,2,3\n", name: "gt.csv") }
                == "gt.csv:2: expected at least 8 comma-separated numbers, found 3")
        #expect(Self.message { _ = try EuRoCTrajectory.parse("1.5,0,0,0,1,0,0,0\n", name: "gt.csv") }
                == "gt.csv:1: column 1: '1.5' is not an integer timestamp in nanoseconds")
        #expect(Self.message { _ = try EuRoCTrajectory.parse("5,0,0,0,1,0,0,0\n4,0,0,0,1,0,0,0\n", name: "gt.csv") }
                == "gt.csv:2: timestamp 4 is not after 5 on line 1 (times must increase)")
        #expect(Self.message { _ = try EuRoCTrajectory.parse("5,0,NaN,0,1,0,0,0\n", name: "gt.csv") }
                == "gt.csv:1: column 3: 'NaN' is not finite")
        let back = try EuRoCTrajectory.parse(EuRoCTrajectory.format(t))
        #expect(back.poses == t.poses)
    }

    @Test("The fixture EuRoC CSV equals its TUM twin")
    func eurocFixture() throws {
        // The evo fixtures live with the trajectory evaluation's tests.
        let fixtures = Self.here.deletingLastPathComponent().appendingPathComponent("ParallaxEvaluationTests/Fixtures/evo")
        let csv = try Trajectory.read(contentsOf: fixtures.appendingPathComponent("gt_V1_01.csv"))
        let tum = try Trajectory.read(contentsOf: fixtures.appendingPathComponent("gt_V1_01.txt"))
        #expect(csv.count == 400 && tum.count == 400)
        #expect(csv.poses.map(\.timeNs) == tum.poses.map(\.timeNs))
        #expect(csv.poses.map(\.T_world_body) == tum.poses.map(\.T_world_body))
    }

    @Test("The real snippet's EuRoC ground-truth CSV", .needsRealSnippet)
    func eurocReal() throws {
        let url = Fixtures.realSnippetURL.appendingPathComponent("mav0/state_groundtruth_estimate0/data.csv")
        let gt = try Trajectory.read(contentsOf: url)
        #expect(gt.count == 115)
        #expect(gt.poses[0].timeNs == 1_403_715_273_262_142_976)
        #expect(gt.poses[0].T_world_body.rotation == Quaternion(w: 0.069433, x: -0.824237, y: -0.106942, z: -0.551702))
        #expect(gt.poses[0].T_world_body.translation == Vector3(0.878895, 2.1834, 0.948427))
    }

    @Test("Format detection by extension, then by content")
    func detection() {
        let csv = "#timestamp [ns],p\n1,0,0,0,1,0,0,0\n"
        let tum = "# t\n1 0 0 0 0 0 0 1\n"
        #expect(TrajectoryFormat.detect(url: URL(fileURLWithPath: "a.csv"), text: tum) == .euroc)
        #expect(TrajectoryFormat.detect(url: URL(fileURLWithPath: "a.txt"), text: csv) == .tum)
        #expect(TrajectoryFormat.detect(url: URL(fileURLWithPath: "a.traj"), text: csv) == .euroc)
        #expect(TrajectoryFormat.detect(url: URL(fileURLWithPath: "a"), text: tum) == .tum)
    }

    @Test("Nanosecond text: exact to nine decimals, rounded beyond")
    func nanosecondText() {
        #expect(TrajectoryText.nanoseconds(fromSeconds: "1403715273.26214") == 1_403_715_273_262_140_000)
        #expect(TrajectoryText.nanoseconds(fromSeconds: "12") == 12_000_000_000)
        #expect(TrajectoryText.nanoseconds(fromSeconds: "1.0000000004") == 1_000_000_000)
        #expect(TrajectoryText.nanoseconds(fromSeconds: "1.0000000005") == 1_000_000_001)
        #expect(TrajectoryText.nanoseconds(fromSeconds: "1e3") == nil)
        #expect(TrajectoryText.nanoseconds(fromSeconds: "-1.5") == nil)
        #expect(TrajectoryText.secondsText(nanoseconds: 1_403_715_273_262_140_000) == "1403715273.26214")
        #expect(TrajectoryText.secondsText(nanoseconds: 5_000_000_000) == "5")
        #expect(TrajectoryText.secondsText(nanoseconds: 7) == "0.000000007")
    }
}
