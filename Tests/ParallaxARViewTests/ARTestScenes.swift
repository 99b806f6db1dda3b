import Foundation
import Testing
import ParallaxAR
import ParallaxImaging
import ParallaxMath
import ParallaxRendering
import ParallaxSceneGraph
import ParallaxVision
@testable import ParallaxARView

/// Shared fixtures: one GL renderer for the whole test target (EGL set-up is the slow part) and
/// small helper geometry.
enum ARTestScenes {
    /// A lazily created renderer; nil when no EGL device is available (tests marked
    /// `.needsEGL` are then reported as skipped; the reason is printed once).
    nonisolated(unsafe) static let renderer: OffscreenRenderer? = {
        do { return try OffscreenRenderer() } catch {
            print("no EGL renderer: \(error)")
            return nil
        }
    }()

    /// Serialises GL use across concurrently running tests.
    static let lock = NSLock()

    /// A camera at `eye` looking at `target` (y up), as `Camera.transform`.
    static func cameraTransform(eye: Vector3, target: Vector3) -> RigidTransform {
        let q = Node.orientation(lookingFrom: eye.float, at: target.float, up: Vector3f(0, 1, 0))
        return RigidTransform(rotation: Quaternion(w: Double(q.w), x: Double(q.x), y: Double(q.y), z: Double(q.z)).normalized,
                              translation: eye)
    }

    /// A 320×240 pinhole camera geometry (no distortion).
    static func geometry(eye: Vector3, target: Vector3, width: Int = 320, height: Int = 240) -> ARCameraGeometry {
        ARCameraGeometry(transform: cameraTransform(eye: eye, target: target), fx: 260, fy: 260,
                         cx: Double(width) / 2 - 0.5, cy: Double(height) / 2 - 0.5, width: width, height: height)
    }

    /// A deterministic textured background (gradients + a checker), opaque.
    static func background(width: Int, height: Int) -> RGBAImage {
        var img = RGBAImage(width: width, height: height, fill: RGBA8(r: 0, g: 0, b: 0, a: 255))
        for y in 0..<height {
            for x in 0..<width {
                let checker: UInt8 = ((x / 16 + y / 16) % 2 == 0) ? 40 : 0
                img[x, y] = RGBA8(r: UInt8((x * 200) / width) + checker, g: UInt8((y * 200) / height) + checker,
                                  b: UInt8(((x + y) * 97) % 200) + 20, a: 255)
            }
        }
        return img
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs a test only when an EGL renderer can be created; otherwise it is reported as skipped.
    static var needsEGL: Self {
        .enabled(if: ARTestScenes.renderer != nil, "needs an EGL display (Mesa surfaceless or a GPU device)")
    }
}
