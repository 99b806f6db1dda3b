import Foundation
import ParallaxMath

extension SceneFileReader {
    /// A length in metres (positive, below ``GeometryLimits/maxSize``).
    private func length(_ f: JSONField, _ key: String, default value: Float, allowZero: Bool = false) throws -> Float {
        guard let c = f.child(key) else { return value }
        let v = try c.float()
        guard allowZero ? v >= 0 : v > 0 else { throw c.error("must be \(allowZero ? "≥ 0" : "> 0"), found \(v)") }
        guard v <= GeometryLimits.maxSize else { throw c.error("\(v) m is over the \(GeometryLimits.maxSize) m limit") }
        return v
    }

    private func segments(_ f: JSONField, _ key: String, default value: Int, minimum: Int = 1) throws -> Int {
        try f.int(key, in: minimum...GeometryLimits.maxSegments) ?? value
    }

    func geometry(_ f: JSONField) throws -> Geometry {
        _ = try f.object()
        guard let typeField = f.child("type") else { throw f.error("needs a \"type\"") }
        let type = try typeField.string()
        let common: Set<String> = ["type", "material", "materials", "name"]
        var g: Geometry
        switch type {
        case "box":
            try f.checkKeys(common.union(["width", "height", "length", "chamferRadius", "chamferSegments"]))
            let w = try length(f, "width", default: 1), h = try length(f, "height", default: 1), l = try length(f, "length", default: 1)
            let r = try length(f, "chamferRadius", default: 0, allowZero: true)
            guard r <= min(w, h, l) / 2 else { throw f.error("chamferRadius \(r) exceeds half the smallest side") }
            g = .box(width: w, height: h, length: l, chamferRadius: r, chamferSegments: try segments(f, "chamferSegments", default: 4))
        case "sphere":
            try f.checkKeys(common.union(["radius", "segments"]))
            g = .sphere(radius: try length(f, "radius", default: 0.5), segments: try segments(f, "segments", default: 48, minimum: 3))
        case "plane":
            try f.checkKeys(common.union(["width", "height", "widthSegments", "heightSegments"]))
            g = .plane(width: try length(f, "width", default: 1), height: try length(f, "height", default: 1),
                       widthSegments: try segments(f, "widthSegments", default: 1), heightSegments: try segments(f, "heightSegments", default: 1))
        case "cylinder":
            try f.checkKeys(common.union(["radius", "height", "radialSegments", "heightSegments"]))
            g = .cylinder(radius: try length(f, "radius", default: 0.5), height: try length(f, "height", default: 1),
                          radialSegments: try segments(f, "radialSegments", default: 48, minimum: 3), heightSegments: try segments(f, "heightSegments", default: 1))
        case "cone":
            try f.checkKeys(common.union(["topRadius", "bottomRadius", "height", "radialSegments", "heightSegments"]))
            let top = try length(f, "topRadius", default: 0, allowZero: true), bottom = try length(f, "bottomRadius", default: 0.5, allowZero: true)
            guard top > 0 || bottom > 0 else { throw f.error("a cone needs topRadius or bottomRadius > 0") }
            g = .cone(topRadius: top, bottomRadius: bottom,
                      height: try length(f, "height", default: 1), radialSegments: try segments(f, "radialSegments", default: 48, minimum: 3),
                      heightSegments: try segments(f, "heightSegments", default: 1))
        case "torus":
            try f.checkKeys(common.union(["ringRadius", "pipeRadius", "ringSegments", "pipeSegments"]))
            g = .torus(ringRadius: try length(f, "ringRadius", default: 0.5), pipeRadius: try length(f, "pipeRadius", default: 0.15),
                       ringSegments: try segments(f, "ringSegments", default: 48, minimum: 3), pipeSegments: try segments(f, "pipeSegments", default: 24, minimum: 3))
        case "capsule":
            try f.checkKeys(common.union(["capRadius", "height", "radialSegments", "capSegments"]))
            let capRadius = try length(f, "capRadius", default: 0.25), height = try length(f, "height", default: 1)
            // SceneKit's capsule height includes both caps, so it cannot be shorter than their diameter.
            guard height >= 2 * capRadius else {
                throw SceneError(file: f.file, field: f.path + ".height",
                                 "must be at least 2 × capRadius (\(2 * capRadius)), found \(height)")
            }
            g = .capsule(capRadius: capRadius, height: height,
                         radialSegments: try segments(f, "radialSegments", default: 48, minimum: 3), capSegments: try segments(f, "capSegments", default: 12, minimum: 2))
        case "pyramid":
            try f.checkKeys(common.union(["width", "height", "length"]))
            g = .pyramid(width: try length(f, "width", default: 1), height: try length(f, "height", default: 1), length: try length(f, "length", default: 1))
        case "floor":
            try f.checkKeys(common.union(["extent"]))
            g = .floor(extent: try length(f, "extent", default: 200))
        default:
            throw typeField.error("unknown geometry type \"\(type)\"; expected box, sphere, plane, cylinder, cone, torus, capsule, pyramid or floor")
        }
        g.name = try f.string("name")
        if let m = f.child("material") {
            g.materials = [try materials.material(m)]
        } else if let ms = f.child("materials") {
            let list = try ms.array().map { try materials.material($0) }
            guard !list.isEmpty else { throw ms.error("needs at least one material") }
            g.materials = list
        }
        return g
    }

    func light(_ f: JSONField) throws -> Light {
        try f.checkKeys(["type", "intensity", "color", "temperature", "attenuationStart", "attenuationEnd", "attenuationFalloff",
                         "spotInnerAngle", "spotOuterAngle", "castsShadow", "shadowMapSize", "shadowRadius", "shadowSamples",
                         "shadowBias", "orthographicScale", "zNear", "zFar"])
        guard let t = f.child("type") else { throw f.error("needs a \"type\" (ambient, directional, omni or spot)") }
        var l = Light(type: try t.oneOf(Light.LightType.self))
        l.intensity = try f.float("intensity", in: 0...1e7) ?? l.intensity
        if let c = f.child("color") { let v = try MaterialReader.color(c); l.color = Vector3f(v.x, v.y, v.z) }
        l.temperature = try f.float("temperature", in: 1000...40000)
        l.attenuationStartDistance = try f.float("attenuationStart", in: 0...1e6) ?? 0
        l.attenuationEndDistance = try f.float("attenuationEnd", in: 0...1e6) ?? 0
        if l.attenuationEndDistance > 0, l.attenuationEndDistance < l.attenuationStartDistance {
            throw f.error("attenuationEnd must not be smaller than attenuationStart")
        }
        l.attenuationFalloffExponent = try f.float("attenuationFalloff", in: 0...10) ?? 2
        l.spotInnerAngle = try f.float("spotInnerAngle", in: 0...179) ?? 0
        l.spotOuterAngle = try f.float("spotOuterAngle", in: 0...179) ?? 45
        guard l.spotInnerAngle <= l.spotOuterAngle else { throw f.error("spotInnerAngle must not exceed spotOuterAngle") }
        l.castsShadow = try f.bool("castsShadow") ?? false
        l.shadowMapSize = try f.int("shadowMapSize", in: 16...8192) ?? l.shadowMapSize
        l.shadowRadius = try f.float("shadowRadius", in: 0...64) ?? l.shadowRadius
        l.shadowSampleCount = try f.int("shadowSamples", in: 1...64) ?? l.shadowSampleCount
        l.shadowBias = try f.float("shadowBias", in: 0...1) ?? l.shadowBias
        l.orthographicScale = try f.float("orthographicScale", in: 0.001...1e5) ?? l.orthographicScale
        l.zNear = try f.float("zNear", in: 1e-5...1e5) ?? l.zNear
        l.zFar = try f.float("zFar", in: 1e-4...1e7) ?? l.zFar
        guard l.zFar > l.zNear else { throw f.error("zFar must be greater than zNear") }
        return l
    }

    func camera(_ f: JSONField) throws -> Camera {
        try f.checkKeys(["name", "fieldOfView", "zNear", "zFar", "orthographic", "orthographicScale", "projection"])
        var c = Camera()
        c.name = try f.string("name")
        c.fieldOfView = try f.float("fieldOfView", in: 1...179) ?? c.fieldOfView
        c.zNear = try f.float("zNear", in: 1e-5...1e5) ?? c.zNear
        c.zFar = try f.float("zFar", in: 1e-4...1e7) ?? c.zFar
        guard c.zFar > c.zNear else { throw f.error("zFar must be greater than zNear") }
        c.usesOrthographicProjection = try f.bool("orthographic") ?? false
        c.orthographicScale = try f.float("orthographicScale", in: 1e-4...1e5) ?? c.orthographicScale
        if let p = f.child("projection") {
            let projection = Matrix4(rowMajor: try p.floats(count: 16...16).map(Double.init))
            // A singular projection maps the view onto a plane or line: nothing would draw.
            guard projection.inverse != nil else { throw p.error("projection matrix is singular (it has no inverse)") }
            c.projectionTransform = projection.float
        }
        return c
    }
}
