import Foundation
import ParallaxMath

/// Anything that delivers camera frames and IMU samples in time order: a recording on disk (an
/// EuRoC/ASL or TUM-VI folder, a ROS bag, an MCAP file) or a live stream fed by user code
/// (``LiveSource``). The tracker (`DatasetRunner`) and the AR `Session` consume this protocol,
/// never a concrete dataset type.
///
/// ## Contract of ``makeEvents(from:to:includeGroundTruth:)``
///
/// Every conforming type promises, and its tests check:
///
/// - **Time order**: events come in non-decreasing ``ReplayEvent/timestampNs``. IMU timestamps
///   increase strictly; so do frame timestamps.
/// - **Order at equal timestamps**: IMU first, then the frame, then ground truth, so an estimator
///   has all inertial data up to and including the image time when the image arrives.
/// - **Stereo pairing**: a cam0 and a cam1 image with the same timestamp (to the nanosecond) make
///   one ``FrameEvent``. An image without a partner is delivered alone with the other camera nil;
///   the iterator counts it in ``SensorEventIterator/unpairedFrames``.
/// - **Time window**: `from` and `to` are seconds after ``startTimestampNs()`` (the earliest camera
///   or IMU timestamp); both ends are inclusive; nil means unbounded. Events outside are skipped,
///   and the iterator ends after the first event past `to`.
/// - **Ground truth**: ``ReplayEvent/groundTruth(_:)`` events appear only when
///   `includeGroundTruth` is true and ``hasGroundTruth`` is true.
/// - **Images**: each ``CameraFrame`` either names a file or holds its image in memory
///   (``CameraFrame/content``); ``CameraFrame/loadImage()`` gives the pixels either way and checks
///   the size against the camera's calibration.
/// - **Errors**: opening problems (missing files, bad calibration) throw from
///   `makeEvents`; problems found while reading (a malformed row, a truncated message) throw from
///   ``SensorEventIterator/next()`` as a ``DatasetError`` naming the file or stream, and the
///   iterator must not be used after it threw. Ending early (dropping the iterator) is always allowed.
/// - **Memory**: iterators read incrementally; a long recording costs no more memory than a short one.
///
/// Each call to `makeEvents` starts an independent pass over a recording. A live source has only
/// one pass: it may refuse a second call (see ``LiveSource``).
public protocol SensorSource {
    /// Where the data comes from, for messages: a path, a file and topic, or `live`.
    var origin: String { get }
    /// Camera calibrations: cam0, then cam1 for a stereo rig. Never empty.
    var cameras: [CameraCalibration] { get }
    /// The IMU calibration.
    var imu: IMUCalibration { get }
    /// True when the source can deliver ground-truth poses.
    var hasGroundTruth: Bool { get }
    /// Where the ground truth lives, for messages (`mav0/state_groundtruth_estimate0/data.csv`); nil without one.
    var groundTruthOrigin: String? { get }
    /// Where camera `index`'s images come from, for messages (`mav0/cam0/data.csv`, a topic).
    func origin(ofCamera index: Int) -> String
    /// Where the IMU samples come from, for messages (`mav0/imu0/data.csv`, a topic).
    var imuOrigin: String { get }
    /// All ground-truth states in time order (empty without ground truth). Memory grows with the
    /// recording; the AR session's ground-truth pose source and evaluation use it.
    func groundTruth() throws -> [GroundTruthState]
    /// The earliest camera or IMU timestamp: the origin of time windows. nil when unknown yet
    /// (a live source before its first sample) or the source is empty.
    func startTimestampNs() throws -> Int64?
    /// Starts a pass over the source; see the contract above.
    func makeEvents(from: Double?, to: Double?, includeGroundTruth: Bool) throws -> any SensorEventIterator
}

extension SensorSource {
    /// True with two cameras.
    public var isStereo: Bool { cameras.count == 2 }

    /// `T_cam0_cam1`: maps points from cam1 into cam0 (nil without a second camera).
    public var T_cam0_cam1: RigidTransform? {
        guard isStereo else { return nil }
        return cameras[0].T_body_camera.inverse * cameras[1].T_body_camera
    }

    /// `<origin> camN` unless the source names its streams more precisely.
    public func origin(ofCamera index: Int) -> String {
        "\(origin) \(cameras.indices.contains(index) ? cameras[index].name : "cam\(index)")"
    }

    /// `<origin> imuName` unless the source names its streams more precisely.
    public var imuOrigin: String { "\(origin) \(imu.name)" }

    /// A pass over the whole source, ground truth included when there is one.
    public func makeEvents() throws -> any SensorEventIterator {
        try makeEvents(from: nil, to: nil, includeGroundTruth: hasGroundTruth)
    }
}

/// One pass over a ``SensorSource``: the events in the order the protocol's contract promises.
///
/// Iterators are used by one thread at a time; ``DecodeAheadIterator`` moves one to a producer
/// thread and hands events back through a bounded queue.
public protocol SensorEventIterator: AnyObject {
    /// The next event, or nil at the end of the source or the window.
    /// - Throws: ``DatasetError`` (or the source's own error) naming the file or stream.
    func next() throws -> ReplayEvent?
    /// Images delivered without their stereo partner so far.
    var unpairedFrames: Int { get }
    /// Rows or messages skipped so far (only sources read under ``ReadPolicy/lenient`` skip).
    var diagnostics: ReadDiagnostics { get }
}

extension SensorEventIterator {
    /// Calls `body` for each remaining event in order.
    public func forEach(_ body: (ReplayEvent) throws -> Void) throws {
        while let e = try next() { try body(e) }
    }
}
