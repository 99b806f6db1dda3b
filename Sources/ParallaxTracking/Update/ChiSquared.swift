import Foundation

/// Chi-squared quantiles at 95 % (table for small degrees of freedom, Wilson–Hilferty beyond).
enum ChiSquared {
    private static let table95: [Double] = [3.841, 5.991, 7.815, 9.488, 11.070, 12.592, 14.067, 15.507, 16.919, 18.307,
                                             19.675, 21.026, 22.362, 23.685, 24.996, 26.296, 27.587, 28.869, 30.144, 31.410]

    /// The quantile of probability `p` for `dof` degrees of freedom (p = 0.95 uses the table).
    static func quantile(dof: Int, probability p: Double = 0.95) -> Double {
        if abs(p - 0.95) < 1e-9, dof >= 1, dof <= table95.count { return table95[dof - 1] }
        // Wilson & Hilferty (1931): (X/ν)^(1/3) is approximately normal.
        let z = normalQuantile(p)
        let k = Double(max(dof, 1))
        let a = 2 / (9 * k)
        let t = 1 - a + z * a.squareRoot()
        return k * t * t * t
    }

    /// Standard normal quantile (Acklam's rational approximation, |error| < 1.2e-9).
    static func normalQuantile(_ p: Double) -> Double {
        let a = [-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02, 1.383577518672690e+02,
                 -3.066479806614716e+01, 2.506628277459239e+00]
        let b = [-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02, 6.680131188771972e+01,
                 -1.328068155288572e+01]
        let c = [-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00, -2.549732539343734e+00,
                 4.374664141464968e+00, 2.938163982698783e+00]
        let d = [7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00]
        let pl = 0.02425
        if p < pl {
            let q = (-2 * log(p)).squareRoot()
            return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
                / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
        }
        if p > 1 - pl { return -normalQuantile(1 - p) }
        let q = p - 0.5, r = q * q
        return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q
            / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
    }
}
