import CFuzzDriver
import Foundation
import FuzzSupport
import ParallaxRecordings

// Fuzzes the recording readers: the input is written to a scratch file and opened as a ROS 1 bag
// or an MCAP file (recognised by its first bytes, as `replay` and `info` do), under both damage
// policies; every message is decoded with the definition its channel carries, and IMU, image and
// compressed-image messages are turned into samples and pixels (PNG and JPEG decoders included).

private let scratch = ScratchFolder("recording")
private let maximumMessages = 2_000

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRecording(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let url = scratch.url.appendingPathComponent("input")
    guard (try? Data(FuzzInput.bytes(data, size)).write(to: url)) != nil else { return 0 }
    for policy in [DamagePolicy.fail, .stopWithWarning] {
        guard let reader = try? Recordings.open(url, damage: policy) else { continue }
        var count = 0
        while count < maximumMessages, let message = try? reader.next() {
            count += 1
            decode(message, channel: reader.channels[message.channel])
        }
    }
    _ = try? RecordingSummary(url: url, damage: .stopWithWarning)
    return 0
}

/// Decodes one message as its channel describes it, down to samples and pixels.
private func decode(_ message: RecordedMessage, channel: RecordingChannel?) {
    guard let channel, let encoding = channel.encoding,
          let schema = try? MessageSchema(typeName: channel.type, text: channel.definition,
                                          version: encoding == .ros1 ? .ros1 : .ros2),
          let fields = try? MessageCodec(schema: schema, encoding: encoding).decode(message.data) else { return }
    if let imu = try? ImuMessage(fields) { _ = imu.sample }
    if let image = try? ImageMessage(fields) { _ = try? image.image() }
    if let image = try? CompressedImageMessage(fields) { _ = try? image.image() }
}

/// The entry point SwiftPM links as `main`: libFuzzer's driver with this target's callback.
@_cdecl("FuzzRecording_main")
public func fuzzRecordingMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    pxfuzz_run(argc, argv, fuzzRecording)
}
