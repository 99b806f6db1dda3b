import Foundation
import ParallaxMath

/// Kinds of hit-test results (`ARHitTestResult.ResultType`).
public struct HitTestResultType: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: Int
    /// Creates a set from its bits.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// A tracked feature point close to the ray.
    public static let featurePoint = HitTestResultType(rawValue: 1 << 0)
    /// A horizontal plane estimated from the feature points around the ray (no anchor).
    public static let estimatedHorizontalPlane = HitTestResultType(rawValue: 1 << 1)
    /// A vertical plane estimated from the feature points around the ray (no anchor).
    public static let estimatedVerticalPlane = HitTestResultType(rawValue: 1 << 2)
    /// A detected plane anchor, taken as infinite.
    public static let existingPlane = HitTestResultType(rawValue: 1 << 3)
    /// A detected plane anchor, within its extent rectangle.
    public static let existingPlaneUsingExtent = HitTestResultType(rawValue: 1 << 4)
    /// A detected plane anchor, within its boundary polygon.
    public static let existingPlaneUsingGeometry = HitTestResultType(rawValue: 1 << 5)
    /// Every type.
    public static let all: HitTestResultType = [.featurePoint, .estimatedHorizontalPlane, .estimatedVerticalPlane,
                                                .existingPlane, .existingPlaneUsingExtent, .existingPlaneUsingGeometry]

    /// Names used on the command line and in exports, in bit order.
    public static let names: [(String, HitTestResultType)] = [
        ("featurePoint", .featurePoint), ("estimatedHorizontalPlane", .estimatedHorizontalPlane),
        ("estimatedVerticalPlane", .estimatedVerticalPlane), ("existingPlane", .existingPlane),
        ("existingPlaneUsingExtent", .existingPlaneUsingExtent),
        ("existingPlaneUsingGeometry", .existingPlaneUsingGeometry),
    ]

    /// The name of a single type ("mixed" for a set of several).
    public var name: String { Self.names.first { $0.1 == self }?.0 ?? "mixed" }

    /// Parses a name (case-insensitive); nil when unknown.
    public init?(name: String) {
        guard let t = Self.names.first(where: { $0.0.lowercased() == name.lowercased() }) else { return nil }
        self = t.1
    }
}

/// One intersection of a hit test (`ARHitTestResult`).
public struct HitTestResult: Sendable {
    /// The single type that produced it.
    public var type: HitTestResultType
    /// Distance from the camera centre to the hit point (m).
    public var distance: Double
    /// Pose of the hit in the AR world: translation = the hit point; rotation = the plane's
    /// (y = normal) for plane hits, the identity for feature points.
    public var worldTransform: Matrix4
    /// Pose of the hit in the anchor's coordinates (= ``worldTransform`` without an anchor).
    public var localTransform: Matrix4
    /// The plane anchor hit, for `existingPlane*` types.
    public var anchor: PlaneAnchor?

    /// The hit point in the AR world.
    public var position: Vector3 { worldTransform.column(3).xyz }
}
