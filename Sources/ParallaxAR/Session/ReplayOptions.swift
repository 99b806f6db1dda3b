import Foundation
import ParallaxTracking

/// Where camera poses come from.
public enum PoseSourceKind: String, Sendable, Hashable, CaseIterable {
    /// The dataset's ground-truth trajectory (oracle): tests scene understanding apart from
    /// tracking error. 3D feature points are still triangulated from the real images.
    case groundTruth = "groundtruth"
    /// The visual–inertial tracker (ParallaxTracking) run on the dataset's IMU and images.
    case tracking
}

/// How fast the dataset is replayed.
public enum ReplayPace: Sendable, Equatable {
    /// As fast as the processing allows (deterministic, the default).
    case asFastAsPossible
    /// At the recording's pace times `speed` (1 = real time); frames wait for their wall-clock time.
    case realTime(speed: Double)
}

/// Replay settings of a ``Session``.
public struct ReplayOptions: Sendable, Equatable {
    /// Pose source.
    public var source: PoseSourceKind = .groundTruth
    /// Pace.
    public var pace: ReplayPace = .asFastAsPossible
    /// Start, seconds after the dataset start (nil: beginning).
    public var startTime: Double?
    /// Stop, seconds after the dataset start (nil: end), inclusive.
    public var stopTime: Double?
    /// Seed of the anchor identifiers.
    public var seed: UInt64 = 0
    /// Cameras the tracker uses (``PoseSourceKind/tracking``): `.stereo` needs a two-camera
    /// dataset and falls back to mono on one camera; nil (the default) is stereo when the dataset
    /// has two cameras. Mono also skips decoding cam1's images.
    public var trackerMode: TrackerConfiguration.Mode?

    /// Creates options.
    public init(source: PoseSourceKind = .groundTruth, pace: ReplayPace = .asFastAsPossible,
                startTime: Double? = nil, stopTime: Double? = nil, seed: UInt64 = 0,
                trackerMode: TrackerConfiguration.Mode? = nil) {
        self.source = source
        self.pace = pace
        self.startTime = startTime
        self.stopTime = stopTime
        self.seed = seed
        self.trackerMode = trackerMode
    }
}
