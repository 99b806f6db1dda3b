import Foundation
import ParallaxImaging

/// Measures the relative brightness change between consecutive frames from the *same* scene
/// points, so that real light and exposure changes are told apart from the camera simply
/// looking at brighter or darker things.
///
/// Each frame is reduced to a small linear-light thumbnail (block means). The previous
/// thumbnail is aligned to the current one by an exhaustive search over integer shifts (the
/// frame-to-frame image motion of a handheld camera at 10–30 Hz is mostly a translation at this
/// scale); at the best shift, the median of the per-pixel log ratios is the brightness change.
/// This is the affine-brightness idea of direct visual odometry (Engel et al., "Direct Sparse
/// Odometry", TPAMI 2018, §2.1) reduced to a single gain, made robust by the median.
public struct BrightnessChangeTracker: Sendable {
    /// Thumbnail block size (px).
    public var block: Int
    /// Largest shift searched, in thumbnail cells (each way).
    public var maxShift: Int
    /// Smallest linear value used in ratios (darker cells are too noisy).
    public var minimumValue: Float
    private var previous: (w: Int, h: Int, log: [Float], valid: [Bool])?

    /// Creates a tracker (8-pixel blocks, ±8 cells = ±64 px search).
    public init(block: Int = 8, maxShift: Int = 8, minimumValue: Float = 0.01) {
        self.block = max(1, block); self.maxShift = max(0, maxShift); self.minimumValue = minimumValue
    }

    /// Feeds a frame (decoded with `table`, 256 linear values) and returns ln(brightness now /
    /// brightness before), nil for the first frame or when the frames share too little.
    public mutating func update(_ image: AnyImage, table: [Double]) -> Double? {
        let thumb = Self.thumbnail(image, block: block, table: table)
        let logs = thumb.values.map { $0 > minimumValue ? log($0) : 0 }
        let valid = thumb.values.map { $0 > minimumValue && $0 < 0.98 }
        defer { previous = (thumb.w, thumb.h, logs, valid) }
        guard let prev = previous, prev.w == thumb.w, prev.h == thumb.h else { return nil }
        let w = thumb.w, h = thumb.h
        // Coarse search: mean squared deviation of the log ratio from its mean at each shift.
        var best: (dx: Int, dy: Int, score: Float) = (0, 0, .infinity)
        for dy in -maxShift...maxShift {
            for dx in -maxShift...maxShift {
                var sum: Float = 0, sum2: Float = 0, n = 0
                for y in max(0, -dy)..<min(h, h - dy) {
                    for x in max(0, -dx)..<min(w, w - dx) {
                        let i = y * w + x, j = (y + dy) * w + (x + dx)
                        guard valid[j], prev.valid[i] else { continue }
                        let r = logs[j] - prev.log[i]
                        sum += r; sum2 += r * r; n += 1
                    }
                }
                guard n >= max(16, w * h / 4) else { continue }
                let mean = sum / Float(n)
                let score = sum2 / Float(n) - mean * mean
                if score < best.score { best = (dx, dy, score) }
            }
        }
        guard best.score.isFinite else { return nil }
        var ratios: [Float] = []
        for y in max(0, -best.dy)..<min(h, h - best.dy) {
            for x in max(0, -best.dx)..<min(w, w - best.dx) {
                let i = y * w + x, j = (y + best.dy) * w + (x + best.dx)
                if valid[j], prev.valid[i] { ratios.append(logs[j] - prev.log[i]) }
            }
        }
        guard !ratios.isEmpty else { return nil }
        ratios.sort()
        return Double(ratios[ratios.count / 2])
    }

    /// Forgets the previous frame.
    public mutating func reset() { previous = nil }

    /// Block means of linear luminance.
    static func thumbnail(_ image: AnyImage, block: Int, table: [Double]) -> (w: Int, h: Int, values: [Float]) {
        let w = image.width / block, h = image.height / block
        var out = [Float](repeating: 0, count: max(0, w * h))
        guard w > 0, h > 0 else { return (0, 0, []) }
        let t = table.map { Float($0) }
        let gray: GrayImage? = { if case .gray8(let g) = image { return g }; return nil }()
        let rgba: RGBAImage? = gray == nil ? image.toRGBA8() : nil
        let scale = 1 / Float(block * block)
        for by in 0..<h {
            for bx in 0..<w {
                var s: Float = 0
                for y in (by * block)..<((by + 1) * block) {
                    let row = y * image.width
                    for x in (bx * block)..<((bx + 1) * block) {
                        if let gray { s += t[Int(gray.pixels[row + x])] } else if let rgba {
                            let p = rgba.pixels[row + x]
                            s += 0.2126 * t[Int(p.r)] + 0.7152 * t[Int(p.g)] + 0.0722 * t[Int(p.b)]
                        }
                    }
                }
                out[by * w + bx] = s * scale
            }
        }
        return (w, h, out)
    }
}
