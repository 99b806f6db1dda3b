import Foundation
import COpenGL
import ParallaxImaging
import ParallaxMath
import ParallaxSceneGraph

/// Draws a ``FramePlan`` with OpenGL into ``RenderTargets``: shadow pass, scene pass (background, occluders,
/// opaque, transparent), MSAA resolve and the sRGB present pass. Needs a current GL 3.3 core context.
final class SceneRenderer {
    private var meshPrograms: [ProgramKey: ShaderProgram] = [:]
    private let depthProgram: ShaderProgram
    private let backgroundProgram: ShaderProgram
    private let presentProgram: ShaderProgram
    private var emptyVAO: GLuint = 0
    let cache = ResourceCache()
    private var shadowMaps: ShadowMaps?
    /// What ``shadowMaps`` hold now (nil: nothing reusable). A shadow map depends on the lights and
    /// the shadow casters only, never on the camera, so a scene drawn again from another viewpoint
    /// with the same lights and casters (the simulator renders each camera frame up to 64 times,
    /// once per rolling-shutter band or blur instant) reuses them instead of drawing them again.
    private var shadowContent: ShadowContent?
    /// Render targets of the sizes used lately, most recent last. A few are kept because the simulator
    /// alternates between band heights within one frame, and making MSAA targets costs more than drawing.
    private var targets: [RenderTargets] = []
    private static let keptTargetSizes = 4
    /// When false, lights' `castsShadow` is ignored (benchmarks compare both).
    var shadowsEnabled = true

    // Texture units (fixed, set once after linking so no two sampler types ever share a unit).
    private enum Unit: Int32 { case diffuse = 0, specular, emission, normal, occlusion, metalness, roughness, shadow, image }

    init() throws {
        depthProgram = try ShaderProgram(vertex: "depth.vert", fragment: "depth.frag")
        backgroundProgram = try ShaderProgram(vertex: "fullscreen.vert", fragment: "background.frag")
        presentProgram = try ShaderProgram(vertex: "fullscreen.vert", fragment: "present.frag")
        glGenVertexArrays(1, &emptyVAO)
        // Compile the most common variant now so that shader errors surface at creation.
        _ = try meshProgram(for: ProgramKey(model: 2, shadows: false, maps: 0, vertexColor: false, tangents: false))
        glUseProgram(backgroundProgram.id)
        backgroundProgram.set("uImage", Unit.image.rawValue)
        glUseProgram(presentProgram.id)
        presentProgram.set("uColor", Unit.image.rawValue)
        glUseProgram(0)
        shadowMaps = try ShadowMaps(size: 16, layers: FramePlan.maxShadowMaps)
        try GLInfo.check("setting up the renderer")
    }

    deinit { glDeleteVertexArrays(1, &emptyVAO) }

    /// Which compile-time variant of mesh.frag a draw needs. Variants instead of uniform switches because the
    /// software rasteriser (llvmpipe) runs both sides of a branch under a mask: with uniform switches every
    /// pixel paid for all five lighting models, all texture fetches and the PCF loop (measured 7× slower).
    struct ProgramKey: Hashable {
        var model: Int32
        var shadows: Bool
        var maps: UInt8
        var vertexColor: Bool
        var tangents: Bool
        static let mapDefines = [
            "USE_DIFFUSE_MAP", "USE_SPECULAR_MAP", "USE_EMISSION_MAP", "USE_NORMAL_MAP", "USE_OCCLUSION_MAP",
            "USE_METALNESS_MAP", "USE_ROUGHNESS_MAP",
        ]
    }

    private func meshProgram(for key: ProgramKey) throws -> ShaderProgram {
        if let program = meshPrograms[key] { return program }
        var defines = ["LIGHTING_MODEL \(key.model)"]
        if key.shadows { defines.append("USE_SHADOWS") }
        for (bit, name) in ProgramKey.mapDefines.enumerated() where key.maps & (1 << bit) != 0 { defines.append(name) }
        if key.vertexColor { defines.append("USE_VERTEX_COLOR") }
        if key.tangents { defines.append("HAS_TANGENTS") }
        let program = try ShaderProgram(vertex: "mesh.vert", fragment: "mesh.frag", defines: defines)
        glUseProgram(program.id)
        let samplers: [(String, Unit)] = [
            ("uDiffuseMap", .diffuse), ("uSpecularMap", .specular), ("uEmissionMap", .emission), ("uNormalMap", .normal),
            ("uOcclusionMap", .occlusion), ("uMetalnessMap", .metalness), ("uRoughnessMap", .roughness),
            ("uShadowMaps", .shadow),
        ]
        for (name, unit) in samplers { program.set(name, unit.rawValue) }
        meshPrograms[key] = program
        return program
    }

    private static func modelIndex(_ model: Material.LightingModel) -> Int32 {
        switch model {
        case .constant: return 0
        case .lambert: return 1
        case .blinn: return 2
        case .phong: return 3
        case .physicallyBased: return 4
        }
    }

    private static func key(for m: Material, mesh: MeshBuffers, shadows: Bool) -> ProgramKey {
        let props: [MaterialProperty?] = [m.diffuse, m.specular, m.emission, m.normal, m.ambientOcclusion, m.metalness, m.roughness]
        var maps: UInt8 = 0
        for (bit, p) in props.enumerated() where p?.texture != nil { maps |= 1 << bit }
        return ProgramKey(model: modelIndex(m.lightingModel), shadows: shadows, maps: maps, vertexColor: mesh.hasColors, tangents: mesh.hasTangents)
    }

    /// Makes sure targets of this size and sample count exist.
    func prepareTargets(width: Int, height: Int, samples: Int) throws -> RenderTargets {
        if let i = targets.firstIndex(where: { $0.width == width && $0.height == height && $0.requestedSamples == samples }) {
            let t = targets.remove(at: i)
            targets.append(t)
            return t
        }
        if targets.count >= Self.keptTargetSizes { targets.removeFirst() }
        let t = try RenderTargets(width: width, height: height, samples: samples)
        targets.append(t)
        return t
    }

    /// Renders `scene` seen from `camera` into the targets' output framebuffer.
    func draw(scene: Scene, camera: Node?, targets t: RenderTargets) throws {
        cache.beginFrame()
        var plan = FramePlan(scene: scene, camera: camera, aspect: Float(t.width) / Float(t.height))
        if shadowsEnabled {
            let wanted = plan.lights.filter { $0.light.castsShadow }.map(\.light.shadowMapSize).max() ?? 0
            if wanted > 0 {
                let size = min(max(wanted, 256), 4096)
                if shadowMaps?.size != size {
                    shadowMaps = try ShadowMaps(size: size, layers: FramePlan.maxShadowMaps)
                    shadowContent = nil
                }
                plan.planShadows(mapSize: size)
                if plan.shadowLayerCount > 0 {
                    let content = try ShadowContent(plan, size: size, cache: cache)
                    if content != shadowContent {
                        drawShadowMaps(plan, casters: content.casters)
                        shadowContent = content
                    }
                }
            }
        }
        glBindFramebuffer(GLenum(gl: GL_FRAMEBUFFER), t.sceneFBO)
        glViewport(0, 0, GLsizei(t.width), GLsizei(t.height))
        glDepthMask(GLboolean(GL_TRUE))
        glColorMask(1, 1, 1, 1)
        var clear = Vector4f(0, 0, 0, 1)
        if case .color(let c) = scene.background { clear = c }
        glClearColor(clear.x, clear.y, clear.z, clear.w)
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT))
        if case .image(let texture) = scene.background { try drawBackground(texture) }
        try drawItems(plan, scene: scene)
        t.resolve()
        present(t)
        cache.evict()
        try GLInfo.check("drawing the scene")
    }

    /// The inputs of the shadow pass: map size, each shadow light's layer and matrix, and each caster's
    /// GPU mesh (held, so its identity cannot be reused), element and model matrix, in draw order.
    private struct ShadowContent: Equatable {
        struct Caster: Equatable {
            let mesh: MeshBuffers
            let element: Int
            let model: Matrix4f
            static func == (a: Caster, b: Caster) -> Bool { a.mesh === b.mesh && a.element == b.element && a.model == b.model }
        }
        let size: Int
        let layers: [Int]
        let matrices: [Matrix4f]
        let casters: [Caster]

        init(_ plan: FramePlan, size: Int, cache: ResourceCache) throws {
            self.size = size
            let lights = plan.lights.filter { $0.shadowLayer >= 0 }
            layers = lights.map(\.shadowLayer)
            matrices = lights.map(\.shadowMatrix)
            casters = try plan.items.filter(\.castsShadow).map {
                Caster(mesh: try cache.mesh(for: $0.geometry), element: $0.elementIndex, model: $0.model)
            }
        }
    }

    /// Draws the shadow maps of `plan`'s shadow lights from `casters` (``ShadowContent``'s, in draw order).
    private func drawShadowMaps(_ plan: FramePlan, casters: [ShadowContent.Caster]) {
        guard let maps = shadowMaps else { return }
        glUseProgram(depthProgram.id)
        glEnable(GLenum(gl: GL_DEPTH_TEST))
        glDepthFunc(GLenum(gl: GL_LESS))
        glDepthMask(GLboolean(GL_TRUE))
        glDisable(GLenum(gl: GL_BLEND))
        // Slope-scaled depth offset against shadow acne; the normal offset in the shader does the rest.
        glEnable(GLenum(gl: GL_POLYGON_OFFSET_FILL))
        glPolygonOffset(1.5, 2.0)
        glDisable(GLenum(gl: GL_CULL_FACE))
        for light in plan.lights where light.shadowLayer >= 0 {
            maps.begin(layer: light.shadowLayer)
            depthProgram.set("uViewProjection", light.shadowMatrix)
            for caster in casters {
                depthProgram.set("uModel", caster.model)
                caster.mesh.bind()
                caster.mesh.draw(caster.mesh.ranges[caster.element])
            }
        }
        glDisable(GLenum(gl: GL_POLYGON_OFFSET_FILL))
    }

    private func drawBackground(_ texture: Texture) throws {
        let gpu = try cache.texture(for: texture, srgb: texture.isSRGB)
        glDisable(GLenum(gl: GL_DEPTH_TEST))
        glDisable(GLenum(gl: GL_BLEND))
        glDisable(GLenum(gl: GL_CULL_FACE))
        glUseProgram(backgroundProgram.id)
        glActiveTexture(GLenum(gl: GL_TEXTURE0) + GLenum(Unit.image.rawValue))
        glBindTexture(GLenum(gl: GL_TEXTURE_2D), gpu.id)
        glBindVertexArray(emptyVAO)
        glDrawArrays(GLenum(gl: GL_TRIANGLES), 0, 3)
    }

    /// Per-frame uniforms of a mesh program: camera, fog, lights and shadow matrices.
    private func setFrameUniforms(_ p: ShaderProgram, _ plan: FramePlan, scene: Scene) {
        p.set("uViewProjection", plan.projection * plan.view)
        p.set("uCameraPosition", plan.cameraPosition)
        if let fog = scene.fog {
            p.set("uFogColor", Vector4f(fog.color.x, fog.color.y, fog.color.z, 1))
            p.set("uFog", Vector3f(fog.startDistance, fog.endDistance, 1))
        } else {
            p.set("uFogColor", Vector4f(0, 0, 0, 0))
        }
        setLights(plan, p)
        p.frameStamp = cache.frame
    }

    private func drawItems(_ plan: FramePlan, scene: Scene) throws {
        let shadows = plan.shadowLayerCount > 0
        glActiveTexture(GLenum(gl: GL_TEXTURE0) + GLenum(Unit.shadow.rawValue))
        glBindTexture(GLenum(gl: GL_TEXTURE_2D_ARRAY), shadowMaps?.texture ?? 0)
        var current: ShaderProgram?
        glEnable(GLenum(gl: GL_DEPTH_TEST))
        glDepthFunc(GLenum(gl: GL_LEQUAL))
        for item in plan.items {
            let mesh = try cache.mesh(for: item.geometry)
            let m = item.material
            let p = try meshProgram(for: Self.key(for: m, mesh: mesh, shadows: shadows))
            if p !== current {
                glUseProgram(p.id)
                current = p
                if p.frameStamp != cache.frame { setFrameUniforms(p, plan, scene: scene) }
            }
            glColorMask(
                m.colorBufferWriteMask.contains(.red) ? 1 : 0, m.colorBufferWriteMask.contains(.green) ? 1 : 0,
                m.colorBufferWriteMask.contains(.blue) ? 1 : 0, m.colorBufferWriteMask.contains(.alpha) ? 1 : 0)
            glDepthMask(GLboolean(m.writesToDepthBuffer ? GL_TRUE : GL_FALSE))
            if m.readsFromDepthBuffer { glEnable(GLenum(gl: GL_DEPTH_TEST)) } else { glDisable(GLenum(gl: GL_DEPTH_TEST)) }
            if m.isDoubleSided || item.geometry.isInfinite { glDisable(GLenum(gl: GL_CULL_FACE)) } else {
                glEnable(GLenum(gl: GL_CULL_FACE))
                glCullFace(GLenum(gl: GL_BACK))
            }
            if item.isTransparent {
                glEnable(GLenum(gl: GL_BLEND))
                switch m.blendMode {
                case .alpha:
                    glBlendFuncSeparate(GLenum(gl: GL_SRC_ALPHA), GLenum(gl: GL_ONE_MINUS_SRC_ALPHA), GLenum(gl: GL_ONE), GLenum(gl: GL_ONE_MINUS_SRC_ALPHA))
                case .add:
                    glBlendFuncSeparate(GLenum(gl: GL_SRC_ALPHA), GLenum(gl: GL_ONE), GLenum(gl: GL_ZERO), GLenum(gl: GL_ONE))
                }
            } else {
                glDisable(GLenum(gl: GL_BLEND))
            }
            p.set("uModel", item.model)
            p.set3x3("uNormalMatrix", (item.model.inverse ?? .identity).transpose)
            p.set("uTexcoordTransform", item.texcoordTransform)
            p.set("uOpacity", item.opacity * m.transparency)
            try bindMaterial(m, p)
            mesh.bind()
            mesh.draw(mesh.ranges[item.elementIndex])
        }
        glColorMask(1, 1, 1, 1)
        glDepthMask(GLboolean(GL_TRUE))
        glDisable(GLenum(gl: GL_BLEND))
        glBindVertexArray(0)
    }

    private func setLights(_ plan: FramePlan, _ p: ShaderProgram) {
        p.set("uLightCount", Int32(plan.lights.count))
        for (i, l) in plan.lights.enumerated() {
            let type: Int32
            switch l.light.type {
            case .ambient: type = 0
            case .directional: type = 1
            case .omni: type = 2
            case .spot: type = 3
            }
            p.set("uLightType[\(i)]", type)
            p.set("uLightColor[\(i)]", l.light.scaledColor)
            p.set("uLightPosition[\(i)]", l.position)
            p.set("uLightDirection[\(i)]", l.direction)
            p.set("uLightAttenuation[\(i)]", Vector3f(l.light.attenuationStartDistance, l.light.attenuationEndDistance, l.light.attenuationFalloffExponent))
            // SceneKit's spot angles are whole cone angles in degrees.
            let inner = cos(l.light.spotInnerAngle * .pi / 360)
            let outer = cos(l.light.spotOuterAngle * .pi / 360)
            p.set("uLightSpot[\(i)]", Vector2f(inner, outer))
            p.set("uLightShadowLayer[\(i)]", Int32(l.shadowLayer))
            p.set("uLightShadowParams[\(i)]", Vector4f(l.light.shadowRadius, 0.0002, Float(l.light.shadowSampleCount), l.normalOffset))
            p.set("uLightShadowColor[\(i)]", Vector4f(0, 0, 0, 1))
            if l.shadowLayer >= 0 { p.set("uShadowMatrix[\(l.shadowLayer)]", l.shadowMatrix) }
        }
    }

    private func bindMaterial(_ m: Material, _ p: ShaderProgram) throws {
        // Which maps exist is compiled into the program variant; here only the textures are bound.
        func bind(_ property: MaterialProperty?, _ unit: Unit, flag: String, srgb: Bool) throws {
            guard let texture = property?.texture else { return }
            let gpu = try cache.texture(for: texture, srgb: srgb && texture.isSRGB)
            glActiveTexture(GLenum(gl: GL_TEXTURE0) + GLenum(unit.rawValue))
            glBindTexture(GLenum(gl: GL_TEXTURE_2D), gpu.id)
        }
        let diffuse = m.diffuse.colorValue
        p.set("uDiffuse", m.diffuse.texture == nil ? diffuse : Vector4f(m.diffuse.intensity, m.diffuse.intensity, m.diffuse.intensity, 1))
        try bind(m.diffuse, .diffuse, flag: "uUseDiffuseMap", srgb: true)
        let specular = m.specular.colorValue
        p.set("uSpecular", Vector3f(specular.x, specular.y, specular.z) * (m.specular.texture == nil ? 1 : m.specular.intensity))
        try bind(m.specular, .specular, flag: "uUseSpecularMap", srgb: true)
        let emission = m.emission.colorValue
        p.set("uEmission", Vector3f(emission.x, emission.y, emission.z) * (m.emission.texture == nil ? 1 : m.emission.intensity))
        try bind(m.emission, .emission, flag: "uUseEmissionMap", srgb: true)
        try bind(m.normal, .normal, flag: "uUseNormalMap", srgb: false)
        p.set("uNormalScale", m.normal?.intensity ?? 1)
        p.set("uOcclusion", m.ambientOcclusion.scalarValue)
        try bind(m.ambientOcclusion, .occlusion, flag: "uUseOcclusionMap", srgb: false)
        p.set("uMetalness", m.metalness.scalarValue)
        try bind(m.metalness, .metalness, flag: "uUseMetalnessMap", srgb: false)
        p.set("uRoughness", m.roughness.scalarValue)
        try bind(m.roughness, .roughness, flag: "uUseRoughnessMap", srgb: false)
        // Which channel scalar maps are read from (glTF packs roughness in green, metalness in blue).
        p.set("uMetalnessChannel", Int32(m.metalness.textureChannel))
        p.set("uRoughnessChannel", Int32(m.roughness.textureChannel))
        p.set("uOcclusionChannel", Int32(m.ambientOcclusion.textureChannel))
        p.set("uShininess", m.shininess.scalarValue)
    }

    /// Linear resolved colour → sRGB bytes in the output framebuffer.
    private func present(_ t: RenderTargets) {
        glBindFramebuffer(GLenum(gl: GL_FRAMEBUFFER), t.outputFBO)
        glViewport(0, 0, GLsizei(t.width), GLsizei(t.height))
        glDisable(GLenum(gl: GL_DEPTH_TEST))
        glDisable(GLenum(gl: GL_BLEND))
        glDisable(GLenum(gl: GL_CULL_FACE))
        glUseProgram(presentProgram.id)
        glActiveTexture(GLenum(gl: GL_TEXTURE0) + GLenum(Unit.image.rawValue))
        glBindTexture(GLenum(gl: GL_TEXTURE_2D), t.resolveTexture)
        glBindVertexArray(emptyVAO)
        glDrawArrays(GLenum(gl: GL_TRIANGLES), 0, 3)
        glBindVertexArray(0)
    }
}
