import Foundation

/// A one-line progress bar redrawn with a carriage return (commands create one only on a terminal).
final class ProgressBar {
    private var lastDrawn = -1
    private let start = Date()

    /// Redraws the bar when the whole percentage changes. Without `status` the line ends with the
    /// estimated time left; with one (e.g. the tracking state) it shows that instead, padded so a
    /// shorter status overwrites a longer one.
    func update(_ fraction: Double, status: String? = nil) {
        let percent = Int(fraction * 100)
        guard percent != lastDrawn else { return }
        lastDrawn = percent
        let width = 30
        let filled = Int(fraction * Double(width))
        let tail: String
        if let status {
            tail = status + "        "
        } else {
            let elapsed = Date().timeIntervalSince(start)
            tail = "eta \(Int(fraction > 0 ? elapsed * (1 - fraction) / fraction : 0)) s"
        }
        let line = "[" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
            + "] \(percent)%  " + tail
        FileHandle.standardOutput.write(Data(("\r" + line).utf8))
    }

    /// Ends the line.
    func finish() { FileHandle.standardOutput.write(Data("\n".utf8)) }
}
