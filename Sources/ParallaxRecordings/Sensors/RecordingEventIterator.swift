import Foundation
import ParallaxDatasets
import ParallaxImaging

/// One pass over a ``RecordingSource``: the file's IMU and image messages turned into replay
/// events, put in header-stamp order through the source's reorder window, stereo images paired.
final class RecordingEventIterator: SensorEventIterator {
    private let stream: SensorStream
    private let cameras: [CameraCalibration]
    private let file: String
    private let reorderWindowNs: Int64
    private let windowNs: ClosedRange<Int64>?
    /// Events not yet delivered, sorted by (stamp, IMU before frame).
    private var held = HeldEvents()
    private var newestStamp: Int64 = .min
    private var lastDelivered: EventKey?
    private var lastIMU: Int64?
    private var lastFrame: [Int64?]
    private var endOfFile = false
    private var finished = false
    private var dropped = 0
    private(set) var unpairedFrames = 0
    private var notes = ReadDiagnostics()

    init(source: RecordingSource, windowNs: ClosedRange<Int64>?) throws {
        stream = try source.openStream()
        cameras = source.cameras
        file = source.url.path
        reorderWindowNs = source.reorderWindowNs
        self.windowNs = windowNs
        lastFrame = Array(repeating: nil, count: source.cameras.count)
    }

    /// Warnings: messages dropped as late or duplicated, damage skipped under ``DamagePolicy/stopWithWarning``.
    var diagnostics: ReadDiagnostics {
        var d = notes
        if dropped > 0 {
            d.warnings.append("\(file): \(dropped) message(s) older than, or as old as, one already delivered were dropped")
        }
        d.warnings += stream.warnings
        return d
    }

    func next() throws -> ReplayEvent? {
        while !finished {
            if let first = held.first, endOfFile || first.timestampNs < newestStamp &- reorderWindowNs,
               let event = held.popFirst() {
                if let delivered = try deliver(event) { return delivered }
                continue
            }
            if endOfFile { finished = true; break }
            guard let reading = try stream.next() else { endOfFile = true; continue }
            try hold(reading)
        }
        return nil
    }

    /// Applies the time window and the ordering checks to the oldest held event.
    private func deliver(_ event: ReplayEvent) throws -> ReplayEvent? {
        let key = EventKey(event)
        if let last = lastDelivered, key <= last {
            dropped += 1
            return nil
        }
        lastDelivered = key
        if let windowNs {
            if event.timestampNs > windowNs.upperBound { finished = true; return nil }
            if event.timestampNs < windowNs.lowerBound { return nil }
        }
        if case .frame(let f) = event, cameras.count == 2, !f.isStereoPair { unpairedFrames += 1 }
        return event
    }

    /// Converts a reading to an event and inserts it in order.
    private func hold(_ reading: SensorReading) throws {
        let event: ReplayEvent
        switch reading {
        case .imu(let s):
            if let last = lastIMU, s.timestampNs <= last { dropped += 1; return }
            lastIMU = s.timestampNs
            event = .imu(s)
        case .image(let image):
            if let last = lastFrame[image.camera], image.timestampNs <= last { dropped += 1; return }
            lastFrame[image.camera] = image.timestampNs
            let frame = try cameraFrame(image)
            event = .frame(FrameEvent(timestampNs: image.timestampNs, cam0: image.camera == 0 ? frame : nil,
                                      cam1: image.camera == 1 ? frame : nil))
        }
        newestStamp = max(newestStamp, event.timestampNs)
        held.insert(event)
    }

    /// The frame of one image message: raw pixels decoded now, compressed bytes kept for the decoder.
    private func cameraFrame(_ image: RecordedImage) throws -> CameraFrame {
        let c = cameras[image.camera]
        let content: FrameContent
        switch image.payload {
        case .raw: content = .pixels(try image.load())
        case .compressed(let m):
            guard let decoder = CompressedImageDecoder(sniffing: m.data) else {
                throw RecordingError(.image, file: file, topic: image.topic, messageIndex: image.messageIndex,
                                     "format '\(m.format)': payload is neither PNG nor JPEG (supported: png, jpeg)")
            }
            content = .encoded(EncodedImage(bytes: m.data, decoder: decoder))
        }
        return CameraFrame(camera: c.name, timestampNs: image.timestampNs, content: content,
                           label: "\(file) (topic \(image.topic), message \(image.messageIndex))",
                           recording: URL(fileURLWithPath: file), expectedWidth: c.width, expectedHeight: c.height)
    }
}
