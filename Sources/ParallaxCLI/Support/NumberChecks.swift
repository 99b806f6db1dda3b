import ArgumentParser

/// Range checks of the numbers users type, for `validate()`: every failure is a `ValidationError`
/// that names the option and repeats the value, so NaN, infinities, negative and huge values stop
/// before any work starts (an unchecked NaN once crashed converting seconds to nanoseconds).
enum NumberChecks {
    /// The longest time, in seconds, accepted for a time option (about 11.6 days): far beyond any
    /// dataset, and small enough that nanosecond timestamps cannot overflow.
    static let maxSeconds = 1e6

    /// `value` as a user would have typed it: `-5` rather than `-5.0`.
    static func text(_ value: Double) -> String {
        if value.isNaN { return "nan" }
        if value.isInfinite { return value < 0 ? "-inf" : "inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// Throws unless `value` is a finite number.
    static func finite(_ value: Double, _ option: String) throws {
        guard value.isFinite else { throw ValidationError("\(option) must be a finite number, got \(text(value))") }
    }

    /// Throws unless `value` is finite and in `0…max` (`unit` follows the bound in the message).
    static func nonNegative(_ value: Double, _ option: String, atMost max: Double, unit: String = "") throws {
        try finite(value, option)
        guard value >= 0 else { throw ValidationError("\(option) must be ≥ 0, got \(text(value))") }
        try atMost(value, max, option, unit: unit)
    }

    /// Throws unless `value` is finite, above zero and at most `max`.
    static func positive(_ value: Double, _ option: String, atMost max: Double, unit: String = "") throws {
        try finite(value, option)
        guard value > 0 else { throw ValidationError("\(option) must be positive, got \(text(value))") }
        try atMost(value, max, option, unit: unit)
    }

    /// Throws unless the integer `value` lies in `range`.
    static func integer(_ value: Int, _ option: String, in range: ClosedRange<Int>) throws {
        guard range.contains(value) else {
            let bounds = range.upperBound == Int.max ? "at least \(range.lowerBound)"
                : "between \(range.lowerBound) and \(range.upperBound)"
            throw ValidationError("\(option) must be \(bounds), got \(value)")
        }
    }

    private static func atMost(_ value: Double, _ max: Double, _ option: String, unit: String) throws {
        guard value <= max else {
            throw ValidationError("\(option) must be at most \(text(max))\(unit.isEmpty ? "" : " " + unit), got \(text(value))")
        }
    }
}
