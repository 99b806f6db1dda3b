import Foundation

extension DatasetReplay.Iterator: SensorEventIterator {}

extension EuRoCDataset: SensorSource {
    /// The `mav0` folder's path.
    public var origin: String { mav0.path }

    /// `mav0/camN/data.csv`.
    public func origin(ofCamera index: Int) -> String {
        "mav0/\(cameras.indices.contains(index) ? cameras[index].name : "cam\(index)")/data.csv"
    }

    /// `mav0/imu0/data.csv`.
    public var imuOrigin: String { "mav0/\(imu.name)/data.csv" }

    /// `mav0/<ground-truth folder>/data.csv`, nil without ground truth.
    public var groundTruthOrigin: String? { groundTruthSensor.map { "mav0/\($0)/data.csv" } }

    /// ``DatasetReplay``'s iterator over the window: the CSV files merged row by row, images by file.
    public func makeEvents(from: Double?, to: Double?, includeGroundTruth: Bool) throws -> any SensorEventIterator {
        try replay(from: from, to: to, includeGroundTruth: includeGroundTruth).makeIterator()
    }
}
