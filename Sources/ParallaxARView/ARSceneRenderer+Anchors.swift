import Foundation
import ParallaxImaging
import ParallaxMath
import ParallaxRendering
import ParallaxSceneGraph

extension ARSceneRenderer {
    /// Adds, updates and removes anchor nodes (and plane helpers) to match `anchors`, calling the
    /// delegate like ARSCNView: nodeFor → didAdd for new anchors, didUpdate when an anchor's
    /// transform or polygon changed, didRemove for anchors no longer present.
    func updateAnchors(_ anchors: [ARRenderAnchor]) {
        var seen = Set<UUID>()
        for anchor in anchors {
            seen.insert(anchor.identifier)
            if let existing = anchorNodes[anchor.identifier] {
                guard existing.anchor != anchor else { continue }
                apply(anchor, to: existing.node)
                anchorNodes[anchor.identifier] = (existing.node, anchor)
                updatePlaneHelpers(anchor)
                delegate?.renderer(self, didUpdate: existing.node, for: anchor)
            } else {
                let node = delegate?.renderer(self, nodeFor: anchor) ?? Node(name: anchor.name ?? "anchor")
                apply(anchor, to: node)
                scene.rootNode.addChildNode(node)
                anchorNodes[anchor.identifier] = (node, anchor)
                updatePlaneHelpers(anchor)
                delegate?.renderer(self, didAdd: node, for: anchor)
            }
        }
        for (id, entry) in anchorNodes where !seen.contains(id) {
            entry.node.removeFromParentNode()
            anchorNodes[id] = nil
            if let helpers = planeNodes.removeValue(forKey: id) {
                helpers.occluder.removeFromParentNode(); helpers.catcher.removeFromParentNode()
            }
            delegate?.renderer(self, didRemove: entry.node, for: entry.anchor)
        }
    }

    private func apply(_ anchor: ARRenderAnchor, to node: Node) {
        let T = RigidTransform(matrix: anchor.transform)
        node.position = T.translation.float
        node.orientation = Quaternionf(T.rotation)
    }

    /// Occluder and shadow-catcher meshes for a plane anchor: its polygon triangulated as a fan
    /// (ARKit's plane boundaries are convex), in the anchor's frame.
    private func updatePlaneHelpers(_ anchor: ARRenderAnchor) {
        if let old = planeNodes.removeValue(forKey: anchor.identifier) {
            old.occluder.removeFromParentNode(); old.catcher.removeFromParentNode()
        }
        guard let polygon = anchor.planePolygon, polygon.count >= 3 else { return }
        let positions = polygon.map { $0.float }
        var indices: [UInt32] = []
        for i in 1..<(positions.count - 1) { indices += [0, UInt32(i), UInt32(i + 1)] }
        // Wind so the face points along +y (the plane normal), whichever order the polygon has.
        let n = (polygon[1] - polygon[0]).cross(polygon[2] - polygon[0])
        if n.y < 0 {
            var flipped: [UInt32] = []
            var k = 0
            while k + 2 < indices.count {
                flipped.append(indices[k]); flipped.append(indices[k + 2]); flipped.append(indices[k + 1])
                k += 3
            }
            indices = flipped
        }
        let normals = [Vector3f](repeating: Vector3f(0, 1, 0), count: positions.count)
        var occluderMaterial = Material.occluder()
        occluderMaterial.isDoubleSided = true
        var white = Material(name: "shadow-catcher", lightingModel: .lambert, diffuse: .color(1, 1, 1))
        white.isDoubleSided = false
        let elements = [MeshElement(indices: indices)]
        guard let occluderGeometry = try? Geometry(positions: positions, normals: normals, elements: elements, materials: [occluderMaterial]),
              let catcherGeometry = try? Geometry(positions: positions, normals: normals, elements: elements, materials: [white])
        else { return }  // A degenerate polygon simply gets no helpers.
        let occluder = Node(geometry: occluderGeometry, name: "ar-occluder")
        let catcher = Node(geometry: catcherGeometry, name: "ar-shadow-catcher")
        occluder.castsShadow = false
        catcher.castsShadow = false
        let T = RigidTransform(matrix: anchor.transform)
        for node in [occluder, catcher] {
            node.position = T.translation.float
            node.orientation = Quaternionf(T.rotation)
            node.isHidden = true
            internalRoot.addChildNode(node)
        }
        // Only horizontal, upward-facing planes catch shadows (one normal for the visibility ratio).
        if anchor.planeNormal.y < 0.95 { catcher.name = "ar-shadow-catcher (vertical, unused)" }
        planeNodes[anchor.identifier] = (occluder, catcher)
    }

    /// Shows or hides the plane helpers.
    func setPlaneHelpers(occluders: Bool, catchers: Bool) {
        for (o, c) in planeNodes.values {
            o.isHidden = !occluders
            c.isHidden = !(catchers && c.name == "ar-shadow-catcher")
        }
    }

    /// Renders the shadow catchers lit only by the directional light (white, intensity 1000)
    /// while the virtual content writes depth and alpha and casts shadows but no colour. Returns, per
    /// pixel, the light's visibility on a catcher (1 lit … 0 shadowed) or NaN where no catcher
    /// is visible. `cosine` is n·l for the (horizontal) catchers.
    func renderShadowPass(size: RenderSize, cosine: Double) throws -> [Float] {
        let contentNodes = scene.rootNode.subtree.filter { $0.geometry != nil && !$0.isDescendant(of: internalRoot) }
        let saved = contentNodes.map { $0.geometry }
        let lights = scene.rootNode.subtree.filter { $0.light != nil && $0 !== directionalNode }
        let savedIntensities = lights.map { $0.light?.intensity ?? 0 }
        let savedSun = directionalNode.light
        defer {
            for (node, g) in zip(contentNodes, saved) { node.geometry = g }
            for (node, i) in zip(lights, savedIntensities) { node.light?.intensity = i }
            directionalNode.light = savedSun
        }
        for node in contentNodes {
            guard var g = node.geometry else { continue }
            // Alpha only: an empty mask would make the renderer treat the content as an occluder,
            // which casts no shadow. Content pixels end up (0, 0, 0, 1); the composite hides them.
            g.materials = g.materials.map { var m = $0; m.colorBufferWriteMask = [.alpha]; return m }
            node.geometry = g
        }
        for node in lights { node.light?.intensity = 0 }
        directionalNode.light?.intensity = 1000
        directionalNode.light?.temperature = nil
        directionalNode.light?.color = Vector3f(1, 1, 1)
        setPlaneHelpers(occluders: false, catchers: true)
        let image = try renderer.render(scene: scene, camera: cameraNode, size: size)
        let c = Float(max(cosine, 1e-3))
        // The resolve averages linear colour with the transparent clear colour, so an edge pixel
        // holds coverage × value: divide by the coverage (alpha), then weight the darkening by it.
        return image.pixels.map { p in
            guard p.a > 0 else { return .nan }
            let coverage = Float(p.a) / 255
            let visibility = min(1, max(0, Float(ARCompositor.decode[Int(p.r)]) / coverage / c))
            return 1 - (1 - visibility) * coverage
        }
    }
}
