/// The definitions and ROS 1 MD5 sums of the message types Parallax writes, as ROS tools state
/// them (generated with the `rosbags` type store; see Tests/ParallaxRecordingsTests/Fixtures/make_fixtures.py).
/// Reading never uses these: it parses the definitions each file carries.
public enum StandardMessageType: String, Sendable, CaseIterable {
    case imu = "sensor_msgs/Imu"
    case image = "sensor_msgs/Image"
    case compressedImage = "sensor_msgs/CompressedImage"
    case string = "std_msgs/String"

    /// The type name as ROS 2 and MCAP's ros2msg schemas spell it (`sensor_msgs/msg/Imu`).
    public var ros2Name: String {
        let parts = rawValue.split(separator: "/")
        return "\(parts[0])/msg/\(parts[1])"
    }

    /// The type's own fields (the first section of its definition).
    private var body: String {
        switch self {
        case .imu:
            """
            std_msgs/Header header
            geometry_msgs/Quaternion orientation
            float64[9] orientation_covariance
            geometry_msgs/Vector3 angular_velocity
            float64[9] angular_velocity_covariance
            geometry_msgs/Vector3 linear_acceleration
            float64[9] linear_acceleration_covariance
            """
        case .image:
            """
            std_msgs/Header header
            uint32 height
            uint32 width
            string encoding
            uint8 is_bigendian
            uint32 step
            uint8[] data
            """
        case .compressedImage: "std_msgs/Header header\nstring format\nuint8[] data"
        case .string: "string data"
        }
    }

    /// The types the definition uses, in the order ROS tools list them.
    private func dependencies(_ version: ROSVersion) -> [String] {
        let header = version == .ros1 ? ["std_msgs/Header"] : ["std_msgs/Header", "builtin_interfaces/Time"]
        switch self {
        case .imu: return header + ["geometry_msgs/Quaternion", "geometry_msgs/Vector3"]
        case .image, .compressedImage: return header
        case .string: return []
        }
    }

    private static func section(_ name: String, _ version: ROSVersion) -> String {
        switch name {
        case "std_msgs/Header":
            version == .ros1 ? "uint32 seq\ntime stamp\nstring frame_id" : "builtin_interfaces/Time stamp\nstring frame_id"
        case "builtin_interfaces/Time": "int32 sec\nuint32 nanosec"
        case "geometry_msgs/Quaternion": "float64 x\nfloat64 y\nfloat64 z\nfloat64 w"
        default: "float64 x\nfloat64 y\nfloat64 z"  // geometry_msgs/Vector3
        }
    }

    /// The full definition text (with its dependencies) for `version`, as `gendeps --cat` and
    /// rosbag write it: sections separated by 80 `=` and `MSG: package/Type` lines.
    public func definition(_ version: ROSVersion) -> String {
        var text = body + "\n"
        for name in dependencies(version) {
            text += String(repeating: "=", count: 80) + "\nMSG: \(name)\n" + Self.section(name, version) + "\n"
        }
        return text
    }

    /// The MD5 sum ROS 1 connection headers carry for this type.
    public var md5: String {
        switch self {
        case .imu: "6a62c6daae103f4ff57a132d6f95cec2"
        case .image: "060021388200f6f0f447d0fcd9c64743"
        case .compressedImage: "8f7a12909da2c9d3332d540a0977563f"
        case .string: "992ce8a1687cec8c8bd883ec73ca41d1"
        }
    }

    /// The parsed schema for `version`.
    public func schema(_ version: ROSVersion) -> MessageSchema {
        // The texts above are fixed and parse; a failure here is a bug in this file.
        do { return try MessageSchema(typeName: rawValue, text: definition(version), version: version) } catch {
            preconditionFailure("built-in definition of \(rawValue) does not parse: \(error)")
        }
    }
}
