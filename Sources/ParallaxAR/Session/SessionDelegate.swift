import Foundation

/// Receives a session's events (`ARSessionDelegate` + `ARSessionObserver`), on the thread that
/// drives the session (the caller of ``Session/nextFrame()`` or the frame sequence's consumer).
/// Every method has an empty default implementation.
public protocol SessionDelegate: AnyObject {
    /// A new frame is available (also ``Session/currentFrame``).
    func session(_ session: Session, didUpdate frame: Frame)
    /// Anchors were added (plane detection or ``Session/add(anchor:)``).
    func session(_ session: Session, didAdd anchors: [any Anchor])
    /// Anchors were refined (same identifiers, new values).
    func session(_ session: Session, didUpdate anchors: [any Anchor])
    /// Anchors were removed (merged planes, ``Session/remove(anchor:)``, a reset).
    func session(_ session: Session, didRemove anchors: [any Anchor])
    /// The camera's tracking state changed.
    func session(_ session: Session, cameraDidChangeTrackingState camera: Camera)
    /// The session stopped because of an error (bad dataset file, unavailable source).
    func session(_ session: Session, didFailWithError error: any Error)
    /// Frames stopped arriving (a gap in the camera stream longer than 3 frame periods).
    func sessionWasInterrupted(_ session: Session)
    /// Frames arrive again after an interruption.
    func sessionInterruptionEnded(_ session: Session)
}

extension SessionDelegate {
    /// Default: nothing.
    public func session(_ session: Session, didUpdate frame: Frame) {}
    /// Default: nothing.
    public func session(_ session: Session, didAdd anchors: [any Anchor]) {}
    /// Default: nothing.
    public func session(_ session: Session, didUpdate anchors: [any Anchor]) {}
    /// Default: nothing.
    public func session(_ session: Session, didRemove anchors: [any Anchor]) {}
    /// Default: nothing.
    public func session(_ session: Session, cameraDidChangeTrackingState camera: Camera) {}
    /// Default: nothing.
    public func session(_ session: Session, didFailWithError error: any Error) {}
    /// Default: nothing.
    public func sessionWasInterrupted(_ session: Session) {}
    /// Default: nothing.
    public func sessionInterruptionEnded(_ session: Session) {}
}

/// Why a session failed.
public struct SessionError: Error, CustomStringConvertible, Sendable {
    /// Human-readable reason (names the file or setting involved).
    public var message: String
    /// Creates an error.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}
