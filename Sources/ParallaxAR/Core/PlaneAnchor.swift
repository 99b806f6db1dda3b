import Foundation
import ParallaxMath

/// Orientation class of a detected plane (`ARPlaneAnchor.Alignment`).
public enum PlaneAlignment: String, Sendable, Hashable, CaseIterable {
    /// Normal along gravity (up or down).
    case horizontal
    /// Normal perpendicular to gravity.
    case vertical
}

/// What a plane is, from its orientation and height (`ARPlaneAnchor.Classification`).
public enum PlaneClassification: String, Sendable, Hashable, CaseIterable {
    /// Not classified.
    case none
    /// The lowest large upward-facing plane.
    case floor
    /// A vertical plane.
    case wall
    /// A downward-facing plane well above the floor.
    case ceiling
    /// An upward-facing plane 0.4–1.3 m above the floor.
    case table
}

/// Size of a plane in its own x–z axes, plus the angle of those axes about the plane's y axis
/// (`ARPlaneExtent`): the extent rectangle is the minimum-area rectangle of the boundary.
public struct PlaneExtent: Sendable, Equatable {
    /// Size along the rotated x axis (m).
    public var width: Double
    /// Size along the rotated z axis (m).
    public var height: Double
    /// Rotation (radians) of the rectangle about the anchor's y axis.
    public var rotationOnYAxis: Double
    /// Creates an extent.
    public init(width: Double, height: Double, rotationOnYAxis: Double) {
        self.width = width
        self.height = height
        self.rotationOnYAxis = rotationOnYAxis
    }
}

/// Boundary polygon and triangle mesh of a plane, in anchor coordinates (y = 0 on the plane)
/// (`ARPlaneGeometry`).
public struct PlaneGeometry: Sendable, Equatable {
    /// Boundary, counter-clockwise seen from +y (the side the normal points to).
    public var boundaryVertices: [Vector3]
    /// Mesh vertices (boundary first, then the interior ones if any).
    public var vertices: [Vector3]
    /// Triangles, three indices into ``vertices`` each, counter-clockwise seen from +y.
    public var triangleIndices: [Int]
    /// Creates a geometry.
    public init(boundaryVertices: [Vector3], vertices: [Vector3], triangleIndices: [Int]) {
        self.boundaryVertices = boundaryVertices
        self.vertices = vertices
        self.triangleIndices = triangleIndices
    }
    /// Area of the boundary polygon (m²).
    public var area: Double {
        var a = 0.0
        let b = boundaryVertices
        for i in 0..<b.count {
            let p = b[i], q = b[(i + 1) % b.count]
            a += p.z * q.x - p.x * q.z  // counter-clockwise seen from +y is positive
        }
        return abs(a) / 2
    }
}

/// A detected planar surface (`ARPlaneAnchor`).
///
/// The anchor's local y axis is the plane normal (pointing to the side the camera saw); local x
/// and z span the plane. ``center`` is the centre of the extent rectangle in local coordinates.
public struct PlaneAnchor: Anchor, Equatable {
    /// Stable identity.
    public var identifier: UUID
    /// Optional name.
    public var name: String?
    /// `T_A_plane`.
    public var transform: Matrix4
    /// Horizontal or vertical.
    public var alignment: PlaneAlignment
    /// Centre of the extent rectangle, anchor coordinates (y = 0).
    public var center: Vector3
    /// Extent rectangle.
    public var extent: PlaneExtent
    /// Boundary polygon and triangle mesh.
    public var geometry: PlaneGeometry
    /// Floor, wall, table, ceiling or none.
    public var classification: PlaneClassification

    /// Creates a plane anchor.
    public init(identifier: UUID, name: String? = nil, transform: Matrix4, alignment: PlaneAlignment,
                center: Vector3, extent: PlaneExtent, geometry: PlaneGeometry,
                classification: PlaneClassification) {
        self.identifier = identifier
        self.name = name
        self.transform = transform
        self.alignment = alignment
        self.center = center
        self.extent = extent
        self.geometry = geometry
        self.classification = classification
    }

    /// The plane's unit normal in the AR world (the anchor's y axis).
    public var normal: Vector3 { transform.column(1).xyz }
    /// A point of the plane in the AR world (the anchor's origin).
    public var origin: Vector3 { transform.column(3).xyz }
    /// Signed distance of the AR-world point `p` from the plane (positive on the normal's side).
    public func signedDistance(_ p: Vector3) -> Double { (p - origin).dot(normal) }
    /// The boundary polygon in AR-world coordinates.
    public var worldBoundary: [Vector3] {
        geometry.boundaryVertices.map { (transform * Vector4($0.x, $0.y, $0.z, 1)).xyz }
    }
}
