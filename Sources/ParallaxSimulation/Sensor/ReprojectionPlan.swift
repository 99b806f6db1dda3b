import Foundation

/// The renders of one camera frame for ``ShutterMethod/reprojection``, and when each image row
/// looks.
///
/// The rows are split into `groups.count` runs of consecutive rows, each rendered once (with
/// depth) at the middle of its rows' instants. Every row then gathers its exposure from its
/// group's render: its pixel's ray at each instant of the row's window is carried into the render
/// through the relative pose and the rendered depth (see `CameraRenderer.renderFrameReprojected`).
/// Rotation is reprojected exactly whatever its size; translation is exact wherever the surface
/// seen was visible from the render's viewpoint, so the groups are made short enough that the
/// translation alone moves the image by at most `parallaxPerRender` pixels (the width of the
/// strips a near edge can uncover).
public struct ReprojectionPlan: Sendable, Equatable {
    /// One run of rows rendered together.
    public struct Group: Sendable, Equatable {
        /// Image rows of the group.
        public var rows: Range<Int>
        /// The render's instant (s, IMU clock).
        public var time: Double
        /// How far (px) any row's ray may move in the image between the render and the row's
        /// instants: the render reaches this much past the rows and columns the group samples.
        public var margin: Int
    }

    /// The groups, top to bottom, covering every row once.
    public let groups: [Group]
    /// Per row: the middle of its exposure (s, IMU clock).
    public let rowTimes: [Double]
    /// Exposure time (s); 0 samples each row at one instant.
    public let exposure: Double
    /// Straight pieces each row's image path over its exposure is split into (0 without exposure).
    /// Over a few milliseconds the path is nearly straight; a piece covers at most 16 px.
    public let pathPieces: Int

    /// The plan of a frame whose middle row's exposure is centred on `time`.
    /// - Parameters:
    ///   - exposure: exposure time `e` (s).
    ///   - readout: rolling-shutter readout `R` (s); row `v` is at `time + (v − (rows − 1)/2) · R/rows`.
    ///   - rows: image height.
    ///   - pixelSpeed: an upper estimate of the image motion from rotation and translation (px/s).
    ///   - translationPixelSpeed: the same from translation alone (px/s).
    ///   - parallaxPerRender: translation-driven image motion allowed between a row's instants
    ///     and its group's render (px).
    ///   - maxRenders: cap on the number of groups.
    public init(time: Double, exposure: Double, readout: Double, rows: Int, pixelSpeed: Double,
                translationPixelSpeed: Double, parallaxPerRender: Double, maxRenders: Int) {
        let lineDelay = readout / Double(rows)
        rowTimes = (0..<rows).map { time + (Double($0) - Double(rows - 1) / 2) * lineDelay }
        self.exposure = exposure
        // Rows that are a readout apart should not be further than the allowed parallax from their
        // render, nor more than 32 px of any motion (the render's margins grow with it).
        func needed(_ speed: Double, _ allowed: Double) -> Int {
            let wanted = speed * readout / (2 * allowed)
            return wanted.isFinite ? Int(min(wanted.rounded(.up), 1e6)) : Int.max
        }
        let count = max(1, min(maxRenders, rows, max(needed(translationPixelSpeed, parallaxPerRender), needed(pixelSpeed, 32))))
        let middleRow = Double(rows - 1) / 2
        groups = (0..<count).map { g in
            let groupRows = (g * rows / count)..<((g + 1) * rows / count)
            let centre = Double(groupRows.lowerBound + groupRows.upperBound - 1) / 2
            let residual = pixelSpeed * (Double(groupRows.count - 1) / 2 * lineDelay + exposure / 2)
            let margin = residual.isFinite ? Int(min(residual, 512).rounded(.up)) + 2 : 514
            return Group(rows: groupRows, time: time + (centre - middleRow) * lineDelay, margin: margin)
        }
        let pieces = pixelSpeed * exposure / 16
        pathPieces = exposure > 0 ? max(1, min(8, pieces.isFinite ? Int(pieces.rounded(.up)) : 8)) : 0
    }

    /// Instant `piece` (0…``pathPieces``) of row `v`'s exposure: its start to its end in equal
    /// steps, or the row's one instant without exposure.
    public func instant(row v: Int, piece: Int) -> Double {
        pathPieces == 0 ? rowTimes[v] : rowTimes[v] - exposure / 2 + exposure * Double(piece) / Double(pathPieces)
    }
}
