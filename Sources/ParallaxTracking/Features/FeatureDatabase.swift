import ParallaxMath
import ParallaxVision

/// One observation of a feature: undistorted normalised coordinates in cam0 (and cam1 when stereo).
struct Observation {
    /// Frame number of the clone it belongs to.
    var frame: Int
    /// cam0 normalised coordinates (x/z, y/z).
    var left: Vector2
    /// cam1 normalised coordinates, when the stereo match passed.
    var right: Vector2?
    /// Rolling shutter: seconds after the frame time at which the cam0 row holding the feature was
    /// read (0 for a global shutter); the camera had moved by the clone's velocity times this.
    var leftDelay: Double = 0
    /// The same for cam1.
    var rightDelay: Double = 0
}

/// A feature's observations inside the window.
struct FeatureTrack {
    var id: Int
    var observations: [Observation]
    /// Number of measurements (left + right) it holds.
    var measurementCount: Int { observations.reduce(0) { $0 + ($1.right == nil ? 1 : 2) } }
}

/// The feature tracks the back-end has not used yet, keyed by front-end feature id (OpenVINS's
/// `FeatureDatabase`): the front-end appends observations frame by frame; the estimator asks it
/// named questions (which tracks were lost, which reach back to the oldest clone) and tells it
/// what was consumed or marginalised.
///
/// Every query answers in ascending feature-id order, so the estimator is deterministic.
struct FeatureDatabase {
    private var tracks: [Int: FeatureTrack] = [:]

    /// Number of tracks held (including consumed ones still being tracked).
    var count: Int { tracks.count }

    /// The track of feature `id`, if any.
    func track(_ id: Int) -> FeatureTrack? { tracks[id] }

    /// Appends one frame's features as observations of clone `frameNumber` (cam1 only when `stereo`),
    /// with each row's readout delay when the cameras have a rolling shutter.
    mutating func append(_ frame: FeatureFrame, frameNumber: Int, stereo: Bool, readout: RollingShutterCorrection? = nil) {
        for f in frame.features {
            var o = Observation(frame: frameNumber, left: f.normalized, right: stereo ? f.rightNormalized : nil)
            if let readout {
                o.leftDelay = readout.delay(row: f.pixel.y, camera: 0)
                if stereo, let rp = f.rightPixel { o.rightDelay = readout.delay(row: rp.y, camera: 1) }
            }
            tracks[f.id, default: FeatureTrack(id: f.id, observations: [])].observations.append(o)
        }
    }

    /// Tracks the front-end no longer follows (absent from `currentIDs`): their information is
    /// complete and must be used now or never.
    func lostTracks(currentIDs: Set<Int>) -> [FeatureTrack] {
        tracks.keys.sorted().compactMap { id in currentIDs.contains(id) ? nil : tracks[id] }
    }

    /// Still-tracked features whose first observation is clone `frame`: they lose that observation
    /// when the clone is marginalised, so this is the last update with all of it.
    func tracksStarting(atFrame frame: Int, currentIDs: Set<Int>) -> [FeatureTrack] {
        tracks.keys.sorted().compactMap { id in
            guard currentIDs.contains(id), let t = tracks[id], t.observations.first?.frame == frame else { return nil }
            return t
        }
    }

    /// Drops the tracks `ids` entirely.
    mutating func remove(_ ids: [Int]) {
        for id in ids { tracks[id] = nil }
    }

    /// Empties the observations of a still-tracked feature that was used in an update (its later
    /// observations start a fresh track, so no measurement is used twice).
    mutating func consume(_ id: Int) {
        tracks[id]?.observations.removeAll()
    }

    /// Removes every observation of the marginalised clone `frame`; tracks left empty and no longer
    /// followed by the front-end are dropped.
    mutating func removeObservations(ofFrame frame: Int, currentIDs: Set<Int>) {
        for id in tracks.keys.sorted() {
            tracks[id]?.observations.removeAll { $0.frame == frame }
            if tracks[id]?.observations.isEmpty == true, !currentIDs.contains(id) { tracks[id] = nil }
        }
    }

    /// Forgets every track.
    mutating func removeAll() { tracks.removeAll() }
}
