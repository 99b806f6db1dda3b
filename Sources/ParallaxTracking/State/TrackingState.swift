/// Tracking quality with ARKit's meaning (`ARCamera.TrackingState`).
///
/// `notAvailable` before any pose exists; `limited(reason)` while poses exist but should not be
/// trusted for placing content; `normal` when tracking is good.
public enum TrackingState: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// No pose yet (before initialisation) or tracking was lost and not yet reset.
    case notAvailable
    /// Poses exist but are of reduced quality, for the given reason.
    case limited(Reason)
    /// Tracking is good.
    case normal

    /// Why tracking is limited.
    public enum Reason: String, Equatable, Hashable, Sendable, CaseIterable {
        /// The estimator is still initialising (gravity, biases, scale).
        case initializing
        /// The device moves too fast for the images to be tracked.
        case excessiveMotion
        /// Too few features are visible (blank or dark images, textureless scene).
        case insufficientFeatures
        /// Tracking diverged and was reset; it is recovering.
        case relocalizing
    }

    /// A compact name for exports: `normal`, `notAvailable`, or `limited`.
    public var name: String {
        switch self {
        case .notAvailable: return "notAvailable"
        case .limited: return "limited"
        case .normal: return "normal"
        }
    }

    /// The limiting reason, if any.
    public var reason: Reason? {
        if case .limited(let r) = self { return r }
        return nil
    }

    public var description: String {
        switch self {
        case .notAvailable: return "notAvailable"
        case .limited(let r): return "limited(\(r.rawValue))"
        case .normal: return "normal"
        }
    }
}
