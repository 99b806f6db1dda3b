import Foundation
import ParallaxDatasets

extension Session {
    /// A session over any sensor source: an EuRoC/ASL or TUM-VI folder, a recording, or a
    /// ``LiveSource`` that user code feeds. Nothing is read until the first frame is requested.
    public convenience init(source: any SensorSource, replay: ReplayOptions = .init()) {
        self.init(dataset: source, replay: replay)
    }
}
