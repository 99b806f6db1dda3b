import Foundation
import ParallaxImaging
import ParallaxMath
import ParallaxEvaluation
import Testing
@testable import ParallaxAR

/// Ambient light estimation on synthetic images: stability, response to real changes, colour.
@Suite struct LightEstimationTests {
    /// A deterministic generator (SplitMix64) for noise and camera shake.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func uniform() -> Double { Double(next() >> 11) / Double(1 << 53) }
        mutating func gaussian() -> Double { (-2 * log(max(uniform(), 1e-300))).squareRoot() * cos(2 * .pi * uniform()) }
    }

    /// A 320×240 view into a larger, unevenly lit "room" texture at offset (ox, oy): light
    /// level `gain` (linear), Gaussian noise σ = 4 grey levels, a few hot pixels.
    static func view(ox: Int, oy: Int, gain: Double, random: inout Random) -> GrayImage {
        var img = GrayImage(width: 320, height: 240, fill: 0)
        for y in 0..<240 {
            for x in 0..<320 {
                let X = Double(x + ox), Y = Double(y + oy)
                // Bright on the left of the room, dark on the right, with texture.
                let albedo = 0.08 + 0.25 * (1 + sin(X / 37)) * (0.6 + 0.4 * cos(Y / 23)) + (((x + ox + 4000) / 24 + (y + oy + 4000) / 24) % 2 == 0 ? 0.05 : 0)
                let linear = min(1, albedo * gain)
                let encoded = linear <= 0.0031308 ? linear * 12.92 : 1.055 * pow(linear, 1 / 2.4) - 0.055
                var v = encoded * 255 + 4 * random.gaussian()
                if random.uniform() < 0.002 { v = 255 }
                img[x, y] = UInt8(max(0, min(255, v.rounded())))
            }
        }
        return img
    }

    @Test func staticSceneDoesNotFlicker() {
        var random = Random(state: 5)
        var estimator = AmbientLightEstimator()
        var filtered: [Double] = []
        for k in 0..<30 {
            filtered.append(estimator.estimate(image: .gray8(Self.view(ox: 10, oy: 10, gain: 1, random: &random)), timestamp: Double(k) / 10).ambientIntensity)
        }
        let flicker = IntensityAgreement.staticFlicker(estimate: filtered, truth: [Double](repeating: 1000, count: 30)) ?? .infinity
        print(String(format: "FLICKER static camera, sensor noise only: %.3f lm", flicker))
        // Sensor noise (σ = 4 levels) averages out over the sampled pixels; what remains (measured
        // 0.64 lm) is 0.06 %, far below the ~1 % Weber fraction at which brightness changes become
        // visible: 1 lm (0.1 %) is the floor.
        #expect(flicker < 1)
    }

    @Test func staticLightDoesNotFlickerWhileTheCameraShakes() {
        var random = Random(state: 7)
        var estimator = AmbientLightEstimator()
        var filtered: [Double] = [], raw: [Double] = []
        var ox = 100, oy = 60
        for k in 0..<50 {
            // Handheld shake: a random walk of a few pixels per frame over a scene whose
            // brightness varies strongly across it.
            ox += Int((random.gaussian() * 4).rounded()); oy += Int((random.gaussian() * 3).rounded())
            let e = estimator.estimate(image: .gray8(Self.view(ox: ox, oy: oy, gain: 1, random: &random)), timestamp: Double(k) / 10)
            filtered.append(e.ambientIntensity); raw.append(e.rawIntensity)
        }
        let flicker = IntensityAgreement.staticFlicker(estimate: filtered, truth: [Double](repeating: 1000, count: 50)) ?? .infinity
        let rawFlicker = IntensityAgreement.staticFlicker(estimate: raw, truth: [Double](repeating: 1000, count: 50)) ?? 0
        print(String(format: "FLICKER synthetic shake: filtered %.2f lm, raw %.2f lm", flicker, rawFlicker))
        // The frame means wander by ~1 % per frame as the view shifts (measured 10 lm); the brightness
        // tracker compares the same scene points, leaving its own alignment error (~0.4 % per
        // frame on this sharp 24-px checker, measured 4.1 lm): at least halved, and below 0.6 %.
        #expect(rawFlicker > 5)
        #expect(flicker < 0.5 * rawFlicker)
        #expect(flicker < 6)
    }

    @Test func followsARealChangeWithinAFrame() {
        var random = Random(state: 11)
        var estimator = AmbientLightEstimator()
        var last = 0.0, before = 0.0
        for k in 0..<40 {
            let gain = k < 20 ? 1.0 : 1.3
            let e = estimator.estimate(image: .gray8(Self.view(ox: 50 + k, oy: 40, gain: gain, random: &random)), timestamp: Double(k) / 10)
            if k == 19 { before = e.ambientIntensity }
            if k == 20 { last = e.ambientIntensity }
        }
        print(String(format: "STEP before %.1f lm, first frame after a x1.3 light step %.1f lm (ratio %.3f)", before, last, last / before))
        #expect(abs(last / before - 1.3) < 0.03)
    }

    @Test func levelFilterAloneResetsOnPersistentJumps() {
        var f = AmbientLightFilter()
        var out = 0.0
        for k in 0..<30 { out = f.update(1000, at: Double(k) / 10) }
        for k in 30..<34 { out = f.update(1500, at: Double(k) / 10) }
        #expect(f.changeCount >= 1)
        #expect(abs(out - 1500) < 30)
    }

    @Test func greyImagesReportNeutralTemperatureAndSaySo() {
        var random = Random(state: 3)
        var estimator = AmbientLightEstimator()
        let e = estimator.estimate(image: .gray8(Self.view(ox: 0, oy: 0, gain: 1, random: &random)), timestamp: 0)
        #expect(e.ambientColorTemperature == 6500)
        #expect(!e.colorTemperatureMeasured)
    }

    /// Linear sRGB of chromaticity (x, y) at luminance Y (IEC 61966-2-1 inverse matrix).
    static func rgb(x: Double, y: Double, Y: Double) -> Vector3 {
        let X = x / y * Y, Z = (1 - x - y) / y * Y
        return Vector3(3.2406 * X - 1.5372 * Y - 0.4986 * Z, -0.9689 * X + 1.8758 * Y + 0.0415 * Z, 0.0557 * X - 0.2040 * Y + 1.0570 * Z)
    }

    @Test func colourTemperatureFromColourImages() {
        // Planckian locus points (CIE 1931 xy): 4000 K (0.3805, 0.3768), 5000 K (0.3451, 0.3516),
        // 7500 K (0.2990, 0.3149). (Exact D65 white would be r = g = b: a grey image.)
        for (kelvin, x, y) in [(4000.0, 0.3805, 0.3768), (5000.0, 0.3451, 0.3516), (7500.0, 0.2990, 0.3149)] {
            let c = Self.rgb(x: x, y: y, Y: 0.25)
            var img = RGBAImage(width: 64, height: 48, fill: RGBA8(r: 0, g: 0, b: 0, a: 255))
            for i in 0..<img.pixels.count {
                let shade = 0.6 + 0.8 * Double(i % 64) / 64  // grey-world: texture of the same hue
                func enc(_ v: Double) -> UInt8 {
                    let l = min(1, max(0, v * shade))
                    return UInt8(((l <= 0.0031308 ? l * 12.92 : 1.055 * pow(l, 1 / 2.4) - 0.055) * 255).rounded())
                }
                img.pixels[i] = RGBA8(r: enc(c.x), g: enc(c.y), b: enc(c.z), a: 255)
            }
            var estimator = AmbientLightEstimator()
            let e = estimator.estimate(image: .rgba8(img), timestamp: 0)
            print(String(format: "CCT true %.0f K, estimated %.0f K", kelvin, e.ambientColorTemperature))
            #expect(e.colorTemperatureMeasured)
            // McCamy's formula is good to a few kelvin here; 8-bit rounding of the colour adds tens.
            #expect(abs(e.ambientColorTemperature - kelvin) < 120)
        }
    }

    @Test func directionalFitRecoversAnExactModel() throws {
        let l = Vector3(-0.3, 0.8, 0.5).normalized
        let normals = [Vector3(0, 1, 0), Vector3(1, 0, 0), Vector3(-1, 0, 0), Vector3(0, 0, 1), Vector3(0, 0, -1)]
        let samples = normals.enumerated().map { i, n in
            PlaneShadingSample(id: "\(i)", normal: n, radiance: 0.1 + 0.4 * max(n.dot(l), 0), pixelCount: 100)
        }
        let fit = try #require(DirectionalLightFit.fit(samples))
        #expect(acos(min(1, fit.towardLight.dot(l))) < 0.002)
        #expect(abs(fit.ambient - 0.1) < 1e-3 && abs(fit.directional - 0.4) < 1e-3)
        // SH: uniform radiance a/π reproduces irradiance a on every normal.
        let c = SphericalHarmonics.project(ambientRadiance: 0.1 / .pi, directional: 0, towardLight: l)
        for n in normals { #expect(abs(SphericalHarmonics.irradiance(c, normal: n) - 0.1) < 1e-4) }
        // Fewer than three distinct normals cannot determine the light.
        #expect(DirectionalLightFit.fit(Array(samples.prefix(2))) == nil)
    }
}
