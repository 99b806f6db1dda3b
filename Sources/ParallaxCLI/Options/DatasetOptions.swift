import ArgumentParser
import Foundation
import ParallaxAR
import ParallaxDatasets
import ParallaxRecordings
import ParallaxTracking

/// The dataset every dataset command reads (the folder holding `mav0`, or `mav0` itself), and
/// Kalibr calibrations that replace its `sensor.yaml` files or supply what a recording lacks.
struct DatasetArgument: ParsableArguments {
    @Argument(help: """
        Dataset folder in the EuRoC/ASL or TUM-VI layout (the folder containing mav0, or mav0 itself), \
        or, where the command reads recordings, a ROS 1 bag (.bag) or an MCAP file (.mcap).
        """)
    var dataset: String

    @Option(help: ArgumentHelp("""
        Kalibr camchain (camchain-imucam.yaml): camera calibrations used instead of mav0/camN/sensor.yaml. \
        For a bag or MCAP file (which carry none): a camchain, one camera's EuRoC sensor.yaml, or an EuRoC \
        dataset folder whose sensor.yaml files apply.
        """, valueName: "camchain.yaml"))
    var calibration: String?

    @Option(help: ArgumentHelp("Kalibr imu.yaml (or an EuRoC imu0/sensor.yaml): IMU noise and rate used instead of mav0/imu0/sensor.yaml.",
                               valueName: "imu.yaml"))
    var imuCalibration: String?

    @Option(help: ArgumentHelp("Bag/MCAP: the sensor_msgs/Imu topic (found by type when there is one).", valueName: "topic"))
    var imuTopic: String?

    @Option(help: ArgumentHelp("""
        Bag/MCAP: a sensor_msgs/Image or CompressedImage topic, once per camera, cam0 first \
        (found by type, or from the camchain's rostopic, when unambiguous).
        """, valueName: "topic"))
    var cameraTopic: [String] = []

    @Flag(help: "Bag/MCAP: replay a damaged recording up to the damage, with a warning, instead of failing.")
    var partial = false

    @Option(help: "Camera rate (Hz) for a Kalibr camchain, which does not store it (0 < rate ≤ 1000).")
    var cameraRate: Double = 20

    /// The folder as a URL.
    var url: URL { URL(fileURLWithPath: dataset) }

    func validate() throws {
        try NumberChecks.positive(cameraRate, "--camera-rate", atMost: 1000, unit: "Hz")
    }

    /// Opens the dataset, with `--calibration` / `--imu-calibration` applied; `.lenient` skips
    /// malformed rows instead of failing.
    func open(policy: ReadPolicy = .strict) throws -> EuRoCDataset {
        try requireFolder(for: "this command")
        let folder = try EuRoCDataset(url: url, policy: policy)
        let (cameras, imu) = try kalibr()
        return cameras == nil && imu == nil ? folder : try folder.recalibrated(cameras: cameras, imu: imu)
    }

    /// Opens the input as a sensor source. Folders are EuRoC/ASL or TUM-VI datasets; ROS bags and
    /// MCAP files are read by ParallaxRecordings, which plugs in here.
    func openSource(policy: ReadPolicy = .strict) throws -> any SensorSource {
        guard isRecording else {
            if imuTopic != nil || !cameraTopic.isEmpty {
                throw CLIError("--imu-topic and --camera-topic apply to bags and MCAP files; \(dataset) is a dataset folder")
            }
            return try open(policy: policy)
        }
        guard let calibration else {
            throw CLIError("\(dataset): a recording carries no calibration; pass --calibration (Kalibr camchain, "
                           + "EuRoC sensor.yaml or dataset folder) and --imu-calibration")
        }
        let sensors = try RecordingCalibration.load(cameras: URL(fileURLWithPath: calibration),
                                                    imu: imuCalibration.map { URL(fileURLWithPath: $0) },
                                                    cameraRateHz: cameraRate)
        return try RecordingSource(url: url, calibration: sensors,
                                   selection: TopicSelection(imuTopic: imuTopic, cameraTopics: cameraTopic),
                                   damage: partial ? .stopWithWarning : .fail)
    }

    /// True for a `.bag` or `.mcap` path (or a file whose first bytes say it is one).
    var isRecording: Bool {
        if RecordingFormat(path: dataset) != nil { return true }
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: dataset, isDirectory: &isFolder) && !isFolder.boolValue
            && RecordingFormat.sniff(url) != nil
    }

    /// Fails for a bag or MCAP file: commands that need a dataset folder call this first.
    func requireFolder(for what: String) throws {
        if isRecording { throw CLIError("\(dataset): \(what) needs an EuRoC/ASL dataset folder; convert the recording with `parallax convert` first") }
    }

    /// The calibrations named by `--calibration` and `--imu-calibration` (nil when not given).
    func kalibr() throws -> (cameras: [CameraCalibration]?, imu: IMUCalibration?) {
        let cameras = try calibration.map {
            try KalibrCalibration(camchain: URL(fileURLWithPath: $0), rateHz: cameraRate).cameras
        }
        let imu = try imuCalibration.map { try KalibrCalibration.imu(contentsOf: URL(fileURLWithPath: $0)).calibration }
        return (cameras, imu)
    }
}

/// `--mono` / `--stereo`: which cameras the tracker uses.
enum CameraSelection: String, EnumerableFlag {
    case mono, stereo

    static func help(for value: CameraSelection) -> ArgumentHelp? {
        switch value {
        case .mono: "Use cam0 only."
        case .stereo: "Use cam0 and cam1 (the default when the dataset has two cameras)."
        }
    }
}

/// The camera choice shared by the tracking commands.
struct CameraOptions: ParsableArguments {
    @Flag var cameras: CameraSelection?

    /// The tracker mode for `data`: stereo when it has two cameras unless `--mono` was given.
    func mode(for data: any SensorSource, named name: String) throws -> TrackerConfiguration.Mode {
        if cameras == .stereo && !data.isStereo { throw CLIError("\(name) has one camera; --stereo needs two") }
        return cameras == .mono || !data.isStereo ? .mono : .stereo
    }
}

/// `--from` / `--to`: a window of the dataset in seconds after its first camera or IMU sample.
struct TimeRangeOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "Start time, seconds after the dataset start (≥ 0).")
    var from: Double?

    @Option(parsing: .unconditional, help: "End time, seconds after the dataset start (after --from).")
    var to: Double?

    func validate() throws { try Self.validate(from: from, to: to, names: ("--from", "--to")) }

    /// Checks a start and end in seconds given by the options `names`: finite, in range, in order.
    static func validate(from: Double?, to: Double?, names: (from: String, to: String)) throws {
        if let from { try NumberChecks.nonNegative(from, names.from, atMost: NumberChecks.maxSeconds, unit: "s") }
        if let to {
            try NumberChecks.positive(to, names.to, atMost: NumberChecks.maxSeconds, unit: "s")
            if let from, to <= from {
                throw ValidationError("\(names.to) must be after \(names.from), got \(names.from) \(NumberChecks.text(from)) \(names.to) \(NumberChecks.text(to))")
            }
        }
    }

    /// Throws when `--from` lies past the last camera frame of `data` (the replay would be empty).
    func check(against data: any SensorSource, named name: String) throws {
        if let from { try DatasetLength.check(from, option: "--from", within: data, named: name) }
    }
}

/// `--pose-source`: where the AR session's camera poses come from. One name and one default for
/// every command: `tracking` works on any dataset, `groundtruth` needs the dataset's
/// state_groundtruth_estimate0 and measures scene understanding apart from tracking error.
/// `--source` is the older spelling and still accepted.
struct PoseSourceOption: ParsableArguments {
    @Option(name: [.customLong("pose-source"), .customLong("source")],
            help: "Camera poses: tracking (the visual-inertial tracker) or groundtruth (the dataset's poses).")
    var poseSource: PoseSourceKind = .tracking
}

/// How long a dataset runs.
enum DatasetLength {
    /// Seconds from the dataset start (first camera or IMU sample) to its last cam0 frame.
    static func seconds(of data: any SensorSource) throws -> Double {
        guard let start = try data.startTimestampNs() else { return 0 }
        var last = start
        if let folder = data as? EuRoCDataset {
            // Only cam0's CSV: much cheaper than merging every stream.
            let frames = try folder.cameraStream(0)
            while let frame = try frames.next() { last = frame.timestampNs }
        } else {
            let events = try data.makeEvents(from: nil, to: nil, includeGroundTruth: false)
            while let event = try events.next() {
                if case .frame(let f) = event, f.cam0 != nil { last = f.timestampNs }
            }
        }
        return Double(last - start) / 1e9
    }

    /// Throws when `seconds`, the value of `option`, lies past the last cam0 frame of `data`.
    static func check(_ seconds: Double, option: String, within data: any SensorSource, named name: String) throws {
        try check(seconds, option: option, length: Self.seconds(of: data), named: name)
    }

    /// The same check against a length already read (several values against one dataset).
    static func check(_ seconds: Double, option: String, length: Double, named name: String) throws {
        guard seconds <= length else {
            throw CLIError("\(option) \(NumberChecks.text(seconds)) s is past the end of \(name) "
                           + "(\(String(format: "%.2f", length)) s long)")
        }
    }
}
