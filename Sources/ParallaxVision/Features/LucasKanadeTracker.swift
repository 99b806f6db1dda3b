import ParallaxMath

/// Pyramidal Lucas–Kanade point tracker, inverse-compositional formulation with a
/// translation warp and a bias (brightness offset) nuisance term.
///
/// For each point and pyramid level (coarse to fine, Bouguet 2001), with template `T` the
/// previous image around `p` and `I` the current image around the estimate `q`,
/// inverse compositional LK (Baker & Matthews 2004, "Lucas-Kanade 20 Years On", §3.2)
/// minimises `Σ [I(x + q) − T(x + Δ) − β]²` over `Δ` and the offset `β`, then updates
/// `q ← q − Δ`. Because the template gradient `∇T` is fixed, the Gauss–Newton matrix
/// `H = Σ ∇T ∇Tᵀ` is computed once per level; eliminating `β` (Schur complement) just
/// replaces `∇T` by its window-mean-subtracted version `∇T − mean(∇T)`, which makes the
/// tracker insensitive to EuRoC's auto-exposure steps at no extra cost per iteration.
///
/// Bilinear sampling: the warp is a pure translation, so the four bilinear weights are the
/// same for every window pixel and are computed once per iteration.
public struct LucasKanadeTracker: Sendable {
    /// Window half-size `r`; the window is `(2r + 1)²` (7 → 15×15).
    public var windowRadius: Int
    /// Pyramid levels used (capped by the pyramids' depth); 3 handles ~±25 px at level 0
    /// without a guess.
    public var levels: Int
    /// Gauss–Newton iterations per level at most.
    public var maxIterations: Int
    /// Convergence: stop a level when `‖Δ‖` falls below this (pixels of that level).
    public var epsilon: Double
    /// Rejects a window whose `λ_min(H) / window area` is below this, (grey levels / px)².
    public var minEigenvalue: Float
    /// Rejects a track whose final mean absolute residual exceeds this (grey levels):
    /// occlusion or a wrong match.
    public var maxMeanResidual: Float
    /// Rejects final positions closer than this to the image border (pixels).
    public var borderMargin: Double

    /// Creates a tracker; the defaults are tuned for 752×480 EuRoC frames at 20 Hz.
    public init(windowRadius: Int = 7, levels: Int = 3, maxIterations: Int = 30,
                epsilon: Double = 0.01, minEigenvalue: Float = 1, maxMeanResidual: Float = 25,
                borderMargin: Double = 2) {
        self.windowRadius = windowRadius
        self.levels = levels
        self.maxIterations = maxIterations
        self.epsilon = epsilon
        self.minEigenvalue = minEigenvalue
        self.maxMeanResidual = maxMeanResidual
        self.borderMargin = borderMargin
    }

    /// Tracks `points` (level-0 pixels in `previous`) into `current`, starting from
    /// `guesses` (same count; e.g. IMU-rotation-predicted positions) or from the points
    /// themselves. Returns the tracked position, or `nil` where tracking failed.
    public func track(from previous: ImagePyramid, to current: ImagePyramid, points: [Vector2],
                      guesses: [Vector2]? = nil) -> [Vector2?] {
        precondition(guesses == nil || guesses!.count == points.count, "one guess per point")
        let levelCount = max(1, min(levels, previous.levels.count, current.levels.count))
        let n = 2 * windowRadius + 1
        var scratch = [Float](repeating: 0, count: (n + 2) * (n + 2) + 4 * n * n)
        var out = [Vector2?](repeating: nil, count: points.count)
        scratch.withUnsafeMutableBufferPointer { buf in
            for k in 0..<points.count {
                let p = points[k]
                let g = guesses?[k] ?? p
                out[k] = trackOne(previous, current, p, g, levelCount, buf.baseAddress!)
            }
        }
        return out
    }

    /// Tracks forward, then back from the result towards the original point, and keeps
    /// only tracks that return within `maxForwardBackwardError` pixels (Kalal et al. 2010).
    public func trackChecked(from previous: ImagePyramid, to current: ImagePyramid,
                             points: [Vector2], guesses: [Vector2]? = nil,
                             maxForwardBackwardError: Double = 0.5) -> [Vector2?] {
        let forward = track(from: previous, to: current, points: points, guesses: guesses)
        var idx: [Int] = []
        var fwd: [Vector2] = []
        var back: [Vector2] = []
        for (k, f) in forward.enumerated() {
            if let f {
                idx.append(k)
                fwd.append(f)
                back.append(points[k])
            }
        }
        let backward = track(from: current, to: previous, points: fwd, guesses: back)
        var out = [Vector2?](repeating: nil, count: points.count)
        let t2 = maxForwardBackwardError * maxForwardBackwardError
        for (j, k) in idx.enumerated() {
            if let b = backward[j], squaredDistance(b, points[k]) <= t2 { out[k] = fwd[j] }
        }
        return out
    }

    // MARK: - One point

    private func trackOne(_ prev: ImagePyramid, _ cur: ImagePyramid, _ p: Vector2, _ guess: Vector2,
                          _ levelCount: Int, _ scratch: UnsafeMutablePointer<Float>) -> Vector2? {
        let r = windowRadius, n = 2 * r + 1, nn = n * n
        let tpl = scratch                       // (n + 2)² template with a 1-px rim
        let gx = scratch + (n + 2) * (n + 2)    // centred gradients
        let gy = gx + nn
        let tc = gy + nn                         // template interior
        let ic = tc + nn                         // current patch
        var d = (guess - p) / Double(1 << (levelCount - 1))  // displacement at the top level
        var lastResidual: Float = 0
        for level in stride(from: levelCount - 1, through: 0, by: -1) {
            let scale = 1 / Double(1 << level)
            let tImg = prev.levels[level], iImg = cur.levels[level]
            let pl = p * scale
            // Template with rim, gradients by central differences.
            sample(tImg, pl.x - Double(r + 1), pl.y - Double(r + 1), n + 2, tpl)
            var mx: Float = 0, my: Float = 0
            for j in 0..<n {
                for i in 0..<n {
                    let c = (j + 1) * (n + 2) + (i + 1)
                    let dx = 0.5 * (tpl[c + 1] - tpl[c - 1])
                    let dy = 0.5 * (tpl[c + n + 2] - tpl[c - n - 2])
                    gx[j * n + i] = dx
                    gy[j * n + i] = dy
                    tc[j * n + i] = tpl[c]
                    mx += dx
                    my += dy
                }
            }
            mx /= Float(nn)
            my /= Float(nn)
            var hxx: Float = 0, hxy: Float = 0, hyy: Float = 0
            for k in 0..<nn {
                let dx = gx[k] - mx, dy = gy[k] - my
                gx[k] = dx
                gy[k] = dy
                hxx += dx * dx
                hxy += dx * dy
                hyy += dy * dy
            }
            let half = 0.5 * (hxx - hyy)
            let lmin = 0.5 * (hxx + hyy) - (half * half + hxy * hxy).squareRoot()
            if lmin / Float(nn) < minEigenvalue {
                // Too flat to refine here: fail at the finest level, otherwise carry the
                // current estimate down (coarse levels are blurrier than the corner itself).
                if level == 0 { return nil }
                d *= 2
                continue
            }
            let det = Double(hxx) * Double(hyy) - Double(hxy) * Double(hxy)
            let ixx = Double(hyy) / det, ixy = -Double(hxy) / det, iyy = Double(hxx) / det
            var q = pl + d
            for _ in 0..<maxIterations {
                let ok = sample(iImg, q.x - Double(r), q.y - Double(r), n, ic)
                if !ok && level == 0 { return nil }
                var bx: Float = 0, by: Float = 0
                for k in 0..<nn {
                    let e = ic[k] - tc[k]
                    bx += gx[k] * e
                    by += gy[k] * e
                }
                let dx = ixx * Double(bx) + ixy * Double(by)
                let dy = ixy * Double(bx) + iyy * Double(by)
                q.x -= dx
                q.y -= dy
                guard q.x.isFinite, q.y.isFinite else { return nil }
                if dx * dx + dy * dy < epsilon * epsilon { break }
            }
            d = q - pl
            if level > 0 {
                d *= 2
            } else {
                // Residual after removing the mean offset, for the occlusion test.
                _ = sample(iImg, q.x - Double(r), q.y - Double(r), n, ic)
                var mean: Float = 0
                for k in 0..<nn { mean += ic[k] - tc[k] }
                mean /= Float(nn)
                var sad: Float = 0
                for k in 0..<nn { sad += abs(ic[k] - tc[k] - mean) }
                lastResidual = sad / Float(nn)
            }
        }
        let result = p + d
        let w0 = prev.levels[0]
        guard result.x >= borderMargin, result.y >= borderMargin,
              result.x <= Double(w0.width - 1) - borderMargin,
              result.y <= Double(w0.height - 1) - borderMargin,
              lastResidual <= maxMeanResidual else { return nil }
        return result
    }

    /// Samples an `m × m` patch whose top-left sample is at `(x0, y0)` (subpixel) into
    /// `out`. Returns false when the patch leaves the image; the border is then replicated.
    @discardableResult
    private func sample(_ img: FloatPlane, _ x0: Double, _ y0: Double, _ m: Int,
                        _ out: UnsafeMutablePointer<Float>) -> Bool {
        let W = img.width, Hh = img.height
        guard x0.isFinite, y0.isFinite, abs(x0) < 1e7, abs(y0) < 1e7 else {
            for k in 0..<(m * m) { out[k] = 0 }
            return false
        }
        let fx = x0.rounded(.down), fy = y0.rounded(.down)
        let ix = Int(fx), iy = Int(fy)
        let ax = Float(x0 - fx), ay = Float(y0 - fy)
        let w00 = (1 - ax) * (1 - ay), w01 = ax * (1 - ay), w10 = (1 - ax) * ay, w11 = ax * ay
        let inside = ix >= 0 && iy >= 0 && ix + m < W && iy + m < Hh
        img.pixels.withUnsafeBufferPointer { buf in
            let base = buf.baseAddress!
            if inside {
                for j in 0..<m {
                    let r0 = base + (iy + j) * W + ix
                    let r1 = r0 + W
                    let o = out + j * m
                    for i in 0..<m {
                        o[i] = w00 * r0[i] + w01 * r0[i + 1] + w10 * r1[i] + w11 * r1[i + 1]
                    }
                }
            } else {
                for j in 0..<m {
                    let ya = min(max(iy + j, 0), Hh - 1), yb = min(max(iy + j + 1, 0), Hh - 1)
                    for i in 0..<m {
                        let xa = min(max(ix + i, 0), W - 1), xb = min(max(ix + i + 1, 0), W - 1)
                        out[j * m + i] = w00 * base[ya * W + xa] + w01 * base[ya * W + xb]
                            + w10 * base[yb * W + xa] + w11 * base[yb * W + xb]
                    }
                }
            }
        }
        return inside
    }
}
