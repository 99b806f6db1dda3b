import Foundation
import ParallaxImaging
import ParallaxMath
import ParallaxVision

/// A planar surface to sample shading on: a simple polygon (world frame) and its unit normal.
public struct ShadingPlane: Sendable, Equatable {
    /// Identifier (for reports).
    public var id: String
    /// Unit normal, world frame, on the side the camera is expected to see.
    public var normal: Vector3
    /// Polygon vertices in the world frame, in order, lying on the plane.
    public var polygon: [Vector3]

    /// Creates a plane.
    public init(id: String, normal: Vector3, polygon: [Vector3]) {
        self.id = id; self.normal = normal.normalized; self.polygon = polygon
    }
}

/// Collects the linear pixel values the camera sees on known planes, over one or more frames,
/// and summarises them per plane (medians are robust to virtual-free clutter, shadows cast by
/// objects standing on the plane and texture).
public struct PlaneShadingAccumulator: Sendable {
    /// Pixel grid step (px).
    public var step: Int
    /// Points closer than this to a polygon edge (m) are skipped: edges blur and shadows gather there.
    public var edgeMargin: Double
    /// Per plane: linear luminance values seen so far.
    public private(set) var values: [String: [Float]] = [:]
    /// Per plane: summed linear RGB (for the colour ratios).
    private var rgbSums: [String: Vector3] = [:]
    private var normals: [String: Vector3] = [:]

    /// Creates an empty accumulator.
    public init(step: Int = 4, edgeMargin: Double = 0.03) {
        self.step = max(1, step); self.edgeMargin = edgeMargin
    }

    /// Adds the pixels of `image` (sRGB-encoded, as captured) lying on `planes`, seen by a camera
    /// with lens `model` at `T_world_camera` (OpenCV camera frame: x right, y down, z forward).
    /// Each pixel's ray is intersected with every plane; the nearest hit inside its polygon wins,
    /// so planes hide each other correctly. Planes seen from behind are ignored.
    public mutating func add(image: AnyImage, model: any CameraModel, T_world_camera: RigidTransform, planes: [ShadingPlane]) {
        let rgba: RGBAImage? = { if case .gray8 = image { return nil }; if case .gray16 = image { return nil }; return image.toRGBA8() }()
        let gray: GrayImage? = rgba == nil ? image.toGray8() : nil
        let table = ImageBrightness.srgbDecodeTable
        // Plane frames for the point-in-polygon test.
        struct Prepared {
            let plane: ShadingPlane; let origin: Vector3; let u: Vector3; let v: Vector3; let poly: [Vector2]
            /// The polygon's bounding box: a hit outside it is outside the polygon.
            let low: Vector2, high: Vector2
            /// For a convex polygon, its orientation (+1 counter-clockwise, −1 clockwise): the
            /// interior test is then ``ConvexPolygon/insideDepth(_:inConvex:orientation:)``.
            let convexOrientation: Double?
        }
        let prepared: [Prepared] = planes.compactMap { p in
            guard p.polygon.count >= 3 else { return nil }
            let n = p.normal
            let u = (abs(n.y) < 0.9 ? Vector3(0, 1, 0) : Vector3(1, 0, 0)).cross(n).normalized
            let v = n.cross(u)
            let o = p.polygon[0]
            let poly = p.polygon.map { Vector2(($0 - o).dot(u), ($0 - o).dot(v)) }
            let low = poly.reduce(Vector2(repeating: .infinity)) { pointwiseMin($0, $1) }
            let high = poly.reduce(Vector2(repeating: -.infinity)) { pointwiseMax($0, $1) }
            return Prepared(plane: p, origin: o, u: u, v: v, poly: poly, low: low, high: high,
                            convexOrientation: ConvexPolygon.convexOrientation(poly))
        }
        guard !prepared.isEmpty else { return }
        let R = T_world_camera.rotation.rotationMatrix, c = T_world_camera.translation
        let w = image.width, h = image.height
        // Per prepared plane, this image's samples; merged into the per-id tables at the end
        // (a string-keyed lookup per sampled pixel was a twentieth of the AR session's time).
        var newValues = [[Float]](repeating: [], count: prepared.count)
        var newSums = [Vector3](repeating: .zero, count: prepared.count)
        for py in stride(from: step / 2, to: h, by: step) {
            for px in stride(from: step / 2, to: w, by: step) {
                let d = R * model.unproject(Vector2(Double(px), Double(py)))
                var bestT = Double.infinity, bestIndex = -1
                for (k, p) in prepared.enumerated() {
                    let denom = p.plane.normal.dot(d)
                    guard denom < -1e-6 else { continue }
                    let t = p.plane.normal.dot(p.origin - c) / denom
                    guard t > 0, t < bestT else { continue }
                    let q = c + d * t - p.origin
                    let q2 = Vector2(q.dot(p.u), q.dot(p.v))
                    guard q2.x >= p.low.x, q2.x <= p.high.x, q2.y >= p.low.y, q2.y <= p.high.y,
                          Self.inside(q2, p.poly, margin: edgeMargin, convexOrientation: p.convexOrientation)
                    else { continue }
                    bestT = t; bestIndex = k
                }
                guard bestIndex >= 0 else { continue }
                if let rgba {
                    let p = rgba.pixels[py * w + px]
                    let r: Double = table[Int(p.r)], g: Double = table[Int(p.g)], b: Double = table[Int(p.b)]
                    let lin = Vector3(r, g, b)
                    let lum: Double = 0.2126 * r + 0.7152 * g + 0.0722 * b
                    newValues[bestIndex].append(Float(lum))
                    newSums[bestIndex] += lin
                } else if let gray {
                    let lin = table[Int(gray.pixels[py * w + px])]
                    newValues[bestIndex].append(Float(lin))
                    newSums[bestIndex] += Vector3(lin, lin, lin)
                }
            }
        }
        for (k, p) in prepared.enumerated() where !newValues[k].isEmpty {
            let id = p.plane.id
            normals[id] = p.plane.normal
            values[id, default: []].append(contentsOf: newValues[k])
            rgbSums[id, default: .zero] += newSums[k]
        }
    }

    /// One sample per plane with at least `minimumPixels` pixels: median luminance, and the
    /// median scaled by the plane's mean colour ratios for RGB.
    public func samples(minimumPixels: Int = 20) -> [PlaneShadingSample] {
        values.keys.sorted().compactMap { id in
            guard let vals = values[id], vals.count >= minimumPixels, let n = normals[id] else { return nil }
            let sorted = vals.sorted()
            let median = Double(sorted[sorted.count / 2])
            let sum = rgbSums[id] ?? .zero
            let lum = 0.2126 * sum.x + 0.7152 * sum.y + 0.0722 * sum.z
            let rgb = lum > 0 ? sum * (median / lum) : Vector3(median, median, median)
            return PlaneShadingSample(id: id, normal: n, radiance: median, radianceRGB: rgb, pixelCount: vals.count)
        }
    }

    /// ``inside(_:_:margin:)``, for a convex polygon of known orientation by its inside depth
    /// (``ConvexPolygon/insideDepth(_:inConvex:orientation:)``): inside a convex polygon the
    /// nearest edge's closest point lies on that edge, so the depth at least `margin` is the same
    /// test in one pass. Plane anchors' boundaries are convex hulls, and this runs for every
    /// sampled pixel on every plane in view.
    static func inside(_ p: Vector2, _ poly: [Vector2], margin: Double, convexOrientation: Double?) -> Bool {
        guard let convexOrientation else { return inside(p, poly, margin: margin) }
        return ConvexPolygon.insideDepth(p, inConvex: poly, orientation: convexOrientation) >= margin
    }

    /// Even–odd point-in-polygon test, requiring `margin` distance from every edge. The edge
    /// distances are measured only for points inside (most sampled rays hit a plane outside its
    /// polygon, and the distances were most of the sampler's time).
    static func inside(_ p: Vector2, _ poly: [Vector2], margin: Double) -> Bool {
        var inside = false
        var j = poly.count - 1
        for i in 0..<poly.count {
            let a = poly[i], b = poly[j]
            if (a.y > p.y) != (b.y > p.y), p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x { inside.toggle() }
            j = i
        }
        guard inside, margin > 0 else { return inside }
        j = poly.count - 1
        for i in 0..<poly.count {
            let a = poly[i], b = poly[j]
            let e = b - a, len2 = (e * e).sum()
            let t = len2 > 0 ? max(0, min(1, ((p - a) * e).sum() / len2)) : 0
            let q = a + e * t - p
            if (q * q).sum() < margin * margin { return false }
            j = i
        }
        return true
    }
}
