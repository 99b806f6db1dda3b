import Foundation
import ParallaxDatasets
import ParallaxMath

/// Writes the `truth/` folder of a simulated dataset as JSON with fixed number formatting, so
/// that the same simulation gives byte-identical files.
public enum TruthFiles {
    /// One row of `truth/lighting.json`.
    public struct LightingFrame: Sendable, Equatable {
        /// Camera frame timestamp (ns).
        public var timestampNs: Int64
        /// Ambient intensity in lumens (1000 = neutral).
        public var ambientIntensity: Double
        /// Colour temperature in kelvin.
        public var colorTemperature: Double
        /// Camera exposure gain applied to the grey levels (1 = none).
        public var exposureGain: Double
    }

    /// `truth/planes.json`: every planar surface, world z-up; with `key` "surfaces",
    /// `truth/surfaces.json` (every face, ``ScenePlanes/surfaces(from:alignment:)``) in the same format.
    public static func planesJSON(_ planes: [PlaneTruth], alignment: SceneAlignment, key: String = "planes") -> String {
        var s = "{\n  \"frame\": \"world (z up, gravity -z, metres); scene (y up) = T_scene_world * world\",\n"
        s += "  \"T_scene_world\": \(matrix(alignment.T_scene_world)),\n  \(quoted(key)): ["
        for (i, p) in planes.enumerated() {
            s += i == 0 ? "\n" : ",\n"
            s += "    {\"id\": \(quoted(p.id)), \"kind\": \"\(p.kind.rawValue)\", \"centre\": \(vector(p.centre)), "
            s += "\"normal\": \(vector(p.normal)), \"area\": \(number(p.area)), \"polygon\": ["
            s += p.polygon.map(vector).joined(separator: ", ") + "]}"
        }
        s += "\n  ]\n}\n"
        return s
    }

    /// `truth/lighting.json`: per camera frame ambient intensity, colour temperature and exposure.
    public static func lightingJSON(_ frames: [LightingFrame]) -> String {
        var s = "{\n  \"units\": {\"ambientIntensity\": \"lumen (1000 = neutral)\", \"colorTemperature\": \"kelvin\"},\n  \"frames\": ["
        for (i, f) in frames.enumerated() {
            s += i == 0 ? "\n" : ",\n"
            s += "    {\"timestamp\": \(f.timestampNs), \"ambientIntensity\": \(number(f.ambientIntensity)), "
            s += "\"colorTemperature\": \(number(f.colorTemperature)), \"exposureGain\": \(number(f.exposureGain))}"
        }
        s += "\n  ]\n}\n"
        return s
    }

    /// Six decimals, never `-0.000000`.
    static let style = JSONNumberStyle(zeroBelow: 5e-10, nonFiniteAsNull: false)
    static func number(_ x: Double) -> String { style.number(x) }
    static func vector(_ v: Vector3) -> String { style.vector(v) }
    static func matrix(_ t: RigidTransform) -> String { style.matrix(t.matrix) }
    static func quoted(_ s: String) -> String { JSONText.quoted(s) }
}
