import ParallaxDatasets
import ParallaxMath

/// A `std_msgs/Header`'s time and frame, from either ROS version.
public struct MessageHeader: Sendable, Equatable {
    /// The stamp in nanoseconds.
    public var stampNs: Int64
    /// The coordinate frame name.
    public var frameId: String

    /// Creates a header.
    public init(stampNs: Int64, frameId: String) {
        self.stampNs = stampNs
        self.frameId = frameId
    }

    /// Reads `header` from a decoded message (`stamp.sec` with `stamp.nsec` or `stamp.nanosec`).
    init(_ fields: MessageFields) throws {
        guard case .message(let header)? = fields["header"], case .message(let stamp)? = header["stamp"],
              let sec = stamp["sec"]?.int64, let nsec = (stamp["nsec"] ?? stamp["nanosec"])?.int64 else {
            throw FieldError("has no header.stamp with sec and nsec/nanosec")
        }
        let (ns, overflow) = sec.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow, nsec >= 0, nsec < 1_000_000_000 else { throw FieldError("header.stamp \(sec) s \(nsec) ns is out of range") }
        stampNs = ns + nsec
        if case .string(let f)? = header["frame_id"] { frameId = f } else { frameId = "" }
    }

    /// The header as fields for `version` (`seq` is ROS 1 only).
    func fields(_ version: ROSVersion, seq: UInt32) -> MessageValue {
        let sec = stampNs >= 0 ? stampNs / 1_000_000_000 : (stampNs - 999_999_999) / 1_000_000_000
        let nsec = stampNs - sec * 1_000_000_000
        switch version {
        case .ros1:
            return .message(MessageFields([
                ("seq", .uint(UInt64(seq))),
                ("stamp", .message(MessageFields([("sec", .uint(UInt64(sec))), ("nsec", .uint(UInt64(nsec)))]))),
                ("frame_id", .string(frameId)),
            ]))
        case .ros2:
            return .message(MessageFields([
                ("stamp", .message(MessageFields([("sec", .int(sec)), ("nanosec", .uint(UInt64(nsec)))]))),
                ("frame_id", .string(frameId)),
            ]))
        }
    }
}

/// `sensor_msgs/Imu`: angular velocity (rad/s) and linear acceleration (m/s²) in the IMU frame.
public struct ImuMessage: Sendable, Equatable {
    /// Stamp and frame.
    public var header: MessageHeader
    /// The orientation estimate, when the driver gives one (covariance[0] = −1 means none).
    public var orientation: Quaternion
    /// Angular velocity, rad/s.
    public var angularVelocity: Vector3
    /// Specific force, m/s².
    public var linearAcceleration: Vector3

    /// Creates a message.
    public init(header: MessageHeader, orientation: Quaternion = Quaternion(w: 1, x: 0, y: 0, z: 0),
                angularVelocity: Vector3, linearAcceleration: Vector3) {
        self.header = header
        self.orientation = orientation
        self.angularVelocity = angularVelocity
        self.linearAcceleration = linearAcceleration
    }

    /// Reads the fields by name from a decoded message.
    public init(_ fields: MessageFields) throws {
        header = try MessageHeader(fields)
        func vector(_ name: String) throws -> Vector3 {
            guard case .message(let v)? = fields[name], let x = v["x"]?.double, let y = v["y"]?.double, let z = v["z"]?.double else {
                throw FieldError("has no \(name) with x, y, z")
            }
            return Vector3(x, y, z)
        }
        angularVelocity = try vector("angular_velocity")
        linearAcceleration = try vector("linear_acceleration")
        if case .message(let q)? = fields["orientation"], let w = q["w"]?.double, let x = q["x"]?.double,
           let y = q["y"]?.double, let z = q["z"]?.double {
            orientation = Quaternion(w: w, x: x, y: y, z: z)
        } else {
            orientation = Quaternion(w: 1, x: 0, y: 0, z: 0)
        }
    }

    /// The sample a dataset replay uses (stamped by the header).
    public var sample: IMUSample {
        IMUSample(timestampNs: header.stampNs, angularVelocity: angularVelocity, acceleration: linearAcceleration)
    }

    /// The message as fields for `version`; orientation covariance −1 marks "no orientation", as REP 145 asks.
    public func fields(_ version: ROSVersion, seq: UInt32 = 0) -> MessageFields {
        func vector(_ v: Vector3) -> MessageValue {
            .message(MessageFields([("x", .float(v.x)), ("y", .float(v.y)), ("z", .float(v.z))]))
        }
        let q = orientation
        var unknown = [MessageValue](repeating: .float(0), count: 9)
        unknown[0] = .float(-1)
        let zeros = [MessageValue](repeating: .float(0), count: 9)
        return MessageFields([
            ("header", header.fields(version, seq: seq)),
            ("orientation", .message(MessageFields([("x", .float(q.x)), ("y", .float(q.y)), ("z", .float(q.z)), ("w", .float(q.w))]))),
            ("orientation_covariance", .array(unknown)),
            ("angular_velocity", vector(angularVelocity)),
            ("angular_velocity_covariance", .array(zeros)),
            ("linear_acceleration", vector(linearAcceleration)),
            ("linear_acceleration_covariance", .array(zeros)),
        ])
    }
}

/// `sensor_msgs/Image`: raw pixels with an encoding name (`mono8`, `rgb8`, …) and a row stride.
public struct ImageMessage: Sendable, Equatable {
    /// Stamp and frame.
    public var header: MessageHeader
    /// Rows and columns.
    public var height: Int, width: Int
    /// The pixel encoding (`mono8`, `mono16`, `rgb8`, `bgr8`, `rgba8`, `bgra8`, `8UC1`, `16UC1`, …).
    public var encoding: String
    /// True when 16-bit samples are big-endian.
    public var isBigEndian: Bool
    /// Bytes per row (at least width × bytes per pixel).
    public var step: Int
    /// The pixel rows.
    public var data: [UInt8]

    /// Creates a message.
    public init(header: MessageHeader, height: Int, width: Int, encoding: String, isBigEndian: Bool = false, step: Int,
                data: [UInt8]) {
        self.header = header
        self.height = height
        self.width = width
        self.encoding = encoding
        self.isBigEndian = isBigEndian
        self.step = step
        self.data = data
    }

    /// Reads the fields by name from a decoded message.
    public init(_ fields: MessageFields) throws {
        header = try MessageHeader(fields)
        guard let h = fields["height"]?.int64, let w = fields["width"]?.int64, let s = fields["step"]?.int64,
              case .string(let e)? = fields["encoding"], case .bytes(let d)? = fields["data"] else {
            throw FieldError("lacks height, width, step, encoding or data")
        }
        height = Int(h)
        width = Int(w)
        step = Int(s)
        encoding = e
        isBigEndian = (fields["is_bigendian"]?.int64 ?? 0) != 0
        data = d
    }

    /// The message as fields for `version`.
    public func fields(_ version: ROSVersion, seq: UInt32 = 0) -> MessageFields {
        MessageFields([
            ("header", header.fields(version, seq: seq)),
            ("height", .uint(UInt64(height))), ("width", .uint(UInt64(width))),
            ("encoding", .string(encoding)), ("is_bigendian", .uint(isBigEndian ? 1 : 0)),
            ("step", .uint(UInt64(step))), ("data", .bytes(data)),
        ])
    }
}

/// `sensor_msgs/CompressedImage`: a PNG or JPEG file's bytes with a `format` string (`jpeg`, `png`,
/// or `mono8; jpeg compressed mono8` as image_transport writes).
public struct CompressedImageMessage: Sendable, Equatable {
    /// Stamp and frame.
    public var header: MessageHeader
    /// The format description.
    public var format: String
    /// The encoded image.
    public var data: [UInt8]

    /// Creates a message.
    public init(header: MessageHeader, format: String, data: [UInt8]) {
        self.header = header
        self.format = format
        self.data = data
    }

    /// Reads the fields by name from a decoded message.
    public init(_ fields: MessageFields) throws {
        header = try MessageHeader(fields)
        guard case .string(let f)? = fields["format"], case .bytes(let d)? = fields["data"] else {
            throw FieldError("lacks format or data")
        }
        format = f
        data = d
    }

    /// The message as fields for `version`.
    public func fields(_ version: ROSVersion, seq: UInt32 = 0) -> MessageFields {
        MessageFields([("header", header.fields(version, seq: seq)), ("format", .string(format)), ("data", .bytes(data))])
    }
}

/// A decoded message that lacks a field the typed view needs.
struct FieldError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
