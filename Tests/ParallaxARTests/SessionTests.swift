import Foundation
import ParallaxMath
import ParallaxTracking
import Testing

@testable import ParallaxAR

/// Records delegate events in order.
final class Recorder: SessionDelegate {
    var events: [String] = []
    var added: [UUID] = []
    var removed: [UUID] = []
    var frames = 0
    func session(_ session: Session, didUpdate frame: Frame) { frames += 1 }
    func session(_ session: Session, didAdd anchors: [any Anchor]) {
        events.append("add \(anchors.count)")
        added += anchors.map(\.identifier)
    }
    func session(_ session: Session, didRemove anchors: [any Anchor]) {
        events.append("remove \(anchors.count)")
        removed += anchors.map(\.identifier)
    }
    func session(_ session: Session, cameraDidChangeTrackingState camera: Camera) {
        events.append("tracking \(camera.trackingState)")
    }
}

@Suite(.serialized) struct SessionTests {
    static let configuration = WorldTrackingConfiguration(planeDetection: [.horizontal, .vertical],
                                                          isLightEstimationEnabled: false)

    /// One replay of the sample with GT poses: delegate events, camera convention, exports and
    /// hit tests against the truth planes.
    @Test func sampleReplayWithGroundTruthPoses() async throws {
        let session = try Session(datasetAt: TestData.sample)
        let recorder = Recorder()
        session.delegate = recorder
        session.run(Self.configuration)
        var lines: [String] = []
        var last: Frame?
        while let frame = try session.nextFrame() {
            lines.append(FrameExporter.line(for: frame))
            last = frame
        }
        let frame = try #require(last)
        #expect(recorder.frames == 21 && lines.count == 21)
        #expect(recorder.events.first == "tracking normal")
        #expect(!recorder.added.isEmpty)
        #expect(frame.camera.trackingState == .normal)
        #expect(frame.capturedImage.width == 752 && frame.capturedImage.height == 480)

        // Camera.transform = T_A_W · T_W_B · T_B_C · diag(1, −1, −1): the camera's −z axis is the
        // optical axis; in the gravity-aligned AR world the floor (1.5 m below) is at y ≈ −1.5.
        let T_A_W = try #require(session.worldTransform)
        #expect(abs((T_A_W * Vector3(0, 0, 0)).y + 1.46) < 0.1)
        let ahead = frame.camera.position - frame.camera.transform.column(2).xyz * 2
        let centre = try #require(frame.camera.projectPoint(ahead))
        #expect((centre - Vector2(frame.camera.cx, frame.camera.cy)).norm < 1e-6)
        #expect((T_A_W.rotate(Vector3(0, 0, 1)) - Vector3(0, 1, 0)).norm < 1e-12)

        // Hit tests on detected floor/table land within 2 cm of the true ray–plane intersection.
        let truth = try PlaneTruthFile.read(contentsOf: PlaneTruthFile.url(datasetRoot: TestData.sample))
        var checked = 0
        var worst = 0.0
        for gy in stride(from: 0.05, through: 0.95, by: 0.1) {
            for gx in stride(from: 0.05, through: 0.95, by: 0.1) {
                let point = Vector2(gx, gy)
                let hits = frame.hitTest(point, types: .existingPlaneUsingGeometry)
                guard let hit = hits.first, let anchor = hit.anchor,
                      anchor.classification == .floor || anchor.classification == .table else { continue }
                // The truth horizontal plane nearest the detected one (W heights).
                let height = (T_A_W.inverse * anchor.origin).z
                let t = try #require(truth.filter { $0.normal.z > 0.9 }.min { abs($0.centre.z - height) < abs($1.centre.z - height) })
                let (o, d) = frame.camera.ray(throughNormalized: point)
                let nA = T_A_W.rotate(t.normal), pA = T_A_W * t.centre
                let s = (pA - o).dot(nA) / d.dot(nA)
                let truePoint = o + d * s
                // Only where the ray really meets that truth surface.
                let inside = PointClusters.distance(Vector2((T_A_W.inverse * truePoint).x, (T_A_W.inverse * truePoint).y),
                                                    toConvex: ConvexPolygon.hull(t.polygon.map { Vector2($0.x, $0.y) })) == 0
                guard inside else { continue }
                worst = max(worst, (hit.position - truePoint).norm)
                checked += 1
            }
        }
        print("hit tests checked: \(checked), worst error \(worst * 100) cm")
        #expect(checked >= 5)
        #expect(worst <= 0.02)

        // Exports are well-formed JSON with the documented keys.
        let object = try #require(try JSONSerialization.jsonObject(with: Data(lines[20].utf8)) as? [String: Any])
        #expect(object["timestamp"] as? Int == 1_700_000_002_000_000_000)
        let anchors = try #require(object["anchors"] as? [[String: Any]])
        #expect(anchors.count == frame.anchors.count)
        #expect(anchors.allSatisfy { $0["classification"] != nil && $0["extent"] != nil })

        // A second replay through the AsyncSequence gives byte-identical exports (determinism).
        let again = try Session(datasetAt: TestData.sample)
        again.run(Self.configuration)
        let replayed = try await runAsync(again)
        #expect(replayed == lines)
    }

    private func runAsync(_ session: Session) async throws -> [String] {
        var lines: [String] = []
        for try await frame in session.frames { lines.append(FrameExporter.line(for: frame)) }
        return lines
    }
}
