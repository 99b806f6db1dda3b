import Foundation
import ParallaxDatasets
import ParallaxMath
import ParallaxSceneGraph
import Testing

@testable import ParallaxSimulation

/// `Scenes/room.json` of this repository.
func roomSceneURL() -> URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scenes/room.json")
}

/// SHA-free but exact fingerprint: every file's relative path and bytes.
func folderContents(_ url: URL) throws -> [String: Data] {
    var result: [String: Data] = [:]
    let enumerator = FileManager.default.enumerator(at: url, includingPropertiesForKeys: [.isRegularFileKey])
    while let file = enumerator?.nextObject() as? URL {
        guard (try file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
        result[String(file.path.dropFirst(url.path.count))] = try Data(contentsOf: file)
    }
    return result
}

@Suite(.serialized) struct SimulationOutputTests {
    func simulate(to folder: URL, stereo: Bool, seed: UInt64, duration: Double = 0.6) throws -> SimulationSummary {
        let scene = try Scene.load(contentsOf: roomSceneURL())
        let alignment = SimulationSetup.floorAlignment(for: scene)
        let settings = SimulationSetup.motionSettings(for: scene, alignment: alignment)
        let trajectory = try TrajectoryBuilder.preset(.handheld, duration: duration, staticStart: 0.2, settings: settings)
        var config = SimulationConfiguration()
        config.seed = seed
        config.cameras = SimulationConfiguration.eurocCameras(stereo: stereo)
        return try Simulator(scene: scene, trajectory: trajectory, configuration: config, alignment: alignment).run(to: folder)
    }

    func temporaryFolder(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("parallax-sim-\(name)-\(ProcessInfo.processInfo.processIdentifier)")
    }

    @Test func readsBackWithTheRequestedRatesCountsAndCalibration() throws {
        let folder = temporaryFolder("readback")
        defer { try? FileManager.default.removeItem(at: folder) }
        let summary = try simulate(to: folder, stereo: true, seed: 3)
        let dataset = try EuRoCDataset(url: folder)
        #expect(dataset.cameras.count == 2)
        #expect(dataset.cameras[0] == CameraCalibration.eurocCam0)
        #expect(dataset.cameras[1] == CameraCalibration.eurocCam1)
        #expect(dataset.imu == IMUCalibration.eurocIMU)
        let imu = try dataset.imuSamples()
        let truth = try dataset.groundTruth()
        #expect(imu.count == 121 && summary.imuSamples == 121)  // 0.6 s at 200 Hz, both ends
        #expect(truth.count == imu.count)
        #expect(zip(imu.dropFirst(), imu).allSatisfy { $0.timestampNs - $1.timestampNs == 5_000_000 })
        for c in 0..<2 {
            let frames = try dataset.cameraFrames(c)
            #expect(frames.count == 13)  // 0.6 s at 20 Hz, both ends
            #expect(zip(frames.dropFirst(), frames).allSatisfy { $0.timestampNs - $1.timestampNs == 50_000_000 })
            let image = try frames[6].loadImage()
            #expect(image.width == 752 && image.height == 480)
            // A textured room, not a blank image: a spread of grey levels.
            let grey = image.toGray8().pixels
            let mean = grey.reduce(0) { $0 + Double($1) } / Double(grey.count)
            let sd = (grey.reduce(0) { $0 + (Double($1) - mean) * (Double($1) - mean) } / Double(grey.count)).squareRoot()
            #expect(mean > 30 && mean < 220 && sd > 10)
        }
        // Still during the static start: ground truth and images agree with the trajectory.
        #expect(truth[0].T_world_body == truth[20].T_world_body)
        #expect(truth[0].velocity == .zero)
        let planes = try String(contentsOf: folder.appendingPathComponent("truth/planes.json"), encoding: .utf8)
        #expect(planes.contains("\"kind\": \"floor\"") && planes.contains("\"kind\": \"table\"")
                && planes.contains("\"kind\": \"wall\"") && planes.contains("\"kind\": \"ceiling\""))
        // Every face, the small ones too, is written apart for the hit distances.
        let surfaces = try String(contentsOf: folder.appendingPathComponent("truth/surfaces.json"), encoding: .utf8)
        #expect(surfaces.contains("\"surfaces\": [") && surfaces.contains("\"id\": \"book-0-0/x+\"") && !planes.contains("book-0-0"))
        let lighting = try String(contentsOf: folder.appendingPathComponent("truth/lighting.json"), encoding: .utf8)
        #expect(lighting.components(separatedBy: "\"timestamp\": ").count == 14)  // 13 frames
    }

    @Test func sameSeedGivesByteIdenticalFiles() throws {
        let a = temporaryFolder("run-a"), b = temporaryFolder("run-b"), c = temporaryFolder("run-c")
        defer { for f in [a, b, c] { try? FileManager.default.removeItem(at: f) } }
        _ = try simulate(to: a, stereo: false, seed: 9, duration: 0.3)
        _ = try simulate(to: b, stereo: false, seed: 9, duration: 0.3)
        _ = try simulate(to: c, stereo: false, seed: 10, duration: 0.3)
        let ca = try folderContents(a), cb = try folderContents(b), cc = try folderContents(c)
        #expect(ca.count > 10)
        #expect(ca == cb)
        #expect(ca != cc)
    }

    @Test func roomPlanesAreFoundInTheZUpWorld() throws {
        let scene = try Scene.load(contentsOf: roomSceneURL())
        let alignment = SimulationSetup.floorAlignment(for: scene)
        let planes = ScenePlanes.extract(from: scene, alignment: alignment)
        let floor = try #require(planes.first { $0.id == "floor" })
        #expect(floor.kind == .floor && abs(floor.normal.z - 1) < 1e-6 && abs(floor.area - 30) < 1e-3)
        #expect(abs(floor.centre.z) < 1e-6)
        let ceiling = try #require(planes.first { $0.id == "ceiling" })
        #expect(ceiling.kind == .ceiling && abs(ceiling.normal.z + 1) < 1e-6 && abs(ceiling.centre.z - 3) < 1e-5)
        let top = try #require(planes.first { $0.id == "table-top/y+" })
        #expect(top.kind == .table && abs(top.centre.z - 0.76) < 1e-5)
        // Walls face into the room: the normal points towards the floor's centre.
        for wall in planes where wall.id.hasPrefix("wall-") {
            #expect(wall.kind == .wall && wall.normal.dot(Vector3(0, 0, 1.5) - wall.centre) > 0)
        }
    }

    /// `surfaces.json` holds every face a hit can land on: the planes, and the faces too small for
    /// them (a book's spine faces into the room, 0.24 m × 3.6 cm) and the undersides of furniture.
    @Test func everyFaceIsASurface() throws {
        let scene = try Scene.load(contentsOf: roomSceneURL())
        let alignment = SimulationSetup.floorAlignment(for: scene)
        let planes = ScenePlanes.extract(from: scene, alignment: alignment)
        let surfaces = ScenePlanes.surfaces(from: scene, alignment: alignment)
        let ids = Set(surfaces.map(\.id))
        #expect(planes.allSatisfy { ids.contains($0.id) })
        #expect(planes.allSatisfy { p in surfaces.first { $0.id == p.id } == p })  // same geometry and kind
        let faces = surfaces.filter { $0.id.hasPrefix("book-0-0/") }
        #expect(faces.count == 6 && faces.allSatisfy { $0.area < ScenePlanes.minimumArea })
        #expect(!planes.contains { $0.id.hasPrefix("book-") })
        #expect(surfaces.contains { $0.id == "table-top/y-" && $0.normal.z < -0.99 })
        #expect(!planes.contains { $0.id == "table-top/y-" })
    }
}

@Suite struct BundledSampleTests {
    /// `Datasets/sample` (made by scripts/make-sample-dataset.sh) reads back with its promised
    /// contents, and the bundled estimate covers it.
    @Test func bundledSampleReadsBack() throws {
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let dataset = try EuRoCDataset(url: repo.appendingPathComponent("Datasets/sample"))
        #expect(dataset.cameras == [CameraCalibration.eurocCam0.with(rate: 10)])
        #expect(try dataset.cameraFrames(0).count == 21)
        #expect(try dataset.imuSamples().count == 401)
        let truth = try dataset.groundTruth()
        #expect(truth.count == 401)
        let estimate = try TUMTrajectory.read(contentsOf: repo.appendingPathComponent("Datasets/sample-estimate.txt"))
        #expect(estimate.count == 41)
        // The perturbation: 0.3 rad yaw plus drift, so the estimate is not the ground truth.
        let first = estimate.poses[0].T_world_body.rotation.angle(to: truth[0].T_world_body.rotation)
        #expect(abs(first - 0.3) < 1e-3)
        #expect(abs(estimate.poses[40].time - truth[400].timestamp) < 1e-6)
    }
}

extension CameraCalibration {
    func with(rate: Double) -> CameraCalibration {
        var c = self
        c.rateHz = rate
        return c
    }
}
