import Foundation
import ParallaxMath
import ParallaxSceneGraph

/// Everything one frame draws, gathered from the scene graph on the CPU before any GL call.
struct FramePlan {
    /// One element of one node's geometry with its material and world transform.
    struct DrawItem {
        let geometry: Geometry
        let elementIndex: Int
        let material: Material
        let model: Matrix4f
        let opacity: Float
        let renderingOrder: Int
        let castsShadow: Bool
        let isTransparent: Bool
        let isOccluder: Bool
        /// View-space distance of the bounding-box centre (for back-to-front sorting).
        let depth: Float
        /// For the infinite floor: texture coordinates = scale * aTexcoord + offset.
        let texcoordTransform: Vector4f
    }
    /// A light in world space.
    struct LightItem {
        let light: Light
        let position: Vector3f
        let direction: Vector3f
        var shadowLayer: Int = -1
        var shadowMatrix = Matrix4f.identity
        var normalOffset: Float = 0
    }

    var items: [DrawItem] = []
    var lights: [LightItem] = []
    var view = Matrix4f.identity
    var projection = Matrix4f.identity
    var cameraPosition = Vector3f.zero
    /// World bounds of finite visible geometry (shadow volumes are fitted to it).
    var bounds: BoundingBox?

    static let maxLights = 8
    static let maxShadowMaps = 4

    /// Gathers the scene's visible nodes (``Scene/visibleNodes``: a hidden node hides its subtree,
    /// opacity multiplies down), their lights and the elements of their geometry.
    init(scene: Scene, camera: Node?, aspect: Float) {
        // Camera: the given node, else the scene's point of view, else one framing the scene's bounds.
        bounds = scene.worldBoundingBox
        if let node = camera ?? scene.pointOfView {
            let world = node.worldTransform
            view = world.inverse ?? .identity
            projection = (node.camera ?? Camera()).projectionMatrix(aspect: aspect)
            cameraPosition = Vector3f(world.columns.3.x, world.columns.3.y, world.columns.3.z)
        } else {
            let box = bounds ?? BoundingBox(min: Vector3f(-1, -1, -1), max: Vector3f(1, 1, 1))
            let radius = max(box.size.norm / 2, 0.1)
            cameraPosition = box.center + Vector3f(0, radius * 0.5, radius * 2.2)
            view = .lookAt(eye: cameraPosition, target: box.center, up: Vector3f(0, 1, 0))
            projection = Camera(fieldOfView: 60, zNear: radius * 0.05, zFar: radius * 10).projectionMatrix(aspect: aspect)
        }
        let floorExtent = Self.floorExtent(projection)
        for visible in scene.visibleNodes {
            let node = visible.node, world = visible.worldTransform, opacity = visible.opacity
            if let light = node.light, lights.count < Self.maxLights {
                let position = Vector3f(world.columns.3.x, world.columns.3.y, world.columns.3.z)
                let direction = world.transformDirection(Vector3f(0, 0, -1)).normalized
                lights.append(LightItem(light: light, position: position, direction: direction))
            }
            guard let geometry = node.geometry, opacity > 0 else { continue }
            var model = world
            var uv = Vector4f(1, 1, 0, 0)
            if geometry.isInfinite {
                (model, uv) = Self.floorTransform(world: world, camera: cameraPosition, extent: floorExtent, mesh: geometry.mesh)
            }
            let center = model.transformPoint(geometry.boundingBox.center)
            let depth = -view.transformPoint(center).z
            for e in geometry.mesh.elements.indices {
                let material = geometry.material(forElement: e)
                let occluder = material.colorBufferWriteMask.isEmpty
                let scale = material.diffuse.textureScale
                let texcoords = geometry.isInfinite ? uv * Vector4f(scale.x, scale.y, scale.x, scale.y) : Vector4f(scale.x, scale.y, 0, 0)
                let transparent = !occluder && (material.isTranslucent || opacity < 1 || material.blendMode == .add)
                items.append(DrawItem(
                    geometry: geometry, elementIndex: e, material: material, model: model, opacity: opacity,
                    renderingOrder: node.renderingOrder, castsShadow: node.castsShadow && !occluder && !geometry.isInfinite,
                    isTransparent: transparent, isOccluder: occluder, depth: depth, texcoordTransform: texcoords))
            }
        }
        if lights.isEmpty {
            // A scene without lights (typical of glTF/OBJ files) would render black: like SceneKit's
            // autoenablesDefaultLighting, add a headlight along the view direction plus a little ambient light.
            let cameraWorld = view.inverse ?? .identity
            let forward = cameraWorld.transformDirection(Vector3f(0, 0, -1)).normalized
            lights.append(LightItem(light: Light(type: .ambient, intensity: 300), position: .zero, direction: forward))
            lights.append(LightItem(light: Light(type: .directional, intensity: 1000), position: cameraPosition, direction: forward))
        }
        // SceneKit's order: renderingOrder first; within it occluders, then opaque, then transparent back to front.
        items.sort { a, b in
            if a.renderingOrder != b.renderingOrder { return a.renderingOrder < b.renderingOrder }
            let ka = a.isOccluder ? 0 : (a.isTransparent ? 2 : 1)
            let kb = b.isOccluder ? 0 : (b.isTransparent ? 2 : 1)
            if ka != kb { return ka < kb }
            return ka == 2 ? a.depth > b.depth : a.depth < b.depth
        }
    }

    /// How far the floor must reach: the far plane of the projection (NDC z = 1 mapped back), at most 10 km.
    private static func floorExtent(_ projection: Matrix4f) -> Float {
        guard let inverse = projection.inverse else { return 1000 }
        let far = inverse.transformPoint(Vector3f(0, 0, 1))
        let d = far.norm
        return d.isFinite && d > 0 ? min(d * 1.5, 10_000) : 1000
    }

    /// Maps the floor's stand-in mesh (a square in the node's y = 0 plane) onto a square of half-size `extent`
    /// centred under the camera, so it reaches the horizon wherever the camera goes. Texture coordinates stay
    /// in metres of the floor's own plane (offset and scale returned for the shader).
    private static func floorTransform(world: Matrix4f, camera: Vector3f, extent: Float, mesh: Mesh) -> (Matrix4f, Vector4f) {
        let box = mesh.boundingBox
        let half = max(max(box.size.x, box.size.z) / 2, 1e-3)
        let local = (world.inverse ?? .identity).transformPoint(camera)
        let s = extent / half
        let model = world * .translation(Vector3f(local.x, 0, local.z)) * .scale(Vector3f(s, 1, s))
        // Texture coordinates in metres of the floor plane: map the stand-in's texcoord range (whatever it is)
        // linearly onto the square's 2·extent metres.
        let us = mesh.texcoords.map(\.x), vs = mesh.texcoords.map(\.y)
        let uMin = us.min() ?? 0, vMin = vs.min() ?? 0
        let uRange = max((us.max() ?? 1) - uMin, 1e-6), vRange = max((vs.max() ?? 1) - vMin, 1e-6)
        let scale = Vector2f(2 * extent / uRange, 2 * extent / vRange)
        let uvOffset = Vector2f(local.x - extent - uMin * scale.x, local.z - extent - vMin * scale.y)
        return (model, Vector4f(scale.x, scale.y, uvOffset.x, uvOffset.y))
    }

    /// Assigns shadow-map layers to shadow-casting directional and spot lights and fits their volumes to the scene.
    mutating func planShadows(mapSize: Int) {
        guard let bounds else { return }
        let center = bounds.center
        let radius = max(bounds.size.norm / 2, 0.05)
        var layer = 0
        for i in lights.indices where layer < Self.maxShadowMaps {
            let l = lights[i]
            guard l.light.castsShadow, l.light.type == .directional || l.light.type == .spot else { continue }
            let d = l.direction
            let up: Vector3f = abs(d.y) > 0.99 ? Vector3f(0, 0, 1) : Vector3f(0, 1, 0)
            let matrix: Matrix4f
            let texelWorld: Float
            if l.light.type == .directional {
                // An orthographic box around the bounding sphere of everything that can cast a shadow.
                let eye = center - d * (radius * 2)
                let v = Matrix4f.lookAt(eye: eye, target: center, up: up)
                let p = Matrix4f.orthographic(left: -radius, right: radius, bottom: -radius, top: radius, near: radius * 0.5, far: radius * 3.5)
                matrix = p * v
                texelWorld = 2 * radius / Float(mapSize)
            } else {
                let toCenter = (center - l.position).norm
                let near = max(l.light.zNear, 0.01)
                let far = max(min(l.light.zFar, toCenter + radius * 2), near * 2)
                let fov = min(max(l.light.spotOuterAngle, 1), 170) * .pi / 180
                let v = Matrix4f.lookAt(eye: l.position, target: l.position + d, up: up)
                matrix = Matrix4f.perspective(fovY: fov, aspect: 1, near: near, far: far) * v
                texelWorld = 2 * toCenter * tan(fov / 2) / Float(mapSize)
            }
            lights[i].shadowLayer = layer
            lights[i].shadowMatrix = matrix
            lights[i].normalOffset = 1.5 * texelWorld + l.light.shadowBias
            layer += 1
        }
    }

    /// Number of shadow maps in use.
    var shadowLayerCount: Int { lights.filter { $0.shadowLayer >= 0 }.count }
}
