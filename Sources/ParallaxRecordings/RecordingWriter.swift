/// A writer of bag or MCAP files, fed channel by channel and message by message.
public protocol RecordingWriter: AnyObject {
    /// The container format written.
    var format: RecordingFormat { get }
    /// The serialization messages must be in (`ros1` for bags and ROS 1 MCAP, `cdr` for ROS 2 MCAP).
    var messageEncoding: MessageEncoding { get }
    /// Declares a topic of type `type` (`package/Type`) with its definition text and (ROS 1) MD5
    /// sum; returns the id that ``write(channel:logTimeNs:data:)`` takes.
    func addChannel(topic: String, type: String, definition: String, md5: String) throws -> Int
    /// Appends one serialized message. Log times may not be negative.
    func write(channel: Int, logTimeNs: Int64, data: [UInt8]) throws
    /// Writes the index or summary and closes the file. Further writes throw.
    func finish() throws
}

extension RecordingWriter {
    /// Declares a topic of one of the types Parallax writes, with the definition for this writer's encoding.
    public func addChannel(topic: String, type: StandardMessageType) throws -> Int {
        let version = messageEncoding.rosVersion
        return try addChannel(topic: topic, type: version == .ros1 ? type.rawValue : type.ros2Name,
                              definition: type.definition(version), md5: type.md5)
    }
}
