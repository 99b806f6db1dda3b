import ArgumentParser
import Foundation
import ParallaxDatasets
import ParallaxImaging
import ParallaxMath
import ParallaxRecordings

/// `parallax bench replay-memory`: evidence that replaying a dataset takes constant memory.
///
/// Writes a short and a long synthetic stereo-inertial dataset with ``EuRoCWriter`` (IMU
/// 200 Hz, two 64×48 cameras at 20 Hz, real PNG files), then replays each in a fresh child
/// process — decoding every image — and reports that process's peak resident set size
/// (`VmHWM` from `/proc/self/status`). A fresh process per replay keeps the generator's own
/// allocations out of the measurement. Flat memory means the two peaks differ by at most a few MB.
/// `--container bag|mcap` converts each dataset into that container first (raw images, lz4 or
/// zstd chunks) and replays the file, so the recording readers are measured the same way.
struct BenchReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay-memory",
        abstract: "Measure the peak memory of replaying a short and a long synthetic dataset.")

    @Option(parsing: .unconditional, help: "Length of the short dataset in seconds (at most \(Int(Self.maxSeconds))).")
    var shortSeconds: Double = 10

    @Option(parsing: .unconditional, help: "Length of the long dataset in seconds (at most \(Int(Self.maxSeconds))).")
    var longSeconds: Double = 600

    @Option(help: "Folder for the generated datasets (default: a temporary folder, removed afterwards).")
    var directory: String?

    @Option(help: "What to replay: the generated folder, or it converted to a ROS 1 bag or an MCAP file.")
    var container: BenchContainer = .folder

    /// Internal: the child process replays this dataset and prints one line (see ``runChild(_:)``).
    @Option(help: .hidden)
    var replayOnly: String?

    /// The longest generated dataset, in seconds: two hours are 1.4 M IMU rows and 288 k small PNGs.
    static let maxSeconds = 7200.0

    func validate() throws {
        try NumberChecks.positive(shortSeconds, "--short-seconds", atMost: Self.maxSeconds, unit: "s")
        try NumberChecks.positive(longSeconds, "--long-seconds", atMost: Self.maxSeconds, unit: "s")
    }

    func run() throws {
        if let replayOnly { return try replayAndMeasure(replayOnly) }
        let base = directory.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("parallax-bench-\(getpid())")
        defer { if directory == nil { try? FileManager.default.removeItem(at: base) } }
        var results: [(Double, String)] = []
        for secs in [shortSeconds, longSeconds] {
            let url = base.appendingPathComponent("synthetic-\(Int(secs))s")
            let start = Date()
            try SyntheticRecording.write(to: url, seconds: secs)
            let replayed = try container.convert(url)
            print("generated \(replayed.path) (\(Int(secs)) s, \(Self.megabytes(replayed)) MB) in "
                  + String(format: "%.1f", Date().timeIntervalSince(start)) + " s")
            results.append((secs, try runChild(replayed.path)))
        }
        print("\(container.rawValue): duration_s  events  frames  replay_s  peak_rss_MB")
        for (secs, line) in results { print(String(format: "%10.0f  ", secs) + line) }
    }

    /// Re-runs this executable with the same command path plus `--replay-only`.
    private func runChild(_ path: String) throws -> String {
        let args = CommandLine.arguments
        let index = args.firstIndex(of: Self.configuration.commandName ?? "replay-memory") ?? 0
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        p.arguments = Array(args[1...index]) + ["--replay-only", path]
        let pipe = Pipe()
        p.standardOutput = pipe
        try p.run()
        let out = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw CLIError("replay of \(path) failed (exit code \(p.terminationStatus))") }
        return String(decoding: out, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func replayAndMeasure(_ path: String) throws {
        let start = Date()
        let url = URL(fileURLWithPath: path)
        let source: any SensorSource
        if RecordingFormat(path: path) != nil {
            // The recording sits beside the folder it was converted from, whose sensor.yaml files apply.
            let folder = url.deletingPathExtension()
            source = try RecordingSource(url: url, calibration: try RecordingCalibration.load(cameras: folder, imu: nil))
        } else {
            source = try EuRoCDataset(url: url)
        }
        var events = 0, frames = 0, checksum = 0
        try source.makeEvents().forEach { e in
            events += 1
            if case .frame(let f) = e {
                for frame in f.frames {
                    let image = try frame.loadGray8()
                    checksum &+= Int(image.pixels[image.pixels.count / 2])
                    frames += 1
                }
            }
        }
        let peakMB = Double(Self.peakResidentKB() ?? -1) / 1024
        print(String(format: "%6d  %6d  %8.2f  %11.1f", events, frames, Date().timeIntervalSince(start), peakMB)
              + "  (checksum \(checksum))")
    }

    /// The size of a file in MB (a folder: 0; only the containers' size is of interest).
    static func megabytes(_ url: URL) -> String {
        let bytes = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
        return String(format: "%.1f", Double(bytes) / 1e6)
    }

    /// `VmHWM` (peak resident set size) of this process in kB, from `/proc/self/status`.
    static func peakResidentKB() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "")
        }
        return nil
    }
}

/// The container `bench replay-memory` replays.
enum BenchContainer: String, ExpressibleByArgument, CaseIterable {
    case folder, bag, mcap

    /// `folder` converted into this container beside it (`folder.bag`, `folder.mcap`); the folder itself for `.folder`.
    func convert(_ folder: URL) throws -> URL {
        guard self != .folder else { return folder }
        let file = folder.appendingPathExtension(rawValue)
        try? FileManager.default.removeItem(at: file)  // a previous run's, with --directory
        let writer: any RecordingWriter = self == .bag
            ? try BagWriter(url: file, compression: .lz4)
            : try MCAPWriter(url: file, encoding: .cdr, chunking: .zstd)
        _ = try RecordingConversion.write(try EuRoCDataset(url: folder), to: writer, images: .raw)
        return file
    }
}

/// A synthetic stereo-inertial recording: a slow sinusoidal motion, IMU at 200 Hz, two small
/// cameras at 20 Hz with a moving texture, written row by row with ``EuRoCWriter``.
enum SyntheticRecording {
    static func write(to url: URL, seconds: Double) throws {
        let cam = CameraCalibration(
            name: "cam0", comment: "synthetic", T_body_camera: RigidTransform(translation: Vector3(0, -0.05, 0)),
            rateHz: 20, width: 64, height: 48, intrinsics: PinholeIntrinsics(fu: 40, fv: 40, cu: 31.5, cv: 23.5),
            distortion: .radialTangential(k1: 0, k2: 0, p1: 0, p2: 0))
        var cam1 = cam
        cam1.T_BS = RigidTransform(translation: Vector3(0, 0.05, 0)).matrix
        let imu = IMUCalibration(rateHz: 200, gyroscopeNoiseDensity: 1.7e-4, gyroscopeRandomWalk: 1.9e-5,
                                 accelerometerNoiseDensity: 2e-3, accelerometerRandomWalk: 3e-3)
        let writer = try EuRoCWriter(url: url, cameras: [cam, cam1], imu: imu, groundTruth: true, overwrite: true)
        let t0: Int64 = 1_000_000_000_000_000_000
        let imuPeriod: Int64 = 5_000_000, framePeriod: Int64 = 50_000_000
        let steps = Int64(seconds * 200)
        var noise: UInt64 = 0x9E37_79B9_7F4A_7C15
        for k in 0...steps {
            let t = t0 + k * imuPeriod
            let s = Double(k) / 200
            try writer.append(IMUSample(timestampNs: t, angularVelocity: Vector3(0.1 * sin(s), 0.05 * cos(s), 0.02),
                                        acceleration: Vector3(0.2 * cos(0.5 * s), 0, 9.81)))
            guard (t - t0) % framePeriod == 0 else { continue }
            let frame = k / 10
            try writer.append(GroundTruthState(
                timestampNs: t, position: Vector3(sin(0.5 * s), 0, 1), orientation: Quaternion(axis: Vector3(0, 0, 1), angle: 0.02 * s),
                velocity: Vector3(0.5 * cos(0.5 * s), 0, 0), gyroscopeBias: .zero, accelerometerBias: .zero))
            for c in 0..<2 {
                var pixels = [UInt8](repeating: 0, count: 64 * 48)
                for y in 0..<48 {
                    for x in 0..<64 {
                        noise = noise &* 6364136223846793005 &+ 1442695040888963407
                        let stripe = ((x + Int(frame) + 3 * c) / 4 + y / 6) % 2 == 0 ? 180 : 60
                        pixels[y * 64 + x] = UInt8(stripe + Int(noise >> 60))
                    }
                }
                try writer.appendImage(.gray8(try GrayImage(width: 64, height: 48, pixels: pixels)), camera: c, timestampNs: t)
            }
        }
        try writer.finish()
    }
}
