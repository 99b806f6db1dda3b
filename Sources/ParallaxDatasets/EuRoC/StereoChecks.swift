import Foundation
import ParallaxMath

// Stereo recordings that read fine row by row but cannot give stereo tracking: cam1 at cam0's
// position, or cam1 frames that do not pair with cam0 (different stamps, many missing). Before
// these checks such a replay ran with 0 % stereo pairs and exited 0 (issue 13).

extension EuRoCDataset {
    /// The smallest stereo baseline accepted, in metres: below it the two `T_BS` put the cameras
    /// at one point and stereo triangulation has no parallax (real rigs: 5 cm and more).
    public static let minimumStereoBaseline = 1e-3

    /// Throws when cam1's `T_BS` places it where cam0 is (a copied calibration).
    func checkStereoBaseline() throws {
        guard let baseline = stereoBaseline, baseline < Self.minimumStereoBaseline else { return }
        throw DatasetError(.calibration, file: "mav0/\(cameras[1].name)/sensor.yaml",
                           "field 'T_BS' puts \(cameras[1].name) \(String(format: "%.4f", baseline * 1000)) mm from "
                           + "\(cameras[0].name) (the stereo baseline must be at least "
                           + "\(Self.minimumStereoBaseline * 1000) mm); is it a copy of \(cameras[0].name)'s?")
    }
}

/// How the rows of cam0 and cam1 pair up (equal timestamps make a stereo pair), gathered in one
/// pass over both CSV files.
public struct StereoPairing: Sendable, Equatable {
    /// Rows of cam0 and of cam1.
    public var cam0Frames = 0, cam1Frames = 0
    /// Timestamps present in both.
    public var pairs = 0
    /// The median of `t_cam1 − t_cam0` (nearest cam0 row) over the first unpaired cam1 rows, in
    /// seconds; tells a constant stamp skew from dropped frames.
    public var medianSkewSeconds: Double?

    /// The largest fraction of frames allowed without a partner before stereo replay is refused
    /// (a few dropped frames are normal; half of them missing is a broken recording).
    public static let maximumUnpairedFraction = 0.1

    /// Frames of either camera without a partner.
    public var unpairedFrames: Int { cam0Frames + cam1Frames - 2 * pairs }

    /// Reads the timestamps of both camera CSVs of a stereo dataset.
    init(_ dataset: EuRoCDataset) throws {
        let cam0 = try dataset.cameraStream(0), cam1 = try dataset.cameraStream(1)
        var skews: [Int64] = []
        var previous0: Int64?
        var a = try cam0.next(), b = try cam1.next()
        while let f1 = b {
            // Advance cam0 to the last row at or before cam1's, remembering the one before.
            while let f0 = a, f0.timestampNs < f1.timestampNs { previous0 = f0.timestampNs; a = try cam0.next() }
            if let f0 = a, f0.timestampNs == f1.timestampNs {
                pairs += 1
            } else if skews.count < 101 {
                let candidates = [previous0, a?.timestampNs].compactMap { $0 }
                if let nearest = candidates.min(by: { abs($0 - f1.timestampNs) < abs($1 - f1.timestampNs) }) {
                    skews.append(f1.timestampNs - nearest)
                }
            }
            b = try cam1.next()
        }
        while try cam0.next() != nil {}
        cam0Frames = cam0.count
        cam1Frames = cam1.count
        if !skews.isEmpty { medianSkewSeconds = seconds(fromNanoseconds: skews.sorted()[skews.count / 2]) }
    }

    /// Throws when stereo replay would pair too few frames; returns a warning when a few are
    /// unpaired (each then goes to the tracker alone).
    func check(cam0 name0: String, cam1 name1: String) throws -> String? {
        guard cam0Frames > 0, cam1Frames > 0, unpairedFrames > 0 else { return nil }
        let file = "mav0/\(name1)/data.csv"
        let skew = medianSkewSeconds.map { String(format: "%+.3f ms", $0 * 1000) } ?? "n/a"
        if pairs == 0 {
            throw DatasetError(.inconsistentStreams, file: file,
                               "no \(name1) timestamp equals a \(name0) timestamp (median offset \(skew)); stereo "
                               + "frames pair by equal stamps: fix the stamps or replay with --mono")
        }
        let fraction = Double(unpairedFrames) / Double(cam0Frames + cam1Frames)
        let counts = "\(unpairedFrames) of \(cam0Frames + cam1Frames) frames have no partner "
            + "(\(name0) \(cam0Frames) rows, \(name1) \(cam1Frames), \(pairs) pairs, median offset of the unpaired \(skew))"
        guard fraction <= Self.maximumUnpairedFraction else {
            throw DatasetError(.inconsistentStreams, file: file,
                               counts + "; more than \(Int(Self.maximumUnpairedFraction * 100)) % unpaired: fix the "
                               + "recording or replay with --mono")
        }
        return "stereo: " + counts + "; a cam0 frame without its partner is tracked with cam0 alone, a cam1 frame alone is skipped"
    }
}
