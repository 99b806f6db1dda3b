import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A folder of simulated datasets, each made once and reused by later runs (the tests' cache,
/// `PARALLAX_SIM_CACHE`).
///
/// Several tests of one process, and several processes, may ask for the same dataset at once.
/// A lock file per dataset (`flock`, which also separates two opens within one process) makes the
/// second caller wait for the first and reuse its result instead of rendering the same frames
/// again. Each dataset is written to a private folder and renamed into place only when complete,
/// so an interrupted run never leaves half a dataset under the final name.
public struct SimulationCache: Sendable {
    /// The cache folder.
    public let folder: URL

    /// A cache in `folder` (created when missing).
    public init(folder: URL) {
        self.folder = folder
    }

    /// The dataset `name`, made by `make` (which writes a complete dataset into the folder it is
    /// given) unless `isComplete` already holds for the cached folder.
    public func dataset(named name: String, isComplete: (URL) -> Bool = SimulationCache.hasCameraList,
                        make: (URL) throws -> Void) throws -> URL {
        let target = folder.appendingPathComponent(name)
        if isComplete(target) { return target }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let lockPath = folder.appendingPathComponent(name + ".lock").path
        let fd = open(lockPath, O_CREAT | O_RDWR, 0o644)
        guard fd >= 0 else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: lockPath]) }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw CocoaError(.fileLocking, userInfo: [NSFilePathErrorKey: lockPath]) }
        }
        defer { flock(fd, LOCK_UN) }
        // Whoever held the lock before may have made it.
        if isComplete(target) { return target }
        let partial = folder.appendingPathComponent(name + ".partial-\(getpid())-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: partial) }
        try make(partial)
        try? FileManager.default.removeItem(at: target)  // an incomplete leftover
        try FileManager.default.moveItem(at: partial, to: target)
        return target
    }

    /// True when `url` holds `mav0/cam0/data.csv` (only complete datasets get the final name).
    public static func hasCameraList(_ url: URL) -> Bool {
        FileManager.default.fileExists(atPath: url.appendingPathComponent("mav0/cam0/data.csv").path)
    }
}
