import Foundation
import ParallaxMath

/// A node that is drawn this frame, with what it inherits from its ancestors.
public struct VisibleNode {
    /// The node (it carries the geometry, light or camera).
    public let node: Node
    /// `T_world_node`: the product of the transforms from the root down to this node.
    public let worldTransform: Matrix4f
    /// The product of the opacities from the root down to this node, each clamped to 0…1.
    public let opacity: Float
}

extension Scene {
    /// Every node that is not hidden, in tree order (a node before its children, children in
    /// order); a hidden node hides its subtree. World transforms and opacities are accumulated on
    /// the way down, once per node. The renderer's frame plan is built from this list.
    ///
    /// Each node's opacity is clamped to 0…1 before it multiplies in: ``Node/opacity`` is documented
    /// as 0…1 (scene files reject anything else), and without the clamp a node set to 2 in code
    /// would cancel a child's 0.5 and draw it opaque, and two negative opacities would multiply
    /// into a visible one.
    public var visibleNodes: [VisibleNode] {
        var visible: [VisibleNode] = []
        let root = rootNode
        var stack: [(Node, Matrix4f, Float)] = [(root, root.transform, Self.clamped(root.opacity))]
        while let (node, world, opacity) = stack.popLast() {
            guard !node.isHidden else { continue }
            visible.append(VisibleNode(node: node, worldTransform: world, opacity: opacity))
            for child in node.childNodes.reversed() {
                stack.append((child, world * child.transform, opacity * Self.clamped(child.opacity)))
            }
        }
        return visible
    }

    private static func clamped(_ opacity: Float) -> Float { min(max(opacity, 0), 1) }
}
