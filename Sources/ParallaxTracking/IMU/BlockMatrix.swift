import ParallaxMath

/// A square matrix made of n×n blocks of 3×3 (so 3n×3n), the natural shape of IMU error-state
/// covariances (rotation, velocity, position, biases are all 3-vectors).
///
/// Block arithmetic keeps the preintegration free of index bookkeeping and allocation-light:
/// blocks are stored row-major in one array.
struct BlockMatrix: Equatable, Sendable {
    /// Number of block rows (and columns).
    let n: Int
    /// Blocks in row-major order: block (i, j) is at `i * n + j`.
    var blocks: [Matrix3]

    /// The zero matrix of `n`×`n` blocks.
    init(zero n: Int) {
        self.n = n
        blocks = Array(repeating: .zero, count: n * n)
    }

    /// The identity matrix of `n`×`n` blocks.
    init(identity n: Int) {
        self.init(zero: n)
        for i in 0..<n { self[i, i] = .identity }
    }

    /// Block (i, j).
    subscript(i: Int, j: Int) -> Matrix3 {
        get { blocks[i * n + j] }
        set { blocks[i * n + j] = newValue }
    }

    /// Scalar element at (row, column) of the full 3n×3n matrix.
    func element(_ row: Int, _ column: Int) -> Double { self[row / 3, column / 3][row % 3, column % 3] }

    /// The transpose.
    var transpose: BlockMatrix {
        var t = BlockMatrix(zero: n)
        for i in 0..<n { for j in 0..<n { t[j, i] = self[i, j].transpose } }
        return t
    }

    static func * (a: BlockMatrix, b: BlockMatrix) -> BlockMatrix {
        var c = BlockMatrix(zero: a.n)
        for i in 0..<a.n {
            for k in 0..<a.n {
                let aik = a[i, k]
                if aik == .zero { continue }
                for j in 0..<a.n where b[k, j] != .zero { c[i, j] += aik * b[k, j] }
            }
        }
        return c
    }

    static func + (a: BlockMatrix, b: BlockMatrix) -> BlockMatrix {
        var c = a
        for i in 0..<c.blocks.count { c.blocks[i] += b.blocks[i] }
        return c
    }

    /// `self * diag(s, …) * selfᵀ` restricted to a block column: adds `G (σ² I) Gᵀ` where `G` is the
    /// column of blocks `g` (one 3×3 block per block row). Used to inject white noise.
    mutating func addNoise(column g: [Matrix3], variance: Double) {
        for i in 0..<n where g[i] != .zero {
            for j in 0..<n where g[j] != .zero {
                self[i, j] += (g[i] * g[j].transpose) * variance
            }
        }
    }
}
