/// The upper median of `values` (the middle one after sorting; of two middle ones, the larger), 0
/// when there are none: the robust centre the start's image tests take of per-feature figures.
func upperMedian(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}
