import Foundation
import Testing
@testable import ParallaxMath

/// OpenGL perspective, orthographic and lookAt sanity (gluPerspective / gluLookAt semantics).
@Suite struct ProjectionTests {
    @Test func perspectiveMapsAxisToCentreAndNearFarToMinusOnePlusOne() {
        var rng = SeededGenerator(seed: 31)
        for _ in 0..<200 {
            let fov = Float(rng.uniform(0.2, 2.5)), aspect = Float(rng.uniform(0.5, 2.5))
            let near = Float(rng.uniform(0.01, 1)), far = near + Float(rng.uniform(1, 100))
            let p = Matrix4f.perspective(fovY: fov, aspect: aspect, near: near, far: far)
            let onNear = p.transformPoint(Vector3f(0, 0, -near))
            let onFar = p.transformPoint(Vector3f(0, 0, -far))
            #expect(abs(onNear.x) < 1e-6 && abs(onNear.y) < 1e-6)
            #expect(abs(onNear.z + 1) < 1e-4)
            #expect(abs(onFar.z - 1) < 1e-4)
            // Depth is monotonic between the planes.
            let mid = p.transformPoint(Vector3f(0, 0, -(near + far) / 2))
            #expect(mid.z > -1 && mid.z < 1)
            // The top edge of the frustum at depth d maps to y = 1, the right edge to x = 1.
            let d = near * 2
            let top = d * tan(fov / 2)
            let edge = p.transformPoint(Vector3f(top * aspect, top, -d))
            #expect(abs(edge.x - 1) < 1e-4 && abs(edge.y - 1) < 1e-4)
        }
    }

    @Test func lookAtPutsTargetOnOpticalAxis() {
        var rng = SeededGenerator(seed: 32)
        for _ in 0..<200 {
            let eye = rng.vector3(scale: 10).float
            let target = eye + rng.unitVector().float * Float(rng.uniform(1, 20))
            let up = Vector3f(0, 1, 0)
            guard abs((target - eye).normalized.dot(up)) < 0.99 else { continue }
            let view = Matrix4f.lookAt(eye: eye, target: target, up: up)
            let inCamera = view.transformPoint(target)
            // Target straight ahead, down -z at its distance.
            #expect(abs(inCamera.x) < 1e-4 && abs(inCamera.y) < 1e-4)
            #expect(abs(-inCamera.z - (target - eye).norm) < 1e-3)
            // The eye maps to the origin and the view rotation is orthonormal.
            #expect(view.transformPoint(eye).norm < 1e-4)
            #expect(view.double.upperLeft3x3.isRotation(tolerance: 1e-5))
            // Up stays up: a point above the target projects to positive camera y.
            #expect(view.transformPoint(target + up).y > 0)
            // Through the projection the target lands on NDC x = y = 0.
            let proj = Matrix4f.perspective(fovY: 1, aspect: 1.5, near: 0.1, far: 100)
            let ndc = (proj * view).transformPoint(target)
            #expect(abs(ndc.x) < 1e-4 && abs(ndc.y) < 1e-4)
        }
    }

    @Test func orthographicMapsBoxCornersToUnitCube() {
        let o = Matrix4f.orthographic(left: -2, right: 4, bottom: -1, top: 3, near: 0.5, far: 10)
        let a = o.transformPoint(Vector3f(-2, -1, -0.5)), b = o.transformPoint(Vector3f(4, 3, -10))
        #expect((a - Vector3f(-1, -1, -1)).norm < 1e-6)
        #expect((b - Vector3f(1, 1, 1)).norm < 1e-6)
    }
}
