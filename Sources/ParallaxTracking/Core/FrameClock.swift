/// Capture times for a camera whose timestamps jitter.
///
/// A camera stamped by its host (a USB webcam, a driver that reads the clock when the frame
/// arrives) reports capture times a few milliseconds off, frame by frame, although it exposes at
/// a steady rate. In a fast turn that error moves the image by pixels the filter cannot explain
/// (5 ms at 150 °/s is 6 px at EuRoC's focal length): a hand-held walk stamped with ±5 ms of
/// jitter reset over and over and ended 4 m off. A hardware-triggered or phone camera's stamps do
/// not jitter, and for them this is a no-op.
///
/// The clock keeps the latest frames' stamps with their frame numbers (a gap of n periods counts
/// n, so dropped frames do not break it) and, once the intervals show jitter, answers the least-
/// squares line through them at the newest frame: the stamps' noise falls by about √(4 / count)
/// at the line's end (a ±5 ms jitter to about 1 ms over 40 frames). A stamp far from the line (a
/// change of frame rate, a long pause) starts the line again.
struct FrameClock {
    /// Frames the line is fitted over.
    var window = 40
    /// Fewest frames before the clock judges the jitter.
    var minimumFrames = 10
    /// Per-frame stamp jitter (s, the intervals' robust spread over √2) from which the stamps are
    /// replaced by the line. Hardware-stamped cameras show microseconds.
    var minimumJitter = 0.0003

    private var stamps: [(frame: Double, time: Double)] = []

    /// The robust per-frame jitter of the stamps (s) the clock last saw; 0 before it could judge.
    private(set) var jitter = 0.0

    /// The capture time to use for a frame stamped `time` (seconds; stamps must increase).
    mutating func captureTime(_ time: Double) -> Double {
        guard let last = stamps.last else {
            stamps = [(0, time)]
            return time
        }
        let period = self.period ?? (time - last.time)
        guard period > 0 else { return time }
        let steps = max(1, ((time - last.time) / period).rounded())
        stamps.append((last.frame + steps, time))
        if stamps.count > window { stamps.removeFirst(stamps.count - window) }
        guard stamps.count >= minimumFrames else { return time }
        jitter = Self.jitter(of: stamps)
        guard jitter >= minimumJitter, let fitted = Self.line(through: stamps, at: last.frame + steps) else { return time }
        // Far from the line: the camera changed its rate or paused; start again from this frame.
        if abs(time - fitted) > 5 * jitter + 0.25 * period {
            stamps = [(0, time)]
            jitter = 0
            return time
        }
        return fitted
    }

    /// The median interval of one frame between the kept stamps.
    private var period: Double? {
        let single = Self.singleIntervals(stamps)
        return single.count >= 3 ? upperMedian(single) : nil
    }

    /// The intervals between consecutive kept stamps one frame apart (gaps left out).
    static func singleIntervals(_ stamps: [(frame: Double, time: Double)]) -> [Double] {
        zip(stamps, stamps.dropFirst()).filter { $1.frame - $0.frame == 1 }.map { $1.time - $0.time }
    }

    /// 1.4826 × the median absolute deviation of the single-frame intervals, over √2 (each interval
    /// carries two stamps' errors).
    static func jitter(of stamps: [(frame: Double, time: Double)]) -> Double {
        let single = singleIntervals(stamps)
        guard single.count >= 3 else { return 0 }
        let median = upperMedian(single)
        return 1.4826 * upperMedian(single.map { abs($0 - median) }) / 2.0.squareRoot()
    }

    /// The least-squares line time = a + b · frame through `stamps`, evaluated at `frame`.
    /// Times are taken relative to the first stamp: sums of forty epoch times (about 1.7e9 s)
    /// would keep only tens of microseconds.
    static func line(through stamps: [(frame: Double, time: Double)], at frame: Double) -> Double? {
        guard let origin = stamps.first?.time else { return nil }
        let n = Double(stamps.count)
        let meanFrame = stamps.reduce(0) { $0 + $1.frame } / n
        let meanTime = stamps.reduce(0) { $0 + ($1.time - origin) } / n
        var sff = 0.0, sft = 0.0
        for s in stamps {
            sff += (s.frame - meanFrame) * (s.frame - meanFrame)
            sft += (s.frame - meanFrame) * (s.time - origin - meanTime)
        }
        guard sff > 0 else { return nil }
        return origin + (meanTime + sft / sff * (frame - meanFrame))
    }
}
