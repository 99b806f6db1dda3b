import Foundation
import ParallaxDatasets

extension Vocabulary {
    /// Training images from a dataset: for every `stride`-th cam0 image, the descriptors the
    /// relocalizer computes on the query side (``Relocalizer/describeCorners(_:)``: its corner
    /// detector, then oriented BRIEF), so the words are learnt from what recognition will look up.
    /// `progress` is called after each image with (images done, images to do).
    /// - Throws: the dataset's errors (missing cam0, unreadable images), naming the file.
    public static func trainingImages(from dataset: EuRoCDataset, stride: Int, relocalizer: Relocalizer = .init(),
                                      progress: (Int, Int) -> Void = { _, _ in }) throws -> [[BinaryDescriptor]] {
        let frames = try dataset.cameraFrames(0)
        let chosen = Swift.stride(from: 0, to: frames.count, by: max(stride, 1)).map { frames[$0] }
        var images: [[BinaryDescriptor]] = []
        images.reserveCapacity(chosen.count)
        for (i, frame) in chosen.enumerated() {
            images.append(relocalizer.describeCorners(try frame.loadGray8()).map(\.descriptor))
            progress(i + 1, chosen.count)
        }
        return images
    }
}
