import ParallaxMath

/// Pyramidal Lucas–Kanade point tracker, inverse-compositional formulation with a
/// translation warp and gain and bias (brightness scale and offset) nuisance terms.
///
/// For each point and pyramid level (coarse to fine, Bouguet 2001), with template `T` the
/// previous image around `p` and `I` the current image around the estimate `q`,
/// inverse compositional LK (Baker & Matthews 2004, "Lucas-Kanade 20 Years On", §3.2)
/// minimises `Σ [I(x + q) − T(x + Δ) − β]²` over `Δ` and the offset `β`, then updates
/// `q ← q − Δ`. Because the template gradient `∇T` is fixed, the Gauss–Newton matrix
/// `H = Σ ∇T ∇Tᵀ` is computed once per level; eliminating `β` (Schur complement) just
/// replaces `∇T` by its window-mean-subtracted version `∇T − mean(∇T)`, which makes the
/// tracker insensitive to EuRoC's auto-exposure steps at no extra cost per iteration.
/// With ``compensatesGain`` the model is `I(x + q) ≈ (1 + α) T(x + Δ) + β` (a change of exposure
/// time or gain scales the image): eliminating α as well replaces `∇T` by its part orthogonal to
/// both the constant and the template itself (`∇T` minus its regression on `T` over the window),
/// again once per level, so the iterations cost the same.
///
/// Bilinear sampling: the warp is a pure translation, so the four bilinear weights are the
/// same for every window pixel and are computed once per iteration.
///
/// **Known patch warp.** Between two frames a feature's patch is not only shifted: a camera moving
/// towards the point enlarges it by `z / z′` (walking at 1.4 m/s past points 2–5 m away at 20 Hz:
/// 1.4–3.5 % a frame), and a rotation turns and shears it (a roll turns it by the roll; a 3° yaw
/// stretches a patch at the image edge by 4 % along the row). A translation-only window cannot
/// follow that, and its answer is pulled towards the centroid of the template's gradient energy by
/// about the warp times that centroid's offset — a bias with the same sign frame after frame for
/// one feature, so tracks drift (simulated hall, near points, clean render: 0.10 / 0.29 / 0.46 px
/// after 3 / 11 / 20 frames). Given each point's predicted local warp `A` (current pixel offsets =
/// `A` · previous pixel offsets; ``PatchWarp``), the finest level's template is resampled at
/// `p + A⁻¹ y` on the integer grid `y`, so that it matches the current image; the translation is
/// then solved as before. The warp is predicted, never estimated (an estimated scale fitted noise on
/// distant points).
public struct LucasKanadeTracker: Sendable, Equatable {
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
    /// Also compensates a brightness scale between the frames (auto-exposure), not only an offset.
    public var compensatesGain: Bool

    /// Creates a tracker; the defaults are tuned for 752×480 EuRoC frames at 20 Hz.
    public init(windowRadius: Int = 7, levels: Int = 3, maxIterations: Int = 30,
                epsilon: Double = 0.01, minEigenvalue: Float = 1, maxMeanResidual: Float = 25,
                borderMargin: Double = 2, compensatesGain: Bool = false) {
        self.windowRadius = windowRadius
        self.levels = levels
        self.maxIterations = maxIterations
        self.epsilon = epsilon
        self.minEigenvalue = minEigenvalue
        self.maxMeanResidual = maxMeanResidual
        self.borderMargin = borderMargin
        self.compensatesGain = compensatesGain
    }

    /// Tracks `points` (level-0 pixels in `previous`) into `current`, starting from
    /// `guesses` (same count; e.g. IMU-rotation-predicted positions) or from the points
    /// themselves. Returns the tracked position, or `nil` where tracking failed.
    /// `warps` (same count, optional): each point's predicted patch warp from `previous` to
    /// `current` (nil or identity: none); see the type's documentation.
    public func track(from previous: ImagePyramid, to current: ImagePyramid, points: [Vector2],
                      guesses: [Vector2]? = nil, warps: [PatchWarp?]? = nil) -> [Vector2?] {
        precondition(guesses == nil || guesses!.count == points.count, "one guess per point")
        precondition(warps == nil || warps!.count == points.count, "one warp per point")
        // The template is sampled through the inverse warp; a warp without one is ignored.
        return track(from: previous, to: current, points: points, guesses: guesses,
                     templateWarps: warps?.map { $0.flatMap { $0 == .identity ? nil : $0.inverse } })
    }

    /// ``track(from:to:points:guesses:warps:)`` given, per point, the map its template is sampled
    /// through (the inverse of its patch warp; nil: the plain window).
    private func track(from previous: ImagePyramid, to current: ImagePyramid, points: [Vector2],
                       guesses: [Vector2]?, templateWarps: [PatchWarp?]?) -> [Vector2?] {
        let levelCount = max(1, min(levels, previous.levels.count, current.levels.count))
        let n = 2 * windowRadius + 1
        var scratch = [Float](repeating: 0, count: (n + 2) * Self.paddedWidth(n + 2) + 4 * n * Self.paddedWidth(n))
        var out = [Vector2?](repeating: nil, count: points.count)
        scratch.withUnsafeMutableBufferPointer { buf in
            for k in 0..<points.count {
                let p = points[k]
                let g = guesses?[k] ?? p
                out[k] = trackOne(previous, current, p, g, levelCount, templateWarps?[k] ?? nil, buf.baseAddress!)
            }
        }
        return out
    }

    /// Tracks forward, then back from the result towards the original point, and keeps
    /// only tracks that return within `maxForwardBackwardError` pixels (Kalal et al. 2010).
    public func trackChecked(from previous: ImagePyramid, to current: ImagePyramid,
                             points: [Vector2], guesses: [Vector2]? = nil, warps: [PatchWarp?]? = nil,
                             maxForwardBackwardError: Double = 0.5) -> [Vector2?] {
        // Forward, each template is sampled through A⁻¹; backward, the patch warp is A⁻¹, so its
        // template is sampled through A itself (where A has an inverse, as forward).
        let forwardTemplates = warps?.map { $0.flatMap { $0 == .identity ? nil : $0.inverse } }
        let forward = track(from: previous, to: current, points: points, guesses: guesses, templateWarps: forwardTemplates)
        var idx: [Int] = []
        var fwd: [Vector2] = []
        var back: [Vector2] = []
        var backTemplates: [PatchWarp?] = []
        for (k, f) in forward.enumerated() {
            if let f {
                idx.append(k)
                fwd.append(f)
                back.append(points[k])
                backTemplates.append(forwardTemplates?[k] == nil ? nil : warps?[k] ?? nil)
            }
        }
        let backward = track(from: current, to: previous, points: fwd, guesses: back,
                             templateWarps: warps == nil ? nil : backTemplates)
        var out = [Vector2?](repeating: nil, count: points.count)
        let t2 = maxForwardBackwardError * maxForwardBackwardError
        for (j, k) in idx.enumerated() {
            if let b = backward[j], squaredDistance(b, points[k]) <= t2 { out[k] = fwd[j] }
        }
        return out
    }

    // MARK: - One point

    /// Lanes per vector in the window loops.
    private typealias Lanes = SIMD8<Float>

    /// Window rows are stored `paddedWidth(n)` floats apart (a whole number of
    /// ``Lanes``) so every loop over the window runs on full vectors; the padding lanes
    /// hold zero gradients and so add nothing to the sums.
    private static func paddedWidth(_ n: Int) -> Int { (n + Lanes.scalarCount - 1) / Lanes.scalarCount * Lanes.scalarCount }

    /// `(Σ a, Σ b)` over the lanes, as `Double`.
    @inline(__always)
    private static func sums(_ a: Lanes, _ b: Lanes) -> (x: Double, y: Double) {
        (Double(a.sum()), Double(b.sum()))
    }

    private func trackOne(_ prev: ImagePyramid, _ cur: ImagePyramid, _ p: Vector2, _ guess: Vector2,
                          _ levelCount: Int, _ templateWarp: PatchWarp?, _ scratch: UnsafeMutablePointer<Float>) -> Vector2? {
        let r = windowRadius, n = 2 * r + 1, nn = n * n
        let L = Lanes.scalarCount
        let pw = Self.paddedWidth(n), tw = Self.paddedWidth(n + 2)
        let laneIndex = Lanes(0, 1, 2, 3, 4, 5, 6, 7)
        let tpl = scratch                       // n + 2 rows `tw` apart: template with a 1-px rim
        let gx = scratch + (n + 2) * tw         // centred gradients, n rows `pw` apart
        let gy = gx + n * pw
        let tc = gy + n * pw                    // template interior
        let ic = tc + n * pw                    // current patch (border path only)
        var d = (guess - p) / Double(1 << (levelCount - 1))  // displacement at the top level
        var lastResidual: Float = 0
        for level in stride(from: levelCount - 1, through: 0, by: -1) {
            let scale = 1 / Double(1 << level)
            let tImg = prev.levels[level], iImg = cur.levels[level]
            let pl = p * scale
            // Template with rim, gradients by central differences. Columns ≥ n of each row
            // are zeroed in gx, gy and tc, so they add nothing to the sums below.
            // The coarse levels only bring the start into the finest level's basin, so the warped
            // template (which fixes the finest level's answer) is built there alone.
            if let templateWarp, level == 0 {
                sampleWarpedBlock(tImg, centre: pl, half: r + 1, warp: templateWarp, rows: n + 2, columns: tw, tpl)
            } else {
                sampleBlock(tImg, pl.x - Double(r + 1), pl.y - Double(r + 1), rows: n + 2, columns: tw, tpl)
            }
            var sx = Lanes(), sy = Lanes()
            for j in 0..<n {
                let centre = tpl + (j + 1) * tw + 1
                for c in Swift.stride(from: 0, to: pw, by: L) {
                    let q = centre + c
                    var dx = 0.5 * (load(q + 1) - load(q - 1))
                    var dy = 0.5 * (load(q + tw) - load(q - tw))
                    var t = load(q)
                    if c + L > n {
                        let outside = laneIndex .>= Float(n - c)
                        dx.replace(with: 0, where: outside)
                        dy.replace(with: 0, where: outside)
                        t.replace(with: 0, where: outside)
                    }
                    let k = j * pw + c
                    store(dx, gx + k)
                    store(dy, gy + k)
                    store(t, tc + k)
                    sx += dx
                    sy += dy
                }
            }
            let mx = sx.sum() / Float(nn), my = sy.sum() / Float(nn)
            // Gain: the regression slopes of the centred gradients on the centred template.
            var gainX: Float = 0, gainY: Float = 0, meanT: Float = 0
            if compensatesGain {
                var st = Lanes(), stt = Lanes(), sxt = Lanes(), syt = Lanes()
                for k in Swift.stride(from: 0, to: n * pw, by: L) { st += load(tc + k) }
                meanT = st.sum() / Float(nn)
                for j in 0..<n {
                    for c in Swift.stride(from: 0, to: pw, by: L) {
                        let k = j * pw + c
                        var t = load(tc + k) - meanT
                        if c + L > n { t.replace(with: 0, where: laneIndex .>= Float(n - c)) }
                        stt += t * t
                        sxt += (load(gx + k) - mx) * t
                        syt += (load(gy + k) - my) * t
                    }
                }
                let varT = stt.sum()
                if varT > 1e-3 * Float(nn) {
                    gainX = sxt.sum() / varT
                    gainY = syt.sum() / varT
                }
            }
            var sxx = Lanes(), sxy = Lanes(), syy = Lanes()
            for j in 0..<n {
                for c in Swift.stride(from: 0, to: pw, by: L) {
                    let k = j * pw + c
                    // Centre the gradients; padding lanes stay zero.
                    var dx = load(gx + k) - mx, dy = load(gy + k) - my
                    if compensatesGain {
                        let t = load(tc + k) - meanT
                        dx -= gainX * t
                        dy -= gainY * t
                    }
                    if c + L > n {
                        let outside = laneIndex .>= Float(n - c)
                        dx.replace(with: 0, where: outside)
                        dy.replace(with: 0, where: outside)
                    }
                    store(dx, gx + k)
                    store(dy, gy + k)
                    sxx += dx * dx
                    sxy += dx * dy
                    syy += dy * dy
                }
            }
            let hxx = sxx.sum(), hxy = sxy.sum(), hyy = syy.sum()
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
                guard let b = steepestDescent(iImg, q.x - Double(r), q.y - Double(r), n, pw,
                                              gx, gy, tc, ic, requireInside: level == 0)
                else { return nil }
                let dx = ixx * b.x + ixy * b.y
                let dy = ixy * b.x + iyy * b.y
                q.x -= dx
                q.y -= dy
                guard q.x.isFinite, q.y.isFinite else { return nil }
                if dx * dx + dy * dy < epsilon * epsilon { break }
            }
            d = q - pl
            if level > 0 {
                d *= 2
            } else {
                // Residual after removing the offset (and the gain), for the occlusion test.
                sampleBlock(iImg, q.x - Double(r), q.y - Double(r), rows: n, columns: pw, ic)
                lastResidual = photometricResidual(ic, tc, n: n, pw: pw)
            }
        }
        let result = p + d
        // The border of the image tracked into (the template may be a smaller patch).
        let w0 = cur.levels[0]
        guard result.x >= borderMargin, result.y >= borderMargin,
              result.x <= Double(w0.width - 1) - borderMargin,
              result.y <= Double(w0.height - 1) - borderMargin,
              lastResidual <= maxMeanResidual else { return nil }
        return result
    }

    /// Mean absolute difference between the patch `ic` and the template `tc` once the best offset
    /// (and, with ``compensatesGain``, scale) of the template is applied: `I ≈ a T + b`.
    private func photometricResidual(_ ic: UnsafePointer<Float>, _ tc: UnsafePointer<Float>, n: Int, pw: Int) -> Float {
        // Vector loops over whole padded rows; the padding lanes of `ic` hold image samples, so
        // every sum masks them (those of `tc` are zero already).
        let L = Lanes.scalarCount
        let nn = Float(n * n)
        let outside = Lanes(0, 1, 2, 3, 4, 5, 6, 7) .>= Float(n - (pw - L))
        @inline(__always) func patch(_ k: Int, _ c: Int) -> Lanes {
            var v = load(ic + k)
            if c + L > n { v.replace(with: 0, where: outside) }
            return v
        }
        var si = Lanes(), st = Lanes()
        for j in 0..<n {
            for c in Swift.stride(from: 0, to: pw, by: L) {
                let k = j * pw + c
                si += patch(k, c)
                st += load(tc + k)
            }
        }
        let mi = si.sum() / nn, mt = st.sum() / nn
        var a: Float = 1
        if compensatesGain {
            var stt = Lanes(), sit = Lanes()
            for j in 0..<n {
                for c in Swift.stride(from: 0, to: pw, by: L) {
                    let k = j * pw + c
                    var t = load(tc + k) - mt, i = load(ic + k) - mi
                    if c + L > n {
                        t.replace(with: 0, where: outside)
                        i.replace(with: 0, where: outside)
                    }
                    stt += t * t
                    sit += i * t
                }
            }
            let vt = stt.sum()
            if vt > 1e-3 * nn { a = min(max(sit.sum() / vt, 0.5), 2) }
        }
        let va = Lanes(repeating: a), vm = Lanes(repeating: mi - a * mt)
        var sad = Lanes()
        for j in 0..<n {
            for c in Swift.stride(from: 0, to: pw, by: L) {
                let k = j * pw + c
                var e = load(ic + k) - vm - va * load(tc + k)
                if c + L > n { e.replace(with: 0, where: outside) }
                e.replace(with: -e, where: e .< 0)
                sad += e
            }
        }
        return sad.sum() / nn
    }

    @inline(__always)
    private func load(_ q: UnsafePointer<Float>) -> Lanes {
        UnsafeRawPointer(q).loadUnaligned(as: Lanes.self)
    }

    @inline(__always)
    private func store(_ v: Lanes, _ q: UnsafeMutablePointer<Float>) {
        UnsafeMutableRawPointer(q).storeBytes(of: v, as: Lanes.self)
    }

    /// The Gauss–Newton right-hand side `b = Σ ∇T (I(x + q) − T(x))` for the `n × n` window
    /// whose top-left sample is at `(x0, y0)` in `img` (template rows `pw` apart); `nil`
    /// when `requireInside` and the window leaves the image.
    ///
    /// Away from the border the bilinear samples are computed in registers and consumed at
    /// once (one pass, no patch buffer); near the border the clamped patch is sampled into
    /// `ic` first. Both give the same samples.
    @inline(__always)
    private func steepestDescent(_ img: FloatPlane, _ x0: Double, _ y0: Double, _ n: Int, _ pw: Int,
                                 _ gx: UnsafePointer<Float>, _ gy: UnsafePointer<Float>,
                                 _ tc: UnsafePointer<Float>, _ ic: UnsafeMutablePointer<Float>,
                                 requireInside: Bool) -> (x: Double, y: Double)? {
        let L = Lanes.scalarCount
        let W = img.width, H = img.height
        var bx = Lanes(), by = Lanes()
        guard x0.isFinite, y0.isFinite, abs(x0) < 1e7, abs(y0) < 1e7 else {
            // Zero samples (as `sampleBlock` gives): the step is −Σ ∇T·T.
            if requireInside { return nil }
            for k in Swift.stride(from: 0, to: n * pw, by: L) {
                let e = -load(tc + k)
                bx += load(gx + k) * e
                by += load(gy + k) * e
            }
            return Self.sums(bx, by)
        }
        let fx = x0.rounded(.down), fy = y0.rounded(.down)
        let ix = Int(fx), iy = Int(fy)
        // Whole padded rows (`pw + 1` samples wide) inside the image: fused fast path.
        if ix >= 0, iy >= 0, ix + pw < W, iy + n < H {
            let ax = Float(x0 - fx), ay = Float(y0 - fy)
            let w00 = Lanes(repeating: (1 - ax) * (1 - ay)), w01 = Lanes(repeating: ax * (1 - ay))
            let w10 = Lanes(repeating: (1 - ax) * ay), w11 = Lanes(repeating: ax * ay)
            img.pixels.withUnsafeBufferPointer { buf in
                for j in 0..<n {
                    let r0 = buf.baseAddress! + (iy + j) * W + ix
                    let r1 = r0 + W
                    for c in Swift.stride(from: 0, to: pw, by: L) {
                        let v = w00 * load(r0 + c) + w01 * load(r0 + c + 1)
                            + w10 * load(r1 + c) + w11 * load(r1 + c + 1)
                        let k = j * pw + c
                        let e = v - load(tc + k)
                        bx += load(gx + k) * e
                        by += load(gy + k) * e
                    }
                }
            }
            return Self.sums(bx, by)
        }
        // The window is "inside" when its n × n bilinear footprint is.
        let inside = ix >= 0 && iy >= 0 && ix + n < W && iy + n < H
        if !inside && requireInside { return nil }
        sampleBlock(img, x0, y0, rows: n, columns: pw, ic)
        for k in Swift.stride(from: 0, to: n * pw, by: L) {
            let e = load(ic + k) - load(tc + k)
            bx += load(gx + k) * e
            by += load(gy + k) * e
        }
        return Self.sums(bx, by)
    }

    /// Bilinear samples at `centre + warp · (i − half, j − half)`, `i < columns`, `j < rows`, into
    /// `out` (rows `columns` apart), with the border replicated: the template of a patch seen through
    /// a warp (see the type's documentation). Only the window and its rim (`2 · half + 1` columns)
    /// are sampled; the padding columns are set to zero. Zeros for a non-finite or absurd position.
    private func sampleWarpedBlock(_ img: FloatPlane, centre: Vector2, half: Int, warp: PatchWarp, rows: Int, columns: Int,
                                   _ out: UnsafeMutablePointer<Float>) {
        let W = img.width, H = img.height
        guard centre.x.isFinite, centre.y.isFinite, abs(centre.x) < 1e7, abs(centre.y) < 1e7,
              warp.departure.isFinite, warp.departure < 1 else {
            out.update(repeating: 0, count: rows * columns)
            return
        }
        let used = min(columns, 2 * half + 1)
        // The map is affine, so the sampled positions lie within the hull of the block's corners;
        // when all four keep a whole bilinear cell inside the image, no sample needs clamping and
        // `Int(x)` is the floor (x ≥ 0). Same samples as the general loop, without its calls to floor.
        func keepsCellInside(_ i: Int, _ j: Int) -> Bool {
            let dx = Double(i), dy = Double(j)
            let x = centre.x + warp.a11 * dx + warp.a12 * dy, y = centre.y + warp.a21 * dx + warp.a22 * dy
            return x >= 0 && y >= 0 && x < Double(W - 1) && y < Double(H - 1)
        }
        let first = -half, lastColumn = used - 1 - half, lastRow = rows - 1 - half
        let inside = keepsCellInside(first, first) && keepsCellInside(lastColumn, first)
            && keepsCellInside(first, lastRow) && keepsCellInside(lastColumn, lastRow)
        // Each position is `(centre + a·dx) + b·dy`, added in that order: the first part depends on
        // the column alone and is computed once per block, the same numbers as per sample.
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 2 * used) { columnParts in
            let columnX = columnParts.baseAddress!, columnY = columnX + used
            for i in 0..<used {
                let dx = Double(i - half)
                columnX[i] = centre.x + warp.a11 * dx
                columnY[i] = centre.y + warp.a21 * dx
            }
            img.pixels.withUnsafeBufferPointer { buf in
                let base = buf.baseAddress!
                for j in 0..<rows {
                    let dy = Double(j - half)
                    let rowX = warp.a12 * dy, rowY = warp.a22 * dy
                    let o = out + j * columns
                    (o + used).update(repeating: 0, count: columns - used)
                    for i in 0..<used {
                        let x = columnX[i] + rowX, y = columnY[i] + rowY
                        let r0: UnsafePointer<Float>, r1: UnsafePointer<Float>, xa: Int, xb: Int, ax: Float, ay: Float
                        if inside {
                            let xi = Int(x), yi = Int(y)
                            (ax, ay) = (Float(x - Double(xi)), Float(y - Double(yi)))
                            (xa, xb) = (xi, xi + 1)
                            r0 = base + yi * W
                            r1 = r0 + W
                        } else {
                            let fx = x.rounded(.down), fy = y.rounded(.down)
                            (ax, ay) = (Float(x - fx), Float(y - fy))
                            (xa, xb) = (min(max(Int(fx), 0), W - 1), min(max(Int(fx) + 1, 0), W - 1))
                            r0 = base + min(max(Int(fy), 0), H - 1) * W
                            r1 = base + min(max(Int(fy) + 1, 0), H - 1) * W
                        }
                        let top = r0[xa] + ax * (r0[xb] - r0[xa]), bottom = r1[xa] + ax * (r1[xb] - r1[xa])
                        o[i] = top + ay * (bottom - top)
                    }
                }
            }
        }
    }

    /// Bilinear samples at `(x0 + i, y0 + j)`, `i < columns` (a multiple of the lane
    /// count), `j < rows`, into `out` (rows `columns` apart), with the border replicated;
    /// zeros for a non-finite or absurd position.
    private func sampleBlock(_ img: FloatPlane, _ x0: Double, _ y0: Double, rows: Int, columns: Int,
                             _ out: UnsafeMutablePointer<Float>) {
        let L = Lanes.scalarCount
        let W = img.width, H = img.height
        guard x0.isFinite, y0.isFinite, abs(x0) < 1e7, abs(y0) < 1e7 else {
            out.update(repeating: 0, count: rows * columns)
            return
        }
        let fx = x0.rounded(.down), fy = y0.rounded(.down)
        let ix = Int(fx), iy = Int(fy)
        let ax = Float(x0 - fx), ay = Float(y0 - fy)
        let w00 = (1 - ax) * (1 - ay), w01 = ax * (1 - ay), w10 = (1 - ax) * ay, w11 = ax * ay
        let v00 = Lanes(repeating: w00), v01 = Lanes(repeating: w01)
        let v10 = Lanes(repeating: w10), v11 = Lanes(repeating: w11)
        img.pixels.withUnsafeBufferPointer { buf in
            let base = buf.baseAddress!
            for j in 0..<rows {
                // Replicating the border row-wise only changes which rows are read.
                let r0 = base + min(max(iy + j, 0), H - 1) * W
                let r1 = base + min(max(iy + j + 1, 0), H - 1) * W
                let o = out + j * columns
                for c in Swift.stride(from: 0, to: columns, by: L) {
                    let x = ix + c
                    if x >= 0 && x + L < W {
                        store(v00 * load(r0 + x) + v01 * load(r0 + x + 1)
                              + v10 * load(r1 + x) + v11 * load(r1 + x + 1), o + c)
                    } else {
                        for i in x..<(x + L) {
                            let xa = min(max(i, 0), W - 1), xb = min(max(i + 1, 0), W - 1)
                            o[i - ix] = w00 * r0[xa] + w01 * r0[xb] + w10 * r1[xa] + w11 * r1[xb]
                        }
                    }
                }
            }
        }
    }
}

/// The local linear map of a feature's patch from one image to the next (current pixel offsets =
/// `matrix` · previous pixel offsets), predicted from the camera's motion: see
/// ``LucasKanadeTracker`` ("Known patch warp").
public struct PatchWarp: Sendable, Equatable {
    /// Row-major 2 × 2 entries.
    public var a11, a12, a21, a22: Double
    /// No warp.
    public static let identity = PatchWarp(a11: 1, a12: 0, a21: 0, a22: 1)
    /// Creates a warp from its entries.
    public init(a11: Double, a12: Double, a21: Double, a22: Double) {
        (self.a11, self.a12, self.a21, self.a22) = (a11, a12, a21, a22)
    }
    /// An isotropic enlargement by `scale`.
    public init(scale: Double) { self.init(a11: scale, a12: 0, a21: 0, a22: scale) }
    /// The inverse map; nil when singular or not finite.
    public var inverse: PatchWarp? {
        let det = a11 * a22 - a12 * a21
        guard det.isFinite, abs(det) > 1e-9 else { return nil }
        return PatchWarp(a11: a22 / det, a12: -a12 / det, a21: -a21 / det, a22: a11 / det)
    }
    /// The largest entry of `self − I` in size: how far from a pure translation.
    public var departure: Double { max(abs(a11 - 1), abs(a12), abs(a21), abs(a22 - 1)) }
}
