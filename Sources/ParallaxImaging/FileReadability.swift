import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Plain-words reasons why a file cannot be read, shared by every reader of user files
/// (datasets, scenes, images), so users see "no such file" rather than Foundation's
/// `The operation could not be completed. (NSCocoaErrorDomain error 260.)`.
public enum FileReadability {
    /// Why `url` cannot be read as a regular file: `no such file`, `permission denied`,
    /// `is a directory` or `not a regular file`; nil when it looks readable.
    public static func problem(_ url: URL) -> String? {
        var info = stat()
        guard stat(url.path, &info) == 0 else {
            switch errno {
            case ENOENT, ENOTDIR: return "no such file"
            case EACCES: return "permission denied"
            default: return String(cString: strerror(errno))
            }
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: return "is a directory"
        default: return "not a regular file"
        }
        guard access(url.path, R_OK) == 0 else { return "permission denied" }
        return nil
    }

    /// `problem(url)` when there is one, else a plain description of `error` (its POSIX cause
    /// where Foundation wraps one).
    public static func describe(_ error: Error, reading url: URL) -> String {
        if let p = problem(url) { return p }
        return plain(error)
    }

    /// Why writing `url` failed, in plain words: its folder is missing, is not a folder or is not
    /// writable, it is itself a folder, or `error`'s POSIX cause (never Foundation's
    /// `NSCocoaErrorDomain error 512`/`4` text when a cause can be found).
    public static func describe(_ error: Error, writing url: URL) -> String {
        let folder = url.deletingLastPathComponent()
        var info = stat()
        if stat(folder.path, &info) != 0 { return errno == EACCES ? "permission denied" : "folder \(folder.path) does not exist" }
        if info.st_mode & S_IFMT != S_IFDIR { return "\(folder.path) is not a folder" }
        if access(folder.path, W_OK) != 0 { return "permission denied on folder \(folder.path)" }
        if stat(url.path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { return "is a directory" }
        return plain(error)
    }

    /// `error`'s POSIX cause where Foundation wraps one, else its description.
    private static func plain(_ error: Error) -> String {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if ns.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(ns.code))) }
        if ns.domain == NSCocoaErrorDomain, ns.code == NSFileReadInapplicableStringEncodingError {
            return "not valid UTF-8 text"
        }
        return ns.localizedDescription
    }
}
