import Foundation
import ParallaxMath

/// Converts integer nanoseconds (as stored in the files) to seconds (as used in the API).
@inlinable public func seconds(fromNanoseconds ns: Int64) -> Double { Double(ns) * 1e-9 }

/// One row of `mav0/imu0/data.csv`: angular velocity and specific force in the IMU frame.
public struct IMUSample: Sendable, Equatable {
    /// Time in nanoseconds, exactly as in the file.
    public var timestampNs: Int64
    /// `w_RS_S`: angular velocity in rad/s, in the sensor (IMU) frame.
    public var angularVelocity: Vector3
    /// `a_RS_S`: specific force in m/s², in the sensor frame (+9.81 along "up" at rest).
    public var acceleration: Vector3

    /// Creates a sample.
    public init(timestampNs: Int64, angularVelocity: Vector3, acceleration: Vector3) {
        self.timestampNs = timestampNs
        self.angularVelocity = angularVelocity
        self.acceleration = acceleration
    }

    /// Time in seconds.
    public var timestamp: Double { seconds(fromNanoseconds: timestampNs) }
}

/// One row of `mav0/state_groundtruth_estimate0/data.csv`: the full estimated state.
public struct GroundTruthState: Sendable, Equatable {
    /// Time in nanoseconds.
    public var timestampNs: Int64
    /// `p_RS_R`: body position in the world (reference) frame, metres.
    public var position: Vector3
    /// `q_RS` (stored w first): body orientation in the world frame, exactly as in the file.
    public var orientation: Quaternion
    /// `v_RS_R`: body velocity in the world frame, m/s.
    public var velocity: Vector3
    /// `b_w_RS_S`: gyroscope bias, rad/s.
    public var gyroscopeBias: Vector3
    /// `b_a_RS_S`: accelerometer bias, m/s².
    public var accelerometerBias: Vector3

    /// Creates a state.
    public init(timestampNs: Int64, position: Vector3, orientation: Quaternion, velocity: Vector3,
                gyroscopeBias: Vector3, accelerometerBias: Vector3) {
        self.timestampNs = timestampNs; self.position = position; self.orientation = orientation
        self.velocity = velocity; self.gyroscopeBias = gyroscopeBias; self.accelerometerBias = accelerometerBias
    }

    /// Time in seconds.
    public var timestamp: Double { seconds(fromNanoseconds: timestampNs) }
    /// The pose `T_world_body` (orientation normalised).
    public var T_world_body: RigidTransform { RigidTransform(rotation: orientation.normalized, translation: position) }
}

/// One row of a position-only ground truth (`leica0`, `gt0`): `p_RS_R` in metres.
public struct PositionSample: Sendable, Equatable {
    /// Time in nanoseconds.
    public var timestampNs: Int64
    /// Position of the tracked prism/marker in the world frame, metres.
    public var position: Vector3

    /// Creates a sample.
    public init(timestampNs: Int64, position: Vector3) {
        self.timestampNs = timestampNs
        self.position = position
    }

    /// Time in seconds.
    public var timestamp: Double { seconds(fromNanoseconds: timestampNs) }
}

/// One row of `mav0/camN/data.csv`: a reference to an image file, loaded only on demand.
public struct CameraFrame: Sendable, Equatable {
    /// The camera folder name (`cam0`, `cam1`).
    public var camera: String
    /// Time in nanoseconds.
    public var timestampNs: Int64
    /// The file name as written in `data.csv` (relative to `camN/data/`).
    public var filename: String
    /// The image file's location. For a frame held in memory (``content`` is not
    /// ``FrameContent/file``) the recording it came from, or `/dev/null` for a live frame.
    public var url: URL
    /// The resolution promised by `sensor.yaml`; ``loadImage()`` checks the file against it.
    public var expectedWidth: Int, expectedHeight: Int
    /// Where the pixels are: the file at ``url`` (the default), or in memory.
    public var content: FrameContent = .file

    /// Creates a frame reference.
    public init(camera: String, timestampNs: Int64, filename: String, url: URL, expectedWidth: Int, expectedHeight: Int) {
        self.camera = camera; self.timestampNs = timestampNs; self.filename = filename; self.url = url
        self.expectedWidth = expectedWidth; self.expectedHeight = expectedHeight
    }

    /// Time in seconds.
    public var timestamp: Double { seconds(fromNanoseconds: timestampNs) }
    /// The image's path relative to the dataset folder, for messages.
    /// For a frame held in memory, its label (``filename``).
    public var displayPath: String { content == .file ? "mav0/\(camera)/data/\(filename)" : filename }
}
