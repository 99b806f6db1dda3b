// Example (b): feed live measurements from user code and react to frames and anchors.
//
//   swift run LiveFeed [DATASET]     (default: Parallax's bundled Datasets/sample)
//
// A "driver" thread stands in for real sensors: it appends IMU samples and images to a
// LiveSource as they "arrive" (here read from a dataset, at recorded pace). The AR session tracks
// them; the app hears about frames and anchors through the delegate and iterates the frames
// through the session's AsyncSequence.
import Foundation
import Parallax

let repository = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
let path = CommandLine.arguments.dropFirst().first ?? repository.appendingPathComponent("Datasets/sample").path

/// Prints what the session reports.
final class Listener: SessionDelegate {
    func session(_ session: Session, didUpdate frame: Frame) {}
    func session(_ session: Session, cameraDidChangeTrackingState camera: ARCamera) {
        print("delegate: tracking is now \(camera.trackingState)")
    }
    func session(_ session: Session, didAdd anchors: [any Anchor]) {
        print("delegate: \(anchors.count) anchor(s) added: \(anchors.map { $0.name ?? "plane" })")
    }
}

/// Plays the recording into `live` from its own thread, as sensor callbacks would.
func startDriver(_ recording: EuRoCDataset, into live: LiveSource) {
    let driver = Thread {
        do {
            let start = ContinuousClock.now
            var firstNs: Int64?
            let events = try recording.makeEvents(from: nil, to: nil, includeGroundTruth: false)
            while let event = try events.next() {
                // Recorded pace: wait until the sample's time has come.
                let origin = firstNs ?? event.timestampNs
                firstNs = origin
                let due = start + .nanoseconds(event.timestampNs - origin)
                if due > ContinuousClock.now { Thread.sleep(forTimeInterval: Double((due - ContinuousClock.now).components.attoseconds) * 1e-18) }
                switch event {
                case .imu(let sample): try live.append(imu: sample)
                case .frame(let f):
                    if let c = f.cam0 { try live.append(camera: 0, timestampNs: f.timestampNs, image: try c.loadGray8()) }
                case .groundTruth: break
                }
            }
        } catch {
            FileHandle.standardError.write(Data("driver: \(error)\n".utf8))
        }
        live.finish()
    }
    driver.start()
}

do {
    let recording = try EuRoCDataset(url: URL(fileURLWithPath: path))
    // A mono rig; images wait at most 64 events, the driver blocks when the tracker falls behind.
    let live = try LiveSource(cameras: [recording.cameras[0]], imu: recording.imu,
                              policy: LiveSourcePolicy(capacity: 64, overflow: .block))
    let session = Session(source: live, replay: ReplayOptions(source: .tracking))
    let listener = Listener()
    session.delegate = listener
    session.run(WorldTrackingConfiguration(planeDetection: [.horizontal]))
    startDriver(recording, into: live)

    var count = 0
    for try await frame in session.frames {
        count += 1
        if count == 5 {
            // Anchor something 1 m in front of the camera; the delegate hears of it.
            let ahead = frame.camera.transform * Matrix4(rotation: .identity, translation: Vector3(0, 0, -1))
            session.add(anchor: WorldAnchor(identifier: session.makeIdentifier(), name: "marker", transform: ahead))
        }
        print(String(format: "frame %2d at %.3f s: %@, %d anchor(s)", count, frame.timestamp,
                     "\(frame.camera.trackingState)", frame.anchors.count))
    }
    let s = live.statistics
    print("\(count) frames; live source accepted \(s.accepted) samples, dropped \(s.late + s.duplicates + s.droppedForSpace), waited \(s.waits) times")
} catch {
    FileHandle.standardError.write(Data("LiveFeed: \(error)\n".utf8))
    exit(1)
}
