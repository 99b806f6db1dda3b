// Example (c): place content on a detected plane and render an AR frame to PNG.
//
//   swift run PlaceOnPlane [DATASET] [OUT.png]     (defaults: Datasets/sample, place-on-plane.png)
//
// Needs an EGL display or Mesa's surfaceless platform (the renderer is headless OpenGL).
import Foundation
import Parallax

let repository = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
let arguments = Array(CommandLine.arguments.dropFirst())
let path = arguments.first ?? repository.appendingPathComponent("Datasets/sample").path
let output = URL(fileURLWithPath: arguments.count > 1 ? arguments[1] : "place-on-plane.png")

/// Gives the content anchor a box; planes get no node of their own.
final class Content: ARSceneRendererDelegate {
    func renderer(_ renderer: ARSceneRenderer, nodeFor anchor: ARRenderAnchor) -> Node? {
        guard anchor.name == "content" else { return nil }
        let holder = Node(name: "content")
        let box = Node(name: "box")
        let material = Material(name: "orange", diffuse: .color(0.95, 0.45, 0.1))
        box.geometry = .box(width: 0.2, height: 0.2, length: 0.2, chamferRadius: 0.02, material: material)
        box.position = Vector3f(0, 0.1, 0)  // resting on the plane, not cut by it
        holder.addChildNode(box)
        return holder
    }
}

do {
    let session = try Session(datasetAt: URL(fileURLWithPath: path))  // ground-truth poses by default
    session.run(WorldTrackingConfiguration(planeDetection: [.horizontal, .vertical]))
    let view = try ARView(session: session)
    let content = Content()
    view.delegate = content
    var placedOn: PlaneAnchor?
    while let image = try view.renderNextFrame(), let frame = view.currentFrame {
        if placedOn == nil, let plane = frame.planeAnchors.filter({ $0.alignment == .horizontal }).max(by: { $0.geometry.area < $1.geometry.area }) {
            // The plane's own transform, moved to its centre: content sits on the surface.
            let T = RigidTransform(matrix: plane.transform)
            let centre = Matrix4(rotation: T.rotation.rotationMatrix, translation: T * plane.center)
            session.add(anchor: WorldAnchor(identifier: session.makeIdentifier(), name: "content", transform: centre))
            placedOn = plane
            print(String(format: "placed content on a %@ plane (%.2f m²) at %.3f s", plane.classification.rawValue,
                         plane.geometry.area, frame.timestamp))
            continue
        }
        if placedOn != nil {
            try PNG.write(.rgba8(image), to: output)
            print("wrote \(output.path) (\(image.width)x\(image.height)) at \(String(format: "%.3f", frame.timestamp)) s")
            exit(0)
        }
    }
    FileHandle.standardError.write(Data("PlaceOnPlane: no horizontal plane was detected in \(path)\n".utf8))
    exit(1)
} catch {
    FileHandle.standardError.write(Data("PlaceOnPlane: \(error)\n".utf8))
    exit(1)
}
