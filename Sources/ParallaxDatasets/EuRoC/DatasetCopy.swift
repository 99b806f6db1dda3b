import Foundation

extension EuRoCWriter {
    /// Copies `dataset` into a new EuRoC layout under `url`, streaming every file row by row
    /// (constant memory). Images are decoded and re-encoded through ParallaxImaging when
    /// `reencodeImages` is true (which also checks each against `sensor.yaml`), or copied byte
    /// for byte otherwise. Returns the writer's `mav0` folder.
    @discardableResult
    public static func copy(_ dataset: EuRoCDataset, to url: URL, reencodeImages: Bool = true,
                            overwrite: Bool = false) throws -> URL {
        let writer = try EuRoCWriter(url: url, cameras: dataset.cameras, imu: dataset.imu,
                                     groundTruth: dataset.hasGroundTruth, positionSensor: dataset.positionSensor,
                                     overwrite: overwrite)
        for i in dataset.cameras.indices {
            let frames = try dataset.cameraStream(i)
            while let f = try frames.next() {
                if reencodeImages {
                    try writer.appendImage(try f.loadImage(), camera: i, timestampNs: f.timestampNs, filename: f.filename)
                } else {
                    try writer.appendImageFile(copying: f.url, camera: i, timestampNs: f.timestampNs, filename: f.filename)
                }
            }
        }
        let imu = try dataset.imuStream()
        while let s = try imu.next() { try writer.append(s) }
        if let gt = try dataset.groundTruthStream() { while let g = try gt.next() { try writer.append(g) } }
        if let p = try dataset.positionStream() { while let s = try p.next() { try writer.append(s) } }
        try writer.finish()
        return writer.mav0
    }
}
