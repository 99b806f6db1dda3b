import ParallaxMath
import ParallaxVision
import Testing
@testable import ParallaxTracking

/// The intrinsic sensitivity G = ∂z/∂θ of ``LensIntrinsics`` against central differences: a pixel
/// undistorted with perturbed intrinsics must move as G predicts, for both camera models.
@Suite("Online intrinsics: sensitivity of normalised observations against finite differences")
struct IntrinsicJacobianTests {
    /// EuRoC's cam0 (radial–tangential) with θ perturbed by `d` (fx, fy, cx, cy, k1, k2).
    static func radTan(_ d: [Double] = [0, 0, 0, 0, 0, 0]) -> PinholeRadTanCamera {
        PinholeRadTanCamera(width: 752, height: 480, fx: 458.654 + d[0], fy: 457.296 + d[1], cx: 367.215 + d[2],
                            cy: 248.375 + d[3], k1: -0.28340811 + d[4], k2: 0.07395907 + d[5], p1: 0.00019359, p2: 1.76187114e-05)
    }

    /// TUM-VI's cam0 (equidistant fisheye) with θ perturbed by `d`.
    static func fisheye(_ d: [Double] = [0, 0, 0, 0, 0, 0]) -> EquidistantCamera {
        EquidistantCamera(width: 512, height: 512, fx: 190.978 + d[0], fy: 190.973 + d[1], cx: 254.932 + d[2],
                          cy: 256.897 + d[3], k1: 0.003482 + d[4], k2: 0.000715 + d[5], k3: -0.002053, k4: 0.000203)
    }

    static let pixels = [Vector2(40, 30), Vector2(370, 250), Vector2(700, 90), Vector2(120, 460), Vector2(500, 400)]

    /// Largest difference between G's columns and central differences of the undistortion.
    static func worstColumnError(make: ([Double]) -> any CameraModel, steps: [Double], pixels: [Vector2] = Self.pixels) -> Double {
        let lens = LensIntrinsics(model: make([0, 0, 0, 0, 0, 0]))
        var worst = 0.0
        for uv in pixels {
            let z = make([0, 0, 0, 0, 0, 0]).undistort(uv)
            let (g0, g1) = lens.sensitivity(at: z)
            for i in 0..<LensIntrinsics.dimension {
                var plus = [Double](repeating: 0, count: 6), minus = plus
                plus[i] = steps[i]
                minus[i] = -steps[i]
                let numeric = (make(plus).undistort(uv) - make(minus).undistort(uv)) / (2 * steps[i])
                worst = max(worst, abs(numeric.x - g0[i]), abs(numeric.y - g1[i]))
            }
        }
        return worst
    }

    @Test("radial–tangential: each column within 1e-7 of the central difference")
    func radialTangential() {
        let worst = Self.worstColumnError(make: { Self.radTan($0) }, steps: [1e-3, 1e-3, 1e-3, 1e-3, 1e-6, 1e-6])
        #expect(worst < 1e-7, "worst column error \(worst)")
    }

    @Test("equidistant: each column within 1e-7 of the central difference")
    func equidistant() {
        // Inside ~55° of the axis, where points on the z = 1 plane stay finite and well conditioned.
        let pixels = [Vector2(256, 256), Vector2(100, 150), Vector2(400, 300), Vector2(200, 420), Vector2(350, 120)]
        let worst = Self.worstColumnError(make: { Self.fisheye($0) }, steps: [1e-3, 1e-3, 1e-3, 1e-3, 1e-6, 1e-6], pixels: pixels)
        #expect(worst < 1e-7, "worst column error \(worst)")
    }

    @Test("an observation moved by a 1 px intrinsic offset matches undistortion with the new intrinsics")
    func correctedObservation() {
        let offset: [Double] = [0.7, -0.6, 0.75, -0.5, 0.001, -0.0005]
        let lens = LensIntrinsics(model: Self.radTan())
        var lanes = SIMD8<Double>.zero
        for i in 0..<6 { lanes[i] = offset[i] }
        for uv in Self.pixels {
            let moved = lens.corrected(Self.radTan().undistort(uv), offset: lanes)
            let exact = Self.radTan(offset).undistort(uv)
            // Second-order error in normalised units, far below a pixel (1 px ≈ 2.2e-3 here).
            #expect((moved - exact).x.magnitude < 2e-5 && (moved - exact).y.magnitude < 2e-5)
        }
        #expect(lens.values(offset: lanes)[2] == 367.215 + 0.75)
    }
}
