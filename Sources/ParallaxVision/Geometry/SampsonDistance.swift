import ParallaxMath

/// The Sampson distance of a point pair to an epipolar geometry `x₂ᵀ E x₁ = 0` (Hartley &
/// Zisserman, *Multiple View Geometry*, 2nd ed., §11.4.3): the first-order distance of the pair
/// `(x₁, x₂)` to the nearest pair that satisfies the constraint, in normalised units. One home for
/// the formula; ``EpipolarRansac`` scores with its square, ``StereoEpipolarRefinement`` fits its
/// sign and size.
enum SampsonDistance {
    /// The algebraic error `x₂ᵀ E x₁` and the squared gradient norm that normalises it.
    @inline(__always)
    static func parts(_ E: Matrix3, _ x1: Vector3, _ x2: Vector3) -> (error: Double, denominator: Double) {
        let l2 = E * x1, l1 = E.transpose * x2
        return (x2.dot(l2), l2.x * l2.x + l2.y * l2.y + l1.x * l1.x + l1.y * l1.y)
    }

    /// Squared distance (normalised units²); infinite for a degenerate pair.
    @inline(__always)
    static func squared(_ E: Matrix3, _ x1: Vector3, _ x2: Vector3) -> Double {
        let (e, den) = parts(E, x1, x2)
        return den > 0 ? e * e / den : .infinity
    }

    /// Signed distance (normalised units) of the normalised points `a` (first view) and `b`
    /// (second view); infinite for a degenerate pair.
    @inline(__always)
    static func signed(_ E: Matrix3, _ a: Vector2, _ b: Vector2) -> Double {
        let (e, den) = parts(E, Vector3(a.x, a.y, 1), Vector3(b.x, b.y, 1))
        return den > 0 ? e / den.squareRoot() : .infinity
    }
}
