#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// CPU time of the calling thread (`CLOCK_THREAD_CPUTIME_ID`), the clock every per-frame cost in
/// Parallax is measured with: it counts what one step of work cost, not how busy the machine was
/// (wall time on these 2 cores depends on whatever else runs).
public enum ThreadClock {
    /// CPU time the calling thread has used so far, in milliseconds.
    public static func milliseconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) * 1e3 + Double(ts.tv_nsec) * 1e-6
    }
}
