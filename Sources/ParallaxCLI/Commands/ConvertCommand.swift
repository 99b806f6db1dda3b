import ArgumentParser
import Foundation
import ParallaxDatasets
import ParallaxRecordings

/// `parallax convert SRC DST`: copies a sensor recording between an EuRoC/ASL folder, a ROS 1
/// bag and an MCAP file, the formats chosen by the paths.
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert between an EuRoC/ASL folder, a ROS 1 bag (.bag) and an MCAP file (.mcap).",
        discussion: """
            The output format follows DST: a path ending in .bag is a ROS 1 bag (v2.0), .mcap an MCAP \
            file, anything else a dataset folder (mav0 is created inside it). IMU samples and images \
            are copied exactly (timestamps to the nanosecond, images lossless) on the topics /imu0, \
            /cam0/image_raw and /cam1/image_raw, so the result replays like the source. A recording \
            read as the source needs --calibration (see below); ground truth is not copied.
            """)

    @OptionGroup var input: DatasetArgument

    @Argument(help: "Output: a .bag file, a .mcap file, or a folder.")
    var destination: String

    @Option(help: "Chunk compression: bag none, bz2 or lz4 (default lz4); MCAP none, lz4 or zstd (default zstd).")
    var compression: String?

    @Option(help: "Images in a bag or MCAP file: raw (sensor_msgs/Image, as EuRoC's bags) or png (CompressedImage).")
    var images: String = RecordedImageStorage.raw.rawValue

    @Option(help: "MCAP message encoding: cdr (ROS 2, the default) or ros1.")
    var mcapEncoding: String = MessageEncoding.cdr.rawValue

    @Flag(help: "Replace an existing output.")
    var overwrite = false

    func validate() throws {
        guard RecordedImageStorage(rawValue: images) != nil else {
            throw ValidationError("--images must be raw or png, got '\(images)'")
        }
        guard MessageEncoding(rawValue: mcapEncoding) != nil else {
            throw ValidationError("--mcap-encoding must be cdr or ros1, got '\(mcapEncoding)'")
        }
        if let compression {
            let allowed: [ChunkCompression]
            switch RecordingFormat(path: destination) {
            case .rosbag: allowed = [.none, .bz2, .lz4]
            case .mcap: allowed = [.none, .lz4, .zstd]
            case nil: throw ValidationError("--compression applies to a .bag or .mcap output, not the folder \(destination)")
            }
            guard let c = ChunkCompression(rawValue: compression), allowed.contains(c) else {
                throw ValidationError("--compression for \(destination) must be one of \(allowed.map(\.rawValue).joined(separator: ", ")), got '\(compression)'")
            }
        }
        if URL(fileURLWithPath: destination).standardizedFileURL == input.url.standardizedFileURL {
            throw ValidationError("the output \(destination) is the input")
        }
    }

    func run() throws {
        let source = try input.openSource()
        let output = URL(fileURLWithPath: destination)
        let counts: ConversionCounts
        let storage = RecordedImageStorage(rawValue: images) ?? .raw
        if let format = RecordingFormat(path: destination) {
            if FileManager.default.fileExists(atPath: output.path) {
                guard overwrite else { throw CLIError("\(destination) already exists (pass --overwrite to replace it)") }
                try? FileManager.default.removeItem(at: output)
            }
            let writer: any RecordingWriter
            switch format {
            case .rosbag:
                writer = try BagWriter(url: output, compression: compression.flatMap(ChunkCompression.init(rawValue:)) ?? .lz4)
            case .mcap:
                writer = try MCAPWriter(url: output, encoding: MessageEncoding(rawValue: mcapEncoding) ?? .cdr,
                                        chunking: compression.flatMap(ChunkCompression.init(rawValue:)) ?? .zstd)
            }
            do { counts = try RecordingConversion.write(source, to: writer, images: storage) } catch {
                try? FileManager.default.removeItem(at: output)  // no half-written file left behind
                throw error
            }
        } else {
            counts = try RecordingConversion.writeFolder(source, to: output, overwrite: overwrite)
        }
        print("wrote \(destination): \(counts.imuSamples) IMU samples, "
              + counts.images.enumerated().map { "cam\($0.offset) \($0.element) images" }.joined(separator: ", "))
    }
}
