import Foundation
import ParallaxImaging

/// The images taken at one instant: both cameras of a stereo pair, or one camera alone.
///
/// Holds only file references; decode with ``CameraFrame/loadImage()`` or ``loadGray8(_:)``.
public struct FrameEvent: Sendable, Equatable {
    /// Time in nanoseconds (shared by the frames).
    public var timestampNs: Int64
    /// The frame of `cam0`, nil when only `cam1` has an image at this time.
    public var cam0: CameraFrame?
    /// The frame of `cam1`, nil for a monocular dataset or when the partner frame is missing.
    public var cam1: CameraFrame?

    /// Creates an event.
    public init(timestampNs: Int64, cam0: CameraFrame?, cam1: CameraFrame?) {
        self.timestampNs = timestampNs
        self.cam0 = cam0
        self.cam1 = cam1
    }

    /// Time in seconds.
    public var timestamp: Double { seconds(fromNanoseconds: timestampNs) }
    /// True when both cameras have a frame.
    public var isStereoPair: Bool { cam0 != nil && cam1 != nil }
    /// The frames present, cam0 first.
    public var frames: [CameraFrame] { [cam0, cam1].compactMap { $0 } }

    /// Decodes camera `index` (0 or 1) as 8-bit grey; nil when that camera has no frame here.
    public func loadGray8(_ index: Int) throws -> GrayImage? {
        guard let f = index == 0 ? cam0 : cam1 else { return nil }
        return try f.loadGray8()
    }
}

/// One event of a replay, in time order.
public enum ReplayEvent: Sendable, Equatable {
    /// An IMU sample.
    case imu(IMUSample)
    /// One or two camera frames taken at the same time.
    case frame(FrameEvent)
    /// A ground-truth state (only when the replay was asked to include ground truth).
    case groundTruth(GroundTruthState)

    /// The event's time in nanoseconds.
    public var timestampNs: Int64 {
        switch self {
        case .imu(let s): return s.timestampNs
        case .frame(let f): return f.timestampNs
        case .groundTruth(let g): return g.timestampNs
        }
    }

    /// The event's time in seconds.
    public var timestamp: Double { seconds(fromNanoseconds: timestampNs) }
}
