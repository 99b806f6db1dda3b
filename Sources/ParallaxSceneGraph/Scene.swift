import Foundation
import ParallaxImaging
import ParallaxMath

/// Linear distance fog: no fog before `startDistance`, full `color` after `endDistance`.
public struct Fog: Equatable, Sendable {
    /// Distance from the camera where fog starts, metres.
    public var startDistance: Float
    /// Distance where fog is opaque, metres.
    public var endDistance: Float
    /// Linear RGB fog colour.
    public var color: Vector3f

    /// Creates fog.
    public init(startDistance: Float, endDistance: Float, color: Vector3f) {
        self.startDistance = startDistance; self.endDistance = endDistance; self.color = color
    }
}

/// What is drawn where no geometry is.
public enum Background: Sendable {
    /// A linear RGBA colour.
    case color(Vector4f)
    /// An image stretched over the viewport (in AR: the camera frame).
    case image(Texture)
}

/// A scene: a tree of nodes under `rootNode` plus global settings (SceneKit's `SCNScene`).
/// Ambient light is a node with an ``Light/LightType/ambient`` light, as in SceneKit.
///
/// Not `Sendable`, like ``Node``: a scene lives in one isolation domain.
public final class Scene {
    /// The root of the node tree (its transform is normally the identity).
    public let rootNode: Node
    /// The background.
    public var background: Background = .color(Vector4f(0, 0, 0, 1))
    /// Optional fog.
    public var fog: Fog?
    /// The file the scene was loaded from, if any.
    public var sourceURL: URL?

    /// Creates an empty scene.
    public init(rootNode: Node = Node(name: "root")) { self.rootNode = rootNode }

    /// Every node in the tree, depth first.
    public var allNodes: [Node] { rootNode.subtree }

    /// Visible nodes that carry a light.
    public var lightNodes: [Node] { allNodes.filter { $0.light != nil && $0.isEffectivelyVisible } }

    /// Nodes that carry a camera.
    public var cameraNodes: [Node] { allNodes.filter { $0.camera != nil } }

    /// The first camera node, the default point of view.
    public var pointOfView: Node? { cameraNodes.first }

    /// The world bounding box of all visible finite geometry (`nil` when there is none).
    public var worldBoundingBox: BoundingBox? {
        var boxes: [Vector3f] = []
        for node in allNodes where node.isEffectivelyVisible {
            guard let g = node.geometry, !g.isInfinite, !g.mesh.positions.isEmpty else { continue }
            let b = g.boundingBox.transformed(by: node.worldTransform)
            boxes += [b.min, b.max]
        }
        return boxes.isEmpty ? nil : BoundingBox(points: boxes)
    }

    /// Casts a world-space ray through the whole scene; results are sorted by distance.
    public func hitTest(rayOrigin: Vector3f, direction: Vector3f) -> [HitTestResult] {
        rootNode.hitTest(rayOrigin: rayOrigin, direction: direction)
    }
}
