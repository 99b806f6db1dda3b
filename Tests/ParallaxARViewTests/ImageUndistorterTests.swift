import Foundation
import ParallaxAR
import ParallaxImaging
import ParallaxMath
import ParallaxVision
import Testing
@testable import ParallaxARView

/// Undistortion of captured images with the Vision lens models.
@Suite struct ImageUndistorterTests {
    /// A smooth test pattern defined on the *ideal pinhole* image plane.
    static func pattern(_ u: Double, _ v: Double) -> Double { 128 + 90 * sin(u / 23) * cos(v / 17) }

    @Test func undistortedImageMatchesThePinholePattern() {
        // EuRoC cam0-like radial-tangential distortion at half resolution.
        let lens = PinholeRadTanCamera(width: 376, height: 240, fx: 229, fy: 228, cx: 183, cy: 128,
                                       k1: -0.283, k2: 0.074, p1: 0.0002, p2: 0.00002)
        // The distorted capture: each raw pixel shows the pattern at its undistorted position.
        var raw = GrayImage(width: lens.width, height: lens.height, fill: 0)
        for v in 0..<lens.height {
            for u in 0..<lens.width {
                let xn = lens.undistort(Vector2(Double(u), Double(v)))
                let p = Self.pattern(lens.fx * xn.x + lens.cx, lens.fy * xn.y + lens.cy)
                raw[u, v] = UInt8(max(0, min(255, p.rounded())))
            }
        }
        let undistorter = ImageUndistorter(lens: lens)
        let out = undistorter.undistort(.gray8(raw))
        var worst = 0.0, sum = 0.0, n = 0
        for v in stride(from: 20, to: lens.height - 20, by: 1) {
            for u in stride(from: 20, to: lens.width - 20, by: 1) {
                guard let s = undistorter.sourcePixel(u: u, v: v) else { continue }
                // The cached table inverts the lens: undistorting its source gives back (u, v).
                let back = lens.undistort(s)
                #expect(abs(back.x * lens.fx + lens.cx - Double(u)) < 1e-3 && abs(back.y * lens.fy + lens.cy - Double(v)) < 1e-3)
                let e = abs(Double(out[u, v].r) - Self.pattern(Double(u), Double(v)))
                worst = max(worst, e); sum += e; n += 1
            }
        }
        print(String(format: "UNDISTORT mean |error| %.3f, worst %.2f grey levels over %d px", sum / Double(n), worst, n))
        // Bilinear resampling of an 8-bit image of a smooth pattern: rounding (0.5) plus the
        // interpolation error of a pattern with ~23-px wavelength (≈ 1 level).
        #expect(sum / Double(n) < 0.8)
        #expect(worst < 3)
    }

    @Test func greyAndColourPathsAgreeAndKeepFlatImagesFlat() {
        let lens = PinholeRadTanCamera(width: 376, height: 240, fx: 229, fy: 228, cx: 183, cy: 128,
                                       k1: -0.283, k2: 0.074, p1: 0.0002, p2: 0.00002)
        let undistorter = ImageUndistorter(lens: lens)
        // A ramp with sharp steps, so every neighbour and weight matters, including the last
        // column and row (the lookups there must stay inside the image).
        var raw = GrayImage(width: lens.width, height: lens.height, fill: 0)
        for v in 0..<lens.height { for u in 0..<lens.width { raw[u, v] = UInt8((u * 7 + v * 13) % 256) } }
        let grey = undistorter.undistort(raw), colour = undistorter.undistort(.gray8(raw))
        var mismatches = 0, covered = 0
        for v in 0..<lens.height {
            for u in 0..<lens.width {
                if grey[u, v] != colour[u, v].r { mismatches += 1 }
                if undistorter.sourcePixel(u: u, v: v) != nil { covered += 1 } else { #expect(grey[u, v] == 0) }
            }
        }
        #expect(mismatches == 0)
        #expect(covered > lens.width * lens.height / 2)
        // Interpolating a flat image gives the same value everywhere it has a source.
        let flat = undistorter.undistort(GrayImage(width: lens.width, height: lens.height, fill: 201))
        for v in 0..<lens.height {
            for u in 0..<lens.width where undistorter.sourcePixel(u: u, v: v) != nil { #expect(flat[u, v] == 201) }
        }
    }
}
