import Foundation
import ParallaxDatasets
import ParallaxMath
import ParallaxTracking
import Testing

@testable import ParallaxAR

@Suite struct CameraTests {
    /// A camera 1.5 m above the floor, looking forward and pitched down 30°, in a y-up AR world.
    static func camera() -> Camera {
        let pitch = Quaternion(axis: Vector3(1, 0, 0), angle: -30 * Double.pi / 180)
        let T = RigidTransform(rotation: pitch, translation: Vector3(0.2, 1.5, 0.3))
        return Camera(transform: T.matrix, trackingState: .normal,
                      intrinsics: Matrix3(rowMajor: [458, 0, 367, 0, 457, 248, 0, 0, 1]),
                      imageResolution: ImageResolution(width: 752, height: 480),
                      distortion: .radialTangential(k1: 0, k2: 0, p1: 0, p2: 0))
    }

    @Test func pointOnOpticalAxisProjectsToPrincipalPoint() throws {
        let c = Self.camera()
        // The AR camera looks down its −z axis.
        let ahead = c.position + c.transform.column(2).xyz * -2
        let uv = try #require(c.projectPoint(ahead))
        #expect(abs(uv.x - 367) < 1e-9 && abs(uv.y - 248) < 1e-9)
        // A point above the axis (AR camera +y) appears higher in the image (smaller v).
        let above = ahead + c.transform.column(1).xyz * 0.1
        #expect(try #require(c.projectPoint(above)).y < 248)
        #expect(c.projectPoint(c.position + c.transform.column(2).xyz * 2) == nil)
    }

    @Test func projectionMatrixAgreesWithIntrinsics() throws {
        let c = Self.camera()
        let P = c.projectionMatrix(zNear: 0.01, zFar: 100)
        for p in [Vector3(0.5, 0.2, -2), Vector3(-1, 1.4, -3), Vector3(0.1, 0, -0.5)] {
            let v = c.viewMatrix * Vector4(p.x, p.y, p.z, 1)
            let clip = P * v
            let ndc = Vector2(clip.x / clip.w, clip.y / clip.w)
            let uv = try #require(c.projectPoint(p))
            // NDC x = 2(u + 0.5)/w − 1, NDC y = 1 − 2(v + 0.5)/h.
            #expect(abs(ndc.x - (2 * (uv.x + 0.5) / 752 - 1)) < 1e-9)
            #expect(abs(ndc.y - (1 - 2 * (uv.y + 0.5) / 480)) < 1e-9)
            let z = clip.z / clip.w
            #expect(z > -1 && z < 1)
        }
    }

    @Test func aspectFillViewportScalesAndCrops() throws {
        let c = Self.camera()
        // A square viewport shows the central 480×480 of the image: the vertical mapping is
        // unchanged, the horizontal one scaled by 752/480.
        let P = c.projectionMatrix(viewportSize: Vector2(600, 600), zNear: 0.01, zFar: 100)
        let Q = c.projectionMatrix(zNear: 0.01, zFar: 100)
        #expect(abs(P[0, 0] - Q[0, 0] * 752 / 480) < 1e-9)
        #expect(abs(P[1, 1] - Q[1, 1]) < 1e-9)
    }

    @Test func unprojectOntoPlaneInvertsProjection() throws {
        let c = Self.camera()
        let floor = Matrix4.identity  // the y = 0 plane
        let hit = try #require(c.unprojectPoint(Vector2(0.4, 0.9), ontoPlane: floor))
        #expect(abs(hit.y) < 1e-9)
        let back = try #require(c.projectNormalized(hit))
        #expect((back - Vector2(0.4, 0.9)).norm < 1e-9)
        // A downward ray never meets a plane above the camera.
        let ceiling = Matrix4(rotation: .identity, translation: Vector3(0, 3, 0))
        #expect(c.unprojectPoint(Vector2(0.5, 0.9), ontoPlane: ceiling) == nil)
    }

    @Test func eulerAnglesMatchPitch() {
        let e = Self.camera().eulerAngles
        #expect(abs(e.x + 30 * Double.pi / 180) < 1e-9 && abs(e.y) < 1e-9 && abs(e.z) < 1e-9)
    }

    @Test func gravityWorldAlignment() {
        // OpenCV camera in the z-up world looking along +x (horizontal), 1.5 m up.
        let R_W_C = Matrix3(columns: Vector3(0, -1, 0), Vector3(0, 0, -1), Vector3(1, 0, 0))
        let T_W_C = RigidTransform(rotationMatrix: R_W_C, translation: Vector3(2, 1, 1.5))
        let T_A_W = WorldFrame.T_A_W(firstCamera: T_W_C, alignment: .gravity)
        #expect((T_A_W * Vector3(2, 1, 1.5)).norm < 1e-12)  // origin at the camera
        #expect((T_A_W.rotate(Vector3(0, 0, 1)) - Vector3(0, 1, 0)).norm < 1e-12)  // y up
        #expect((T_A_W.rotate(Vector3(1, 0, 0)) - Vector3(0, 0, -1)).norm < 1e-12)  // view = −z
        let camAlign = WorldFrame.T_A_W(firstCamera: T_W_C, alignment: .camera)
        // With camera alignment the first AR camera pose is the identity.
        let first = camAlign * T_W_C * RigidTransform(rotationMatrix: Camera.R_cv_ar, translation: .zero)
        #expect((first.matrix.column(0).xyz - Vector3(1, 0, 0)).norm < 1e-12)
        #expect(first.translation.norm < 1e-12)
    }

    @Test func identifiersAreDeterministicAndDistinct() {
        var a = AnchorIdentifierGenerator(seed: 7), b = AnchorIdentifierGenerator(seed: 7)
        var c = AnchorIdentifierGenerator(seed: 8)
        let xs = (0..<50).map { _ in a.next() }
        #expect(xs == (0..<50).map { _ in b.next() })
        #expect(Set(xs).count == 50)
        #expect(c.next() != xs[0])
    }
}
