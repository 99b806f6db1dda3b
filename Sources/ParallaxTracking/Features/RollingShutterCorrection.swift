import ParallaxDatasets
import ParallaxMath
import ParallaxVision

/// Moves each feature observation of a rolling-shutter image to the time of the middle row, the
/// time the frame's stamp refers to (Kalibr's `line_delay` per row; row v is read at
/// t + (v − (height − 1)/2) · line_delay).
///
/// Only the rotation during the readout is undone, from the gyro: with the camera turning at ω_c
/// and that rate changing at ω̇_c (``IMUBuffer/gyroFit(at:halfWidth:)``),
/// R_wc(t + δ) = R_wc(t) Exp(ω_c δ + ½ ω̇_c δ²) to second order, so a bearing b seen at row time
/// t + δ was Exp(ω_c δ + ½ ω̇_c δ²) b at the middle-row time t. The translation during the readout
/// cannot be undone here (it depends on the point's depth): a hand turning at 200 °/s moves a
/// feature by ~16 px over a 20 ms readout, walking at 1 m/s moves a point 2 m away by ~2 px —
/// small, but with the same sign frame after frame, so it biases scale. Each observation therefore keeps its row's delay (``delay(row:camera:)``, stored
/// in ``Observation``), and the measurement model places the camera at the clone's position plus
/// velocity × delay. This is Li, Kim & Mourikis's model (ICRA 2013) with the rotation applied to the
/// measurements and the translation in the residual (the velocity a constant there, not a state).
struct RollingShutterCorrection {
    /// Seconds per row, cam0 and cam1.
    let lineDelay: (left: Double, right: Double)
    /// Row the frame time refers to, cam0 and cam1.
    let middleRow: (left: Double, right: Double)
    let R_body_cam0: Matrix3
    let R_c1_c0: Matrix3

    /// The correction for a calibration, or nil when no camera states a line delay.
    init?(camera0: CameraCalibration, camera1: CameraCalibration?, rig: CameraRig) {
        let left = camera0.lineDelay ?? 0, right = camera1?.lineDelay ?? left
        guard left > 0 || right > 0 else { return nil }
        lineDelay = (left, right)
        middleRow = (Self.middleRow(height: camera0.height), Self.middleRow(height: camera1?.height ?? camera0.height))
        R_body_cam0 = rig.R_body_cam0
        R_c1_c0 = rig.R_c1_c0
    }

    /// A correction with an estimated line delay (s per row), the same for both cameras
    /// (``ReadoutEstimator``).
    init(lineDelay: Double, height0: Int, height1: Int?, rig: CameraRig) {
        self.lineDelay = (lineDelay, lineDelay)
        middleRow = (Self.middleRow(height: height0), Self.middleRow(height: height1 ?? height0))
        R_body_cam0 = rig.R_body_cam0
        R_c1_c0 = rig.R_c1_c0
    }

    /// The row a frame time refers to in an image `height` rows high: the middle one.
    static func middleRow(height: Int) -> Double { Double(height - 1) / 2 }

    /// Readout time (s) of the top-to-bottom scan, the longer of the two cameras'.
    var readout: Double {
        max(lineDelay.left * (2 * middleRow.left + 1), lineDelay.right * (2 * middleRow.right + 1))
    }

    /// Seconds after the frame time at which row `row` of camera `camera` (0 or 1) was read.
    func delay(row: Double, camera: Int) -> Double {
        camera == 0 ? (row - middleRow.left) * lineDelay.left : (row - middleRow.right) * lineDelay.right
    }

    /// When row `row` of camera `camera` was read after the frame time, as a fraction of ``readout``.
    func rowFraction(row: Double, camera: Int) -> Double {
        let r = readout
        return r > 0 ? delay(row: row, camera: camera) / r : 0
    }

    /// The bearing of normalised point `n` turned by the rotation vector `φ`: Exp(φ) [n, 1].
    static func turnedBearing(_ n: Vector2, by phi: Vector3) -> Vector3 { SO3.exp(phi) * Vector3(n.x, n.y, 1) }

    /// ``turnedBearing(_:by:)`` back in normalised coordinates (`n` itself if it turns behind the camera).
    static func turned(_ n: Vector2, by phi: Vector3) -> Vector2 {
        let b = turnedBearing(n, by: phi)
        return b.z > 1e-9 ? Vector2(b.x / b.z, b.y / b.z) : n
    }

    /// cam0's and cam1's turn rates (each in its own frame) for the body rate `w` (or their rates of
    /// change for the body's angular acceleration).
    func cameraRates(_ w: Vector3) -> (Vector3, Vector3) {
        let w0 = R_body_cam0.transpose * w
        return (w0, R_c1_c0 * w0)
    }

    /// The rotation vector turning a bearing read `delay` seconds after the frame time back to the
    /// frame time, for a camera turning at `rate` that changes at `acceleration` (its own frame).
    static func rowTurn(rate: Vector3, acceleration: Vector3, delay: Double) -> Vector3 {
        rate * delay + acceleration * (0.5 * delay * delay)
    }

    /// A start window's frame (``VisualInertialAlignment/Frame``) kept with its rows, its
    /// observations moved to the middle-row time as ``apply(_:angularVelocity:angularAcceleration:)``
    /// moves a front-end frame's; the rows are dropped (the frame is corrected). Unchanged without rows.
    func apply(_ frame: VisualInertialAlignment.Frame, angularVelocity w: Vector3,
               angularAcceleration a: Vector3 = .zero) -> VisualInertialAlignment.Frame {
        guard frame.rowOffsets.count == frame.observations.count else { return frame }
        let (w0, w1) = cameraRates(w)
        let (a0, a1) = cameraRates(a)
        var out = frame
        for (k, rows) in frame.rowOffsets.enumerated() {
            let o = frame.observations[k]
            let left = Self.moved(o.left, rowOffset: rows.left, lineDelay: lineDelay.left, rate: w0, acceleration: a0)
            var right = o.right
            if let r = o.right, let row = rows.right {
                right = Self.moved(r, rowOffset: row, lineDelay: lineDelay.right, rate: w1, acceleration: a1)
            }
            out.observations[k] = (o.id, left, right)
        }
        out.rowOffsets = []
        return out
    }

    /// `frame` with every normalised observation moved to the middle-row time; `angularVelocity`
    /// is the body rate (gyro minus bias) at the frame and `angularAcceleration` its rate of change.
    func apply(_ frame: FeatureFrame, angularVelocity w: Vector3, angularAcceleration a: Vector3 = .zero) -> FeatureFrame {
        let (w0, w1) = cameraRates(w)
        let (a0, a1) = cameraRates(a)
        var out = frame
        for k in out.features.indices {
            let f = out.features[k]
            out.features[k].normalized = Self.moved(f.normalized, rowOffset: f.pixel.y - middleRow.left,
                                                    lineDelay: lineDelay.left, rate: w0, acceleration: a0)
            if let rn = f.rightNormalized, let rp = f.rightPixel {
                out.features[k].rightNormalized = Self.moved(rn, rowOffset: rp.y - middleRow.right,
                                                             lineDelay: lineDelay.right, rate: w1, acceleration: a1)
            }
        }
        return out
    }

    /// Normalised point `n` of a row `rowOffset` rows after the middle one, turned back to the
    /// frame time for a camera turning at `rate` that changes at `acceleration` (its own frame).
    private static func moved(_ n: Vector2, rowOffset: Double, lineDelay: Double, rate: Vector3, acceleration: Vector3) -> Vector2 {
        turned(n, by: rowTurn(rate: rate, acceleration: acceleration, delay: rowOffset * lineDelay))
    }
}
