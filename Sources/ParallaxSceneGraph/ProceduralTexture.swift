import Foundation
import ParallaxImaging
import ParallaxMath

/// Deterministic procedural textures (same recipe ⇒ same pixels on every machine): the room
/// and demo scenes use them so that the simulator sees surfaces rich in corners and texture
/// without shipping photographs.
public struct ProceduralTexture: Equatable, Sendable {
    /// Pattern kinds.
    public enum Pattern: String, Sendable, CaseIterable {
        /// Two-colour checkerboard, `cells` squares per side.
        case checker
        /// Running-bond brick wall, `cells` courses high, per-brick shade variation and mortar.
        case bricks
        /// Wood grain: noisy concentric rings, planks `cells` across.
        case wood
        /// Fractal value noise (4 octaves) between the two colours.
        case noise
        /// Square tiles, `cells` per side, with grout lines and per-tile shade variation.
        case tiles
        /// Random overlapping rectangles and discs in many colours: a "poster" rich in corners.
        case poster
    }

    /// Largest edge length accepted, in pixels.
    public static let maxSize = 4096

    /// The pattern.
    public var pattern: Pattern
    /// Edge length in pixels (square textures).
    public var size = 256
    /// Number of cells / bricks / planks / tiles across (pattern dependent).
    public var cells = 8
    /// First colour (sRGB 0…1).
    public var color1 = Vector3f(0.9, 0.9, 0.9)
    /// Second colour (sRGB 0…1): dark squares, mortar, grout, dark grain.
    public var color2 = Vector3f(0.2, 0.2, 0.2)
    /// Random seed.
    public var seed: UInt32 = 1

    /// Creates a recipe.
    public init(pattern: Pattern, size: Int = 256, cells: Int = 8, color1: Vector3f = Vector3f(0.9, 0.9, 0.9),
                color2: Vector3f = Vector3f(0.2, 0.2, 0.2), seed: UInt32 = 1) {
        self.pattern = pattern; self.size = size; self.cells = cells; self.color1 = color1; self.color2 = color2; self.seed = seed
    }

    /// A cache identity that names the recipe exactly.
    public var identity: String {
        "procedural:\(pattern.rawValue):\(size):\(cells):\(color1.x),\(color1.y),\(color1.z):\(color2.x),\(color2.y),\(color2.z):\(seed)"
    }

    /// Renders the texture (size clamped to 1…``maxSize``).
    public func makeTexture() -> Texture { Texture(image: makeImage(), identity: identity) }

    /// The edge length actually rendered: `size` clamped to 1…``maxSize``.
    public var clampedSize: Int { min(max(size, 1), Self.maxSize) }

    /// Renders the pixels.
    public func makeImage() -> Image<RGBA8> {
        let n = clampedSize
        let c = Float(min(max(cells, 1), 512))
        var img = Image(width: n, height: n, fill: RGBA8(r: 0, g: 0, b: 0, a: 255))
        let shapes = pattern == .poster ? posterShapes() : []
        for y in 0..<n {
            for x in 0..<n {
                let u = (Float(x) + 0.5) / Float(n), v = (Float(y) + 0.5) / Float(n)
                img[x, y] = Self.pixel(shade(u, v, c, shapes))
            }
        }
        return img
    }

    private static func pixel(_ c: Vector3f) -> RGBA8 {
        let q = (c.clamped(lowerBound: .zero, upperBound: Vector3f(1, 1, 1)) * 255).rounded(.toNearestOrEven)
        return RGBA8(r: UInt8(q.x), g: UInt8(q.y), b: UInt8(q.z), a: 255)
    }

    private func mix(_ t: Float) -> Vector3f { color1 + (color2 - color1) * min(max(t, 0), 1) }

    private func shade(_ u: Float, _ v: Float, _ c: Float, _ shapes: [(Vector4f, Vector3f, Bool)]) -> Vector3f {
        switch pattern {
        case .checker:
            return (Int(floor(u * c)) + Int(floor(v * c))) % 2 == 0 ? color1 : color2
        case .bricks:
            let rows = c, row = floor(v * rows)
            let cols = max(1, c / 2)
            let shifted = u * cols + (Int(row) % 2 == 0 ? 0 : 0.5)
            let col = floor(shifted)
            let fu = shifted - col, fv = v * rows - row
            let mortar: Float = 0.06
            if fu < mortar / 2 || fv < mortar || fu > 1 - mortar / 2 || fv > 1 - mortar { return color2 }
            let brickHash = hash(Int(col.truncatingRemainder(dividingBy: cols)), Int(row))
            let grain = valueNoise(u * 64, v * 64) * 0.15
            return color1 * (0.75 + 0.35 * brickHash - grain)
        case .wood:
            let plank = floor(u * c), fu = u * c - plank
            let offset = hash(Int(plank), 7) * 10
            let wobble = fractalNoise(u * 4, v * 2 + offset) * 2
            let rings = (v * 6 + offset + wobble + fu * 0.8).truncatingRemainder(dividingBy: 1)
            let seam: Float = fu < 0.02 || fu > 0.98 ? 0.6 : 0
            return mix(0.35 * smooth(rings) + 0.25 * fractalNoise(u * 40, v * 4) + seam)
        case .noise:
            return mix(fractalNoise(u * c, v * c))
        case .tiles:
            let tu = u * c, tv = v * c
            let fu = tu - floor(tu), fv = tv - floor(tv)
            let grout: Float = 0.05
            if fu < grout || fv < grout { return color2 }
            let h = hash(Int(floor(tu)), Int(floor(tv)))
            return color1 * (0.85 + 0.2 * h) - Vector3f(repeating: 0.05 * valueNoise(u * 128, v * 128))
        case .poster:
            var col = color1
            for (rect, colour, disc) in shapes {
                if disc {
                    let d = Vector2f(u - rect.x, v - rect.y)
                    if d.x * d.x + d.y * d.y < rect.z * rect.z { col = colour }
                } else if u >= rect.x, u <= rect.z, v >= rect.y, v <= rect.w {
                    col = colour
                }
            }
            return col
        }
    }

    private func smooth(_ t: Float) -> Float { let s = abs(2 * t - 1); return s * s * (3 - 2 * s) }

    private func posterShapes() -> [(Vector4f, Vector3f, Bool)] {
        let count = min(max(cells, 1), 512) * 4
        return (0..<count).map { i in
            let r = { (k: Int) -> Float in hash(i, k) }
            let colour = Vector3f(r(1), r(2), r(3))
            let disc = r(4) < 0.3
            if disc { return (Vector4f(r(5), r(6), 0.03 + 0.12 * r(7), 0), colour, true) }
            let x0 = r(5), y0 = r(6)
            return (Vector4f(x0, y0, x0 + 0.05 + 0.3 * r(7), y0 + 0.05 + 0.3 * r(8)), colour, false)
        }
    }

    /// A hash of two integers and the seed to 0…1 (integer mixing after Wang/PCG style avalanches).
    func hash(_ a: Int, _ b: Int) -> Float {
        var h = UInt32(truncatingIfNeeded: a) &* 0x8DA6_B343 ^ UInt32(truncatingIfNeeded: b) &* 0xD816_3841 ^ seed &* 0xCB1A_B31F
        h ^= h >> 16; h = h &* 0x7FEB_352D; h ^= h >> 15; h = h &* 0x846C_A68B; h ^= h >> 16
        return Float(h >> 8) / Float(1 << 24)
    }

    /// Bilinearly interpolated lattice noise (smoothstep weights), 0…1.
    func valueNoise(_ x: Float, _ y: Float) -> Float {
        let xi = Int(floor(x)), yi = Int(floor(y))
        let fx = x - floor(x), fy = y - floor(y)
        let sx = fx * fx * (3 - 2 * fx), sy = fy * fy * (3 - 2 * fy)
        let a = hash(xi, yi), b = hash(xi + 1, yi), c = hash(xi, yi + 1), d = hash(xi + 1, yi + 1)
        return (a + (b - a) * sx) * (1 - sy) + (c + (d - c) * sx) * sy
    }

    /// Four octaves of value noise (lacunarity 2, gain 0.5), 0…1.
    func fractalNoise(_ x: Float, _ y: Float) -> Float {
        var sum: Float = 0, amp: Float = 0.5, f: Float = 1
        for _ in 0..<4 { sum += amp * valueNoise(x * f, y * f); f *= 2; amp *= 0.5 }
        return sum / 0.9375
    }
}
