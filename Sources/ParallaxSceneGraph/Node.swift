import Foundation
import ParallaxMath

/// A node of the scene graph: a local transform (translation, rotation, scale) relative to its
/// parent, plus optional attachments (geometry, light, camera). SceneKit's `SCNNode`.
///
/// Nodes are mutable reference types shared through the tree (a parent holds its children, a
/// child points back weakly). They are deliberately **not** `Sendable`: nothing here is locked,
/// so a scene belongs to one isolation domain (the thread that builds and renders it). Send a
/// value snapshot (meshes, materials, matrices are all `Sendable` values) when work must cross
/// threads.
public final class Node {
    /// Optional name, used by ``childNode(withName:recursively:)`` and in scene files.
    public var name: String?
    /// Translation relative to the parent, in metres.
    public var position: Vector3f = .zero
    /// Rotation relative to the parent (child → parent, Hamilton).
    public var orientation: Quaternionf = .identity
    /// Scale along the local axes.
    public var scale: Vector3f = Vector3f(1, 1, 1)
    /// The drawable attached to this node.
    public var geometry: Geometry?
    /// The light attached to this node; it shines along the node's -z axis.
    public var light: Light?
    /// The camera attached to this node; it looks down the node's -z axis.
    public var camera: Camera?
    /// Hidden nodes (and their subtrees) are neither drawn nor hit-tested.
    public var isHidden = false
    /// Opacity multiplied into the materials of this node and its subtree (0…1).
    public var opacity: Float = 1
    /// Whether this node's geometry casts shadows.
    public var castsShadow = true
    /// Draw order hint: lower values draw first (SceneKit's `renderingOrder`).
    public var renderingOrder = 0

    /// The parent node, `nil` for a root or a detached node.
    public private(set) weak var parent: Node?
    /// The children, in insertion order.
    public private(set) var childNodes: [Node] = []

    /// Creates an empty node.
    public init(name: String? = nil) { self.name = name }

    /// Creates a node holding `geometry`.
    public convenience init(geometry: Geometry, name: String? = nil) {
        self.init(name: name)
        self.geometry = geometry
    }

    /// The local transform `T_parent_node = T * R * S`. Setting it decomposes the matrix into
    /// position, orientation and scale (shear is lost; a reflection is stored as a negative x scale).
    public var transform: Matrix4f {
        get { .compose(translation: position, rotation: orientation, scale: scale) }
        set { (position, orientation, scale) = Node.decompose(newValue) }
    }

    /// Splits an affine matrix into translation, rotation and scale.
    public static func decompose(_ m: Matrix4f) -> (Vector3f, Quaternionf, Vector3f) {
        let t = Vector3f(m.columns.3.x, m.columns.3.y, m.columns.3.z)
        var c0 = Vector3f(m.columns.0.x, m.columns.0.y, m.columns.0.z)
        let c1 = Vector3f(m.columns.1.x, m.columns.1.y, m.columns.1.z)
        let c2 = Vector3f(m.columns.2.x, m.columns.2.y, m.columns.2.z)
        var s = Vector3f(c0.norm, c1.norm, c2.norm)
        if c0.dot(c1.cross(c2)) < 0 { s.x = -s.x; c0 = -c0 }
        guard s.x != 0, s.y != 0, s.z != 0 else { return (t, .identity, s) }
        let r = Matrix3(columns: (c0 / abs(s.x)).double, (c1 / s.y).double, (c2 / s.z).double)
        return (t, Quaternionf(Quaternion(rotationMatrix: r)), s)
    }

    /// The transform from this node's coordinates into world (root) coordinates.
    public var worldTransform: Matrix4f {
        var m = transform
        var p = parent
        while let node = p { m = node.transform * m; p = node.parent }
        return m
    }

    /// The node's position in world coordinates.
    public var worldPosition: Vector3f {
        let c = worldTransform.columns.3
        return Vector3f(c.x, c.y, c.z)
    }

    /// The world-space direction of the node's -z axis: where a light shines or a camera looks.
    public var worldFront: Vector3f { worldTransform.transformDirection(Vector3f(0, 0, -1)).normalized }

    /// True when this node and all its ancestors are visible.
    public var isEffectivelyVisible: Bool {
        var n: Node? = self
        while let node = n { if node.isHidden { return false }; n = node.parent }
        return true
    }

    /// Appends `child`, removing it from its previous parent first. Adding an ancestor
    /// (which would create a cycle) or the node itself is ignored.
    public func addChildNode(_ child: Node) {
        guard child !== self, !isDescendant(of: child) else { return }
        child.removeFromParentNode()
        child.parent = self
        childNodes.append(child)
    }

    /// Detaches this node from its parent.
    public func removeFromParentNode() {
        guard let p = parent else { return }
        p.childNodes.removeAll { $0 === self }
        parent = nil
    }

    /// True when `node` is a (strict) ancestor of this node.
    public func isDescendant(of node: Node) -> Bool {
        var p = parent
        while let q = p { if q === node { return true }; p = q.parent }
        return false
    }

    /// The first child (depth first when `recursively`) whose name is `name`.
    public func childNode(withName name: String, recursively: Bool = true) -> Node? {
        for child in childNodes where child.name == name { return child }
        guard recursively else { return nil }
        for child in childNodes { if let hit = child.childNode(withName: name, recursively: true) { return hit } }
        return nil
    }

    /// This node and every descendant, depth first (pre-order).
    public var subtree: [Node] {
        var out: [Node] = [self]
        var i = 0
        while i < out.count { out.append(contentsOf: out[i].childNodes); i += 1 }
        return out
    }

    /// Converts a point from this node's coordinates into `node`'s (world when `nil`).
    public func convertPosition(_ p: Vector3f, to node: Node?) -> Vector3f {
        let world = worldTransform.transformPoint(p)
        guard let node, let inv = node.worldTransform.inverse else { return world }
        return inv.transformPoint(world)
    }

    /// Converts a point from `node`'s coordinates (world when `nil`) into this node's.
    public func convertPosition(_ p: Vector3f, from node: Node?) -> Vector3f {
        let world = node?.worldTransform.transformPoint(p) ?? p
        guard let inv = worldTransform.inverse else { return world }
        return inv.transformPoint(world)
    }

    /// Converts a direction (no translation) from this node's coordinates into `node`'s.
    public func convertVector(_ v: Vector3f, to node: Node?) -> Vector3f {
        let world = worldTransform.transformDirection(v)
        guard let node, let inv = node.worldTransform.inverse else { return world }
        return inv.transformDirection(world)
    }

    /// Orients the node so its -z axis points at `target` (in the parent's coordinates), with
    /// `up` (default +y) as close to the node's +y as possible.
    public func look(at target: Vector3f, up: Vector3f = Vector3f(0, 1, 0)) {
        orientation = Node.orientation(lookingFrom: position, at: target, up: up)
    }

    /// The rotation whose -z axis points from `eye` to `target`.
    public static func orientation(lookingFrom eye: Vector3f, at target: Vector3f, up: Vector3f) -> Quaternionf {
        let back = (eye - target).normalized
        guard back.isFinite, back.squaredNorm > 0 else { return .identity }
        var right = up.cross(back)
        if right.squaredNorm < 1e-10 { right = Vector3f(1, 0, 0).cross(back) }
        right = right.normalized
        let trueUp = back.cross(right)
        let r = Matrix3(columns: right.double, trueUp.double, back.double)
        return Quaternionf(Quaternion(rotationMatrix: r))
    }
}
