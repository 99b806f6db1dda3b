import Foundation
import Testing
@testable import ParallaxDatasets

/// TUM-VI exports keep their ground truth in `mav0/mocap0/data.csv` (pose only).
@Suite("TUM-VI motion-capture ground truth")
struct TUMVIMocapTests {
    /// The bundled sample with its ground truth rewritten as TUM-VI's `mocap0` (8 columns).
    static func mocapCopy() throws -> URL {
        let fm = FileManager.default
        let root = try Fixtures.temporaryFolder()
        try fm.copyItem(at: SampleData.url.appendingPathComponent("mav0"), to: root.appendingPathComponent("mav0"))
        let mav0 = root.appendingPathComponent("mav0")
        let gt = mav0.appendingPathComponent("state_groundtruth_estimate0")
        let rows = try String(contentsOf: gt.appendingPathComponent("data.csv"), encoding: .utf8)
            .split(separator: "\n").map { line -> String in
                line.hasPrefix("#") ? "#timestamp [ns], p_RS_R_x [m], p_RS_R_y [m], p_RS_R_z [m], q_RS_w [], q_RS_x [], q_RS_y [], q_RS_z []"
                    : line.split(separator: ",").prefix(8).joined(separator: ",")
            }
        try fm.removeItem(at: gt)
        try fm.createDirectory(at: mav0.appendingPathComponent("mocap0"), withIntermediateDirectories: true)
        try (rows.joined(separator: "\n") + "\n").write(to: mav0.appendingPathComponent("mocap0/data.csv"),
                                                         atomically: true, encoding: .utf8)
        return root
    }

    @Test func mocapIsTheGroundTruth() throws {
        let root = try Self.mocapCopy()
        defer { try? FileManager.default.removeItem(at: root) }
        let tum = try EuRoCDataset(url: root), euroc = try EuRoCDataset(url: SampleData.url)
        #expect(tum.hasGroundTruth && tum.groundTruthSensor == "mocap0")
        #expect(tum.groundTruthOrigin == "mav0/mocap0/data.csv")
        let a = try tum.groundTruth(), b = try euroc.groundTruth()
        #expect(a.count == b.count && !a.isEmpty)
        #expect(zip(a, b).allSatisfy { $0.timestampNs == $1.timestampNs && $0.position == $1.position && $0.orientation == $1.orientation })
        #expect(a.allSatisfy { $0.velocity == .zero && $0.gyroscopeBias == .zero })
        // `info` lists it, and replays interleave it.
        let summary = try DatasetSummary(tum)
        #expect(summary.groundTruth?.name == "mocap0" && summary.groundTruth?.count == a.count)
        let events = try SampleData.events(tum.makeEvents())
        #expect(events.filter { if case .groundTruth = $0 { true } else { false } }.count == a.count)
        #expect(try GroundTruthPoses(dataset: tum) != nil)
    }

    @Test func aMocapRowWithTooFewColumnsNamesTheFile() throws {
        let root = try Self.mocapCopy()
        defer { try? FileManager.default.removeItem(at: root) }
        let csv = root.appendingPathComponent("mav0/mocap0/data.csv")
        try "#t,x,y,z,qw,qx,qy,qz\n1403715273262142976,1,2,3\n".write(to: csv, atomically: true, encoding: .utf8)
        let error = #expect(throws: DatasetError.self) { try EuRoCDataset(url: root).groundTruth() }
        #expect(error?.description.contains("mav0/mocap0/data.csv") == true)
    }
}
