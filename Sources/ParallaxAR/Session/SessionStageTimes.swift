/// What the latest ``Session/nextFrame()`` cost, stage by stage: CPU milliseconds of the calling
/// thread (``ParallaxDatasets/ThreadClock``), so a benchmark can tell which stage grows over a long
/// session. Work on the mapping thread (loop detection, pose-graph optimisation) is not counted
/// here; the world mapper reports it per keyframe.
public struct SessionStageTimes: Equatable, Sendable {
    /// The pose source: decoding the images and tracking (or reading the ground truth).
    public var tracking = 0.0
    /// The world map on the session's thread: keyframes, relocalization hand-offs and applying
    /// loop corrections to the map, the landmarks and the planes.
    public var mapping = 0.0
    /// The landmark map and plane detection (``Session/planeUpdateInterval`` apart).
    public var planes = 0.0
    /// Light estimation.
    public var light = 0.0
    /// Everything else in the step: undistortion, feature points, the frame itself.
    public var other = 0.0

    /// The whole step.
    public var total: Double { tracking + mapping + planes + light + other }

    /// A zero cost.
    public init() {}
}
