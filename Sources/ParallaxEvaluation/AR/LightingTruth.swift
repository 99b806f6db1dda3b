import Foundation
import ParallaxImaging

/// The simulator's `truth/lighting.json`: per camera frame, the scene's ambient intensity (lm),
/// colour temperature (K) and the camera's exposure gain.
public struct LightingTruth: Sendable {
    /// One frame of truth.
    public struct Frame: Sendable, Equatable {
        /// Timestamp (ns), as the camera frame's.
        public var timestampNs: Int64
        /// Scene light, lumens (1000 = neutral).
        public var ambientIntensity: Double
        /// Colour temperature, kelvin.
        public var colorTemperature: Double
        /// Multiplier the simulated auto-exposure applied to the encoded grey levels.
        public var exposureGain: Double
    }
    /// Frames in file order.
    public var frames: [Frame]

    /// Reads `url`; throws ``LightEstimationError`` naming the file and the bad field.
    public init(contentsOf url: URL) throws {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw LightEstimationError(file: url.path, reason: "cannot read (\(FileReadability.describe(error, reading: url)))")
        }
        guard let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw LightEstimationError(file: url.path, reason: "not a JSON object")
        }
        guard let list = root["frames"] as? [[String: Any]] else {
            throw LightEstimationError(file: url.path, reason: "missing array \"frames\"")
        }
        guard !list.isEmpty else {
            throw LightEstimationError(file: url.path, reason: "array \"frames\" is empty; there is nothing to compare with")
        }
        frames = try list.enumerated().map { i, f in
            // Every quantity is a positive physical amount; the metrics divide by the intensity,
            // so a zero or negative truth would print as "nan %" instead of failing.
            func number(_ key: String) throws -> Double {
                guard let v = f[key] as? NSNumber, v.doubleValue.isFinite else {
                    throw LightEstimationError(file: url.path, reason: "frames[\(i)].\(key) missing or not a finite number")
                }
                guard v.doubleValue > 0 else {
                    throw LightEstimationError(file: url.path, reason: "frames[\(i)].\(key) must be positive, found \(v.doubleValue)")
                }
                return v.doubleValue
            }
            guard let ts = f["timestamp"] as? NSNumber else {
                throw LightEstimationError(file: url.path, reason: "frames[\(i)].timestamp missing or not a number")
            }
            return Frame(timestampNs: ts.int64Value, ambientIntensity: try number("ambientIntensity"),
                         colorTemperature: try number("colorTemperature"), exposureGain: try number("exposureGain"))
        }
    }

    /// The frame with exactly this timestamp, if any.
    public func frame(at timestampNs: Int64) -> Frame? {
        // Frames are sorted by time in the files the simulator writes; fall back to a scan otherwise.
        var lo = 0, hi = frames.count - 1
        while lo <= hi {
            let mid = (lo + hi) / 2
            if frames[mid].timestampNs == timestampNs { return frames[mid] }
            if frames[mid].timestampNs < timestampNs { lo = mid + 1 } else { hi = mid - 1 }
        }
        return frames.first { $0.timestampNs == timestampNs }
    }
}

/// A light-estimation input or truth file problem.
public struct LightEstimationError: Error, CustomStringConvertible {
    /// The file concerned.
    public var file: String
    /// What is wrong.
    public var reason: String
    /// Creates an error.
    public init(file: String, reason: String) { self.file = file; self.reason = reason }
    /// Human-readable message naming the file.
    public var description: String { "\(file): \(reason)" }
}
