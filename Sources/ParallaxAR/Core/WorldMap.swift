import Foundation
import ParallaxMapping
import ParallaxMath

/// A saved world map (`ARWorldMap`): the keyframes and map points a session built, where its AR
/// world lies, and the user's anchors. Give it to ``WorldTrackingConfiguration/initialWorldMap``
/// to relocalize a later session in the same world; save it with ``write(to:)``.
public struct WorldMap: Sendable, Equatable {
    /// The file contents (keyframes in the map world, `T_A_W`, anchors).
    public var archive: MapArchive

    /// Wraps an archive.
    public init(archive: MapArchive) { self.archive = archive }

    /// Reads a map file.
    /// - Throws: ``MapFileError`` for a damaged, truncated or foreign file (the message names the
    ///   file and the part), or the file system's error.
    public init(contentsOf url: URL) throws {
        let data = try Data(contentsOf: url)
        do {
            archive = try MapFile.decode([UInt8](data))
        } catch let error as MapFileError {
            throw MapFileError("\(url.path): \(error.description)")
        }
    }

    /// Writes the map file (format in docs/world-maps.md).
    public func write(to url: URL) throws { try Data(MapFile.encode(archive)).write(to: url, options: .atomic) }

    /// The user anchors saved with the map (`ARWorldMap.anchors`).
    public var anchors: [WorldAnchor] {
        archive.anchors.map { WorldAnchor(identifier: $0.identifier, name: $0.name, transform: $0.transform) }
    }

    /// Map points over all keyframes, in the AR world (`ARWorldMap.rawFeaturePoints`).
    public var rawFeaturePoints: PointCloud {
        let points = archive.keyframes.keyframes.flatMap(\.points)
        return PointCloud(points: points.map { archive.T_A_W * $0.position_world },
                          identifiers: points.map { UInt64(bitPattern: Int64($0.featureID)) })
    }

    /// Number of keyframes.
    public var keyframeCount: Int { archive.keyframes.keyframes.count }
}

/// Why ``Session/getCurrentWorldMap()`` has no map to give.
public struct WorldMapUnavailable: Error, CustomStringConvertible {
    /// The reason.
    public let description: String
}
