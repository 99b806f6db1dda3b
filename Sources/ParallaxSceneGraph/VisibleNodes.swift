import Foundation
import ParallaxMath

/// A visible drawable with its world transform: what a backend draws, flattened from the tree.
public struct RenderItem {
    /// The node carrying the geometry.
    public let node: Node
    /// The geometry.
    public let geometry: Geometry
    /// `T_world_node`.
    public let worldTransform: Matrix4f
    /// Product of the opacities from the root down to this node.
    public let opacity: Float
    /// Whether it casts shadows (the node's flag).
    public let castsShadow: Bool
}

/// A light with its world pose.
public struct LightItem {
    /// The node carrying the light.
    public let node: Node
    /// The light.
    public let light: Light
    /// `T_world_node`; the light shines along its -z column.
    public let worldTransform: Matrix4f
    /// World position (omni, spot).
    public var position: Vector3f { let c = worldTransform.columns.3; return Vector3f(c.x, c.y, c.z) }
    /// Unit world direction the light shines to (directional, spot): the node's -z axis.
    public var direction: Vector3f { worldTransform.transformDirection(Vector3f(0, 0, -1)).normalized }
}

extension Scene {
    /// Visible geometry in draw order: sorted by `renderingOrder`, tree order within one value.
    /// Hidden nodes hide their subtree; world transforms are computed once per node.
    public var renderItems: [RenderItem] {
        var items: [(Int, RenderItem)] = []
        var stack: [(Node, Matrix4f, Float)] = [(rootNode, .identity, 1)]
        var sequence: [Node] = []
        while let (node, parent, parentOpacity) = stack.popLast() {
            guard !node.isHidden else { continue }
            let world = parent * node.transform
            let opacity = parentOpacity * min(max(node.opacity, 0), 1)
            if let g = node.geometry {
                sequence.append(node)
                items.append((node.renderingOrder, RenderItem(node: node, geometry: g, worldTransform: world, opacity: opacity, castsShadow: node.castsShadow)))
            }
            for child in node.childNodes.reversed() { stack.append((child, world, opacity)) }
        }
        return items.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }.map(\.element.1)
    }

    /// Visible lights with their world transforms.
    public var lightItems: [LightItem] {
        lightNodes.compactMap { n in n.light.map { LightItem(node: n, light: $0, worldTransform: n.worldTransform) } }
    }
}
