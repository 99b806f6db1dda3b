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
