import ParallaxDatasets

/// Holds each camera frame back until the IMU stream has passed the frame's exposure time on the
/// IMU clock, so the estimator can propagate to the frame with measured samples instead of
/// extrapolating the last one.
///
/// Sources order events by their raw stamps, but a frame stamped t_cam was exposed at t_cam + t_d
/// on the IMU clock (Kalibr's `timeshift_cam_imu`). With t_d > 0 the samples between t_cam and
/// t_cam + t_d arrive after the frame, and propagation would hold the last reading across them:
/// in a 200 °/s turn a 10 ms offset then costs a systematic rotation error that the time-offset
/// estimate absorbs as a bias (simulated phone, 10 ms offset: estimate 10.8 ms). OpenVINS waits
/// for the IMU in the same way before it processes a frame.
///
/// Events come out in the source's order except that IMU samples up to `frame time + lead()` are
/// moved ahead of the frame; frames keep their order, and the end of the stream releases every
/// held frame. At most `lead × IMU rate` samples are held, so memory stays bounded.
public final class IMULookaheadIterator: SensorEventIterator {
    private let base: any SensorEventIterator
    private let lead: () -> Double
    /// Frames waiting for the IMU, oldest first.
    private var heldFrames: [ReplayEvent] = []
    /// Events ready to hand out, oldest first.
    private var ready: [ReplayEvent] = []
    private var readyIndex = 0
    private var finished = false

    /// Wraps `base`; `lead()` is the time (s) the IMU must run ahead of a frame's stamp before the
    /// frame is released (the current time-offset estimate plus a sample period, at least 0).
    /// Slack (s) added to the time-offset estimate, for its change before the next frame.
    public static let margin = 0.002

    public init(_ base: any SensorEventIterator, lead: @escaping () -> Double) {
        self.base = base
        self.lead = lead
    }

    public var unpairedFrames: Int { base.unpairedFrames }
    public var diagnostics: ReadDiagnostics { base.diagnostics }

    public func next() throws -> ReplayEvent? {
        while readyIndex >= ready.count {
            ready.removeAll(keepingCapacity: true)
            readyIndex = 0
            if finished { return nil }
            guard let event = try base.next() else {
                finished = true
                ready = heldFrames
                heldFrames.removeAll()
                continue
            }
            switch event {
            case .frame:
                heldFrames.append(event)
            case .imu(let s):
                ready.append(event)
                // Release the frames this sample has passed, in order, after it.
                let margin = max(0, lead())
                while let first = heldFrames.first {
                    if case .frame(let f) = first, s.timestamp < f.timestamp + margin { break }
                    ready.append(heldFrames.removeFirst())
                }
            default:
                // Ground truth and anything else pass straight through when no frame is held.
                if heldFrames.isEmpty { ready.append(event) } else { heldFrames.append(event) }
            }
        }
        defer { readyIndex += 1 }
        return ready[readyIndex]
    }
}
