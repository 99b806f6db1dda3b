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
    /// Rolling shutter: when the cam0 row holding the feature was read, after the frame time, as a
    /// fraction ρ of the readout time t_r (0 for a global shutter): the camera had moved by the
    /// clone's velocity times ρ t_r.
    var leftRowFraction: Double = 0
    /// The same for cam1.
    var rightRowFraction: Double = 0
    /// Each camera's turn rate (its own frame, rad/s) at the frame: ``left`` and ``right`` were
    /// turned back to the middle-row time with these, their rates of change and ``readoutApplied``.
    var leftRate = Vector3.zero, rightRate = Vector3.zero
    /// Each camera's angular acceleration (its own frame, rad/s²) at the frame.
    var leftAcceleration = Vector3.zero, rightAcceleration = Vector3.zero
    /// The readout (s) the rotation of each row was undone with.
    var readoutApplied: Double = 0

    /// Seconds after the frame time at which the cam0 row was read, for readout `t`.
    func leftDelay(readout t: Double) -> Double { leftRowFraction * t }

    /// The observation with each row's rotation undone for readout `t` instead of ``readoutApplied``
    /// (the filter's readout estimate moved since the frame was added).
    func withReadout(_ t: Double) -> Observation {
        guard t != readoutApplied, leftRowFraction != 0 || rightRowFraction != 0 else { return self }
        // Undo the turn for the applied readout's row delay, then apply the one for the new delay.
        func turned(_ n: Vector2, rate: Vector3, acceleration: Vector3, fraction: Double) -> Vector2 {
            let new = RollingShutterCorrection.rowTurn(rate: rate, acceleration: acceleration, delay: fraction * t)
            let old = RollingShutterCorrection.rowTurn(rate: rate, acceleration: acceleration, delay: fraction * readoutApplied)
            return RollingShutterCorrection.turned(n, by: new - old)
        }
        var o = self
        o.left = turned(left, rate: leftRate, acceleration: leftAcceleration, fraction: leftRowFraction)
        if let r = right { o.right = turned(r, rate: rightRate, acceleration: rightAcceleration, fraction: rightRowFraction) }
        o.readoutApplied = t
        return o
    }
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
    /// with each row's place in the readout when the cameras have a rolling shutter (`readout`, which
    /// turned the rows back with the body rate `angularVelocity` and its rate of change
    /// `angularAcceleration`).
    mutating func append(_ frame: FeatureFrame, frameNumber: Int, stereo: Bool, readout: RollingShutterCorrection? = nil,
                         angularVelocity: Vector3 = .zero, angularAcceleration: Vector3 = .zero) {
        let rates = readout?.cameraRates(angularVelocity)
        let accelerations = readout?.cameraRates(angularAcceleration)
        for f in frame.features {
            var o = Observation(frame: frameNumber, left: f.normalized, right: stereo ? f.rightNormalized : nil)
            if let readout, let rates {
                o.leftRowFraction = readout.rowFraction(row: f.pixel.y, camera: 0)
                if stereo, let rp = f.rightPixel { o.rightRowFraction = readout.rowFraction(row: rp.y, camera: 1) }
                o.leftRate = rates.0
                o.rightRate = rates.1
                o.leftAcceleration = accelerations?.0 ?? .zero
                o.rightAcceleration = accelerations?.1 ?? .zero
                o.readoutApplied = readout.readout
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
