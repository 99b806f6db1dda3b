import Foundation
import ParallaxMath

/// Fixed-precision number formatting for hand-written JSON (`frames.jsonl`, truth files), so the
/// same input always gives byte-identical files (`conventions.md`).
public struct JSONNumberStyle: Sendable {
    /// Magnitudes below this print as `0.000000`, never `-0.000000`.
    public var zeroBelow: Double
    /// Whether NaN and ±∞ print as `null` (valid JSON) rather than `nan`/`inf`.
    public var nonFiniteAsNull: Bool

    /// Creates a style.
    public init(zeroBelow: Double, nonFiniteAsNull: Bool) {
        self.zeroBelow = zeroBelow
        self.nonFiniteAsNull = nonFiniteAsNull
    }

    /// `x` with six decimals (`%.6f`).
    public func number(_ x: Double) -> String {
        if nonFiniteAsNull, !x.isFinite { return "null" }
        let v = abs(x) < zeroBelow ? 0 : x
        return String(format: "%.6f", v)
    }

    /// `[x, y, z]`.
    public func vector(_ v: Vector3) -> String { "[\(number(v.x)), \(number(v.y)), \(number(v.z))]" }

    /// A 4×4 matrix as four rows: `[[m00, m01, m02, m03], …]`.
    public func matrix(_ m: Matrix4) -> String {
        "[" + (0..<4).map { r in "[" + (0..<4).map { c in number(m[r, c]) }.joined(separator: ", ") + "]" }
            .joined(separator: ", ") + "]"
    }
}

/// Helpers for JSON text written by hand.
public enum JSONText {
    /// `s` as a JSON string literal: quotes, backslashes and control characters escaped
    /// (RFC 8259 §7).
    public static func quoted(_ s: String) -> String {
        var out = "\""
        for ch in s.unicodeScalars {
            switch ch {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where ch.value < 0x20: out += String(format: "\\u%04x", ch.value)
            default: out.unicodeScalars.append(ch)
            }
        }
        return out + "\""
    }
}
