import Foundation
import ParallaxImaging
import ParallaxMath
import ParallaxSceneGraph

/// Small deterministic scenes for the golden-image tests, one per feature.
enum TestScenes {
    /// A camera at `eye` looking at `target`.
    static func cameraNode(eye: Vector3f, target: Vector3f = .zero, fov: Float = 45) -> Node {
        let node = Node(name: "camera")
        node.camera = Camera(fieldOfView: fov, zNear: 0.1, zFar: 50)
        node.transform = (Matrix4f.lookAt(eye: eye, target: target, up: Vector3f(0, 1, 0))).inverse ?? .identity
        return node
    }

    static func lightNode(_ light: Light, at position: Vector3f = .zero, lookingAt target: Vector3f? = nil) -> Node {
        let node = Node(name: light.type.rawValue)
        node.light = light
        if let target {
            node.transform = (Matrix4f.lookAt(eye: position, target: target, up: Vector3f(0, 1, 0.01))).inverse ?? .identity
        } else {
            node.position = position
        }
        return node
    }

    /// Camera, an ambient light (300 lm) and a directional key light (1000 lm) from the upper left front.
    static func base(background: Vector4f = Vector4f(0.05, 0.06, 0.08, 1)) -> Scene {
        let scene = Scene()
        scene.background = .color(background)
        scene.rootNode.addChildNode(cameraNode(eye: Vector3f(0, 1.2, 3.2), target: Vector3f(0, 0.1, 0)))
        scene.rootNode.addChildNode(lightNode(Light(type: .ambient, intensity: 300)))
        scene.rootNode.addChildNode(lightNode(Light(type: .directional), at: Vector3f(-2, 4, 3), lookingAt: .zero))
        return scene
    }

    static func material(_ model: Material.LightingModel, _ r: Float, _ g: Float, _ b: Float) -> Material {
        var m = Material(lightingModel: model, diffuse: .color(r, g, b))
        m.specular = .color(0.8, 0.8, 0.8)
        m.shininess = .scalar(40)
        return m
    }

    /// One primitive of each kind (the cases of `Geometry.Kind` except custom).
    static func geometry(_ name: String) -> Scene {
        let scene = base()
        let m = material(.blinn, 0.2, 0.45, 0.8)
        let g: Geometry
        switch name {
        case "box": g = .box(width: 1, height: 1, length: 1, chamferRadius: 0.1, material: m)
        case "sphere": g = .sphere(radius: 0.7, material: m)
        case "plane": g = .plane(width: 1.6, height: 1.2, material: m)
        case "cylinder": g = .cylinder(radius: 0.5, height: 1.2, material: m)
        case "cone": g = .cone(topRadius: 0.1, bottomRadius: 0.6, height: 1.2, material: m)
        case "torus": g = .torus(ringRadius: 0.6, pipeRadius: 0.2, material: m)
        case "capsule": g = .capsule(capRadius: 0.35, height: 1.4, material: m)
        case "pyramid": g = .pyramid(width: 1, height: 1.1, length: 1, material: m)
        default: g = .floor(material: checkerMaterial())
        }
        let node = Node(geometry: g, name: name)
        if name == "box" || name == "pyramid" { node.orientation = Quaternionf(axis: Vector3f(0, 1, 0), angle: 0.6) }
        if name == "torus" { node.orientation = Quaternionf(axis: Vector3f(1, 0, 0), angle: 0.9) }
        if name == "pyramid" { node.position = Vector3f(0, -0.5, 0) }
        scene.rootNode.addChildNode(node)
        return scene
    }

    /// A 64×64 two-tone checkerboard (8×8 squares), sRGB.
    static func checker(_ a: RGBA8, _ b: RGBA8, identity: String) -> Texture {
        var image = RGBAImage(width: 64, height: 64, fill: a)
        for y in 0..<64 { for x in 0..<64 where ((x / 8) + (y / 8)) % 2 == 1 { image[x, y] = b } }
        return Texture(image: image, identity: identity)
    }

    static func checkerMaterial() -> Material {
        var m = Material(lightingModel: .lambert, diffuse: .texture(checker(
            RGBA8(r: 200, g: 200, b: 200), RGBA8(r: 60, g: 60, b: 70), identity: "test-checker")))
        m.diffuse.textureScale = Vector2f(0.5, 0.5)
        return m
    }

    /// A sphere with lighting model `model` above a floor.
    static func lightingModel(_ model: Material.LightingModel) -> Scene {
        let scene = base()
        var m = material(model, 0.8, 0.3, 0.2)
        if model == .physicallyBased {
            m.metalness = .scalar(0.6)
            m.roughness = .scalar(0.35)
        }
        m.emission = .color(0.02, 0.02, 0.0)
        scene.rootNode.addChildNode(Node(geometry: .sphere(radius: 0.8, material: m), name: "sphere"))
        return scene
    }

    /// A grey plane with one light of `type` (plus a dim ambient for the non-ambient cases).
    static func light(_ type: Light.LightType) -> Scene {
        let scene = Scene()
        scene.background = .color(Vector4f(0, 0, 0, 1))
        scene.rootNode.addChildNode(cameraNode(eye: Vector3f(0, 2.5, 3), target: Vector3f(0, 0, 0)))
        let floor = Node(geometry: .plane(width: 4, height: 4, widthSegments: 8, heightSegments: 8, material: material(.lambert, 0.8, 0.8, 0.8)), name: "ground")
        floor.orientation = Quaternionf(axis: Vector3f(1, 0, 0), angle: -.pi / 2)
        scene.rootNode.addChildNode(floor)
        scene.rootNode.addChildNode(Node(geometry: .sphere(radius: 0.4, material: material(.phong, 0.9, 0.9, 0.9)), name: "ball"))
        var light = Light(type: type, intensity: 1000)
        switch type {
        case .ambient: light.intensity = 800; light.temperature = 3500
        case .directional: scene.rootNode.addChildNode(lightNode(light, at: Vector3f(1, 3, 1), lookingAt: .zero)); return scene
        case .omni:
            light.attenuationStartDistance = 0.5; light.attenuationEndDistance = 3; light.color = Vector3f(1, 0.8, 0.5)
            scene.rootNode.addChildNode(lightNode(light, at: Vector3f(0.8, 1.0, 0.6)))
            return scene
        case .spot:
            light.spotInnerAngle = 30; light.spotOuterAngle = 50; light.intensity = 1500
            scene.rootNode.addChildNode(lightNode(light, at: Vector3f(-0.5, 2.5, 1), lookingAt: Vector3f(0.3, 0, 0)))
            return scene
        }
        scene.rootNode.addChildNode(lightNode(light))
        return scene
    }

    /// Objects on an infinite floor, lit by a shadow-casting `type` light (directional or spot).
    static func shadows(_ type: Light.LightType) -> Scene {
        let scene = Scene()
        scene.background = .color(Vector4f(0.3, 0.4, 0.55, 1))
        scene.rootNode.addChildNode(cameraNode(eye: Vector3f(0, 2.2, 4), target: Vector3f(0, 0.3, 0)))
        scene.rootNode.addChildNode(lightNode(Light(type: .ambient, intensity: 250)))
        scene.rootNode.addChildNode(Node(geometry: .floor(material: material(.lambert, 0.7, 0.7, 0.7)), name: "floor"))
        let box = Node(geometry: .box(width: 0.8, height: 0.8, length: 0.8, material: material(.blinn, 0.8, 0.4, 0.1)), name: "box")
        box.position = Vector3f(-0.7, 0.4, 0)
        scene.rootNode.addChildNode(box)
        let ball = Node(geometry: .sphere(radius: 0.45, material: material(.blinn, 0.2, 0.6, 0.3)), name: "ball")
        ball.position = Vector3f(0.8, 0.45, 0.3)
        scene.rootNode.addChildNode(ball)
        var light = Light(type: type, intensity: type == .spot ? 2500 : 1200)
        light.castsShadow = true
        light.shadowMapSize = 1024
        light.shadowRadius = 2
        light.shadowSampleCount = 12
        if type == .spot { light.spotOuterAngle = 70; light.spotInnerAngle = 40 }
        scene.rootNode.addChildNode(lightNode(light, at: Vector3f(-2, 4, 2), lookingAt: .zero))
        return scene
    }

    /// Three overlapping translucent coloured panes in front of an opaque box.
    static func transparency() -> Scene {
        let scene = base()
        scene.rootNode.addChildNode(Node(geometry: .box(width: 0.6, height: 0.6, length: 0.6, material: material(.lambert, 0.9, 0.9, 0.9)), name: "box"))
        let colors: [Vector3f] = [Vector3f(1, 0, 0), Vector3f(0, 1, 0), Vector3f(0, 0, 1)]
        for (i, c) in colors.enumerated() {
            var m = material(.constant, c.x, c.y, c.z)
            m.transparency = 0.5
            m.isDoubleSided = true
            let pane = Node(geometry: .plane(width: 0.9, height: 0.9, material: m), name: "pane\(i)")
            pane.position = Vector3f(Float(i) * 0.35 - 0.35, Float(i) * 0.15 - 0.1, 0.6 + Float(i) * 0.3)
            scene.rootNode.addChildNode(pane)
        }
        let faded = Node(geometry: .sphere(radius: 0.3, material: material(.blinn, 1, 0.8, 0)), name: "faded")
        faded.position = Vector3f(0.9, 0.5, -0.5)
        faded.opacity = 0.4
        scene.rootNode.addChildNode(faded)
        return scene
    }

    /// An occluder box hides the middle of a sphere behind it; the background shows through.
    static func occluder() -> Scene {
        let scene = base()
        let ball = Node(geometry: .sphere(radius: 0.8, material: material(.blinn, 0.9, 0.2, 0.6)), name: "ball")
        ball.position = Vector3f(0, 0, -0.5)
        scene.rootNode.addChildNode(ball)
        let wall = Node(geometry: .box(width: 0.6, height: 2, length: 0.1, material: .occluder()), name: "occluder")
        wall.position = Vector3f(0, 0, 0.6)
        wall.renderingOrder = -1
        scene.rootNode.addChildNode(wall)
        let hidden = Node(geometry: .box(width: 3, height: 3, length: 0.1, material: material(.constant, 1, 1, 0)), name: "hidden")
        hidden.isHidden = true
        scene.rootNode.addChildNode(hidden)
        return scene
    }

    /// Fog over a row of boxes receding into the distance, on an infinite checker floor.
    static func fog() -> Scene {
        let scene = Scene()
        scene.background = .color(Vector4f(0.6, 0.65, 0.7, 1))
        scene.fog = Fog(startDistance: 2, endDistance: 14, color: Vector3f(0.6, 0.65, 0.7))
        scene.rootNode.addChildNode(cameraNode(eye: Vector3f(0, 1.2, 3), target: Vector3f(0, 0.5, -3), fov: 60))
        scene.rootNode.addChildNode(lightNode(Light(type: .ambient, intensity: 400)))
        scene.rootNode.addChildNode(lightNode(Light(type: .directional, intensity: 900), at: Vector3f(1, 3, 2), lookingAt: .zero))
        scene.rootNode.addChildNode(Node(geometry: .floor(material: checkerMaterial()), name: "floor"))
        for i in 0..<5 {
            let b = Node(geometry: .box(width: 0.6, height: 1, length: 0.6, material: material(.lambert, 0.7, 0.2, 0.2)), name: "b\(i)")
            b.position = Vector3f(i % 2 == 0 ? -0.8 : 0.8, 0.5, -Float(i) * 2.5)
            scene.rootNode.addChildNode(b)
        }
        return scene
    }

    /// A textured PBR sphere with a procedural bumpy normal map, and a background image.
    static func textured() -> Scene {
        let scene = base()
        var bg = RGBAImage(width: 32, height: 32, fill: RGBA8(r: 0, g: 0, b: 0))
        for y in 0..<32 { for x in 0..<32 { bg[x, y] = RGBA8(r: UInt8(x * 8), g: UInt8(y * 8), b: 120) } }
        scene.background = .image(Texture(image: bg, identity: "test-background"))
        var normals = RGBAImage(width: 64, height: 64, fill: RGBA8(r: 128, g: 128, b: 255))
        for y in 0..<64 {
            for x in 0..<64 {
                // Sinusoidal ridges along u: n ∝ (-dh/du, 0, 1).
                let slope = 0.8 * cos(Float(x) / 64 * 2 * .pi * 4)
                let n = Vector3f(-slope, 0, 1).normalized
                normals[x, y] = RGBA8(r: UInt8((n.x * 0.5 + 0.5) * 255), g: UInt8((n.y * 0.5 + 0.5) * 255), b: UInt8((n.z * 0.5 + 0.5) * 255))
            }
        }
        var normalTexture = Texture(image: normals, identity: "test-ridges")
        normalTexture.isSRGB = false
        var m = Material(lightingModel: .physicallyBased, diffuse: .texture(checker(
            RGBA8(r: 230, g: 180, b: 60), RGBA8(r: 40, g: 90, b: 200), identity: "test-checker-gold")))
        m.normal = .texture(normalTexture)
        m.roughness = .scalar(0.4)
        m.metalness = .scalar(0.2)
        var geometry = Geometry.sphere(radius: 0.8, material: m)
        geometry.mesh.generateTangents()
        scene.rootNode.addChildNode(Node(geometry: geometry, name: "textured"))
        return scene
    }
}
