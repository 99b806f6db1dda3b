import Foundation
import ParallaxImaging
import ParallaxMath

/// Debug drawings (ARSCNDebugOptions) over a composited frame.
enum ARDebugOverlay {
    /// Draws the requested overlays; `project` maps an AR-world point to a viewport pixel.
    static func draw(on image: inout RGBAImage, frame: ARRenderFrame, options: ARDebugOptions, project: (Vector3) -> Vector2?) {
        if options.contains(.showPlanes) {
            for anchor in frame.anchors where anchor.planePolygon != nil {
                let pts = anchor.worldPolygon.compactMap(project)
                if pts.count == anchor.worldPolygon.count {
                    image.drawPolyline(pts, color: RGBA8(r: 0, g: 220, b: 255, a: 255), thickness: 2, closed: true)
                }
            }
        }
        if options.contains(.showFeaturePoints) {
            for p in frame.featurePoints {
                if let q = project(p) { image.fillCircle(center: q, radius: 2, color: RGBA8(r: 255, g: 230, b: 0, a: 255)) }
            }
        }
        func axes(_ T: RigidTransform, length: Double) {
            guard let o = project(T * Vector3.zero) else { return }
            let colors = [RGBA8(r: 255, g: 40, b: 40, a: 255), RGBA8(r: 40, g: 255, b: 40, a: 255), RGBA8(r: 60, g: 60, b: 255, a: 255)]
            let dirs = [Vector3(length, 0, 0), Vector3(0, length, 0), Vector3(0, 0, length)]
            for (d, c) in zip(dirs, colors) {
                if let e = project(T * d) { image.drawLine(from: o, to: e, color: c, thickness: 2) }
            }
        }
        if options.contains(.showWorldOrigin) {
            axes(RigidTransform(matrix: .identity), length: 0.1)
        }
        if options.contains(.showAnchorOrigins) {
            for a in frame.anchors { axes(RigidTransform(matrix: a.transform), length: 0.05) }
        }
    }
}
