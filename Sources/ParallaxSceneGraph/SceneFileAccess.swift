import Foundation
import ParallaxImaging

/// Which files a scene, mesh or material file may pull in by reference (glTF `uri`, OBJ
/// `mtllib`/`map_Kd`, a scene's `mesh`/`gltf`/`texture`).
///
/// A downloaded scene must not be able to read `/etc/passwd` as mesh data or a texture, so by
/// default a loader accepts only regular files inside the folder of the file it was asked to
/// load (symbolic links resolved first, so a link cannot lead out either).
public enum SceneFileAccess: Sendable, Equatable {
    /// Only regular files inside this folder (after resolving symbolic links).
    case inside(URL)
    /// Any regular file the process can read; for scenes the caller trusts.
    case anywhere

    /// The default for a file at `url`: its own folder.
    public static func folder(of url: URL) -> SceneFileAccess { .inside(url.deletingLastPathComponent()) }

    /// Resolves `reference` (as written in the file `name`, at `field`) against `base`, and
    /// throws a ``SceneError`` when it is absolute, escapes the allowed folder, is missing or is
    /// not a regular file; `what` names the kind of file in messages (`texture file`).
    func resolve(_ reference: String, relativeTo base: URL, file name: String, field: String,
                 what: String = "file") throws -> URL {
        guard !reference.isEmpty else { throw SceneError(file: name, field: field, "file reference is empty") }
        let url = URL(fileURLWithPath: reference, relativeTo: base).standardizedFileURL
        if case let .inside(folder) = self {
            guard !reference.hasPrefix("/") else {
                throw SceneError(file: name, field: field,
                                 "absolute path '\(reference)' is not allowed; scene files may reference only files inside their folder")
            }
            let root = folder.standardizedFileURL.resolvingSymlinksInPath().path
            let real = url.resolvingSymlinksInPath().path
            guard real.hasPrefix(root.hasSuffix("/") ? root : root + "/") else {
                throw SceneError(file: name, field: field,
                                 "'\(reference)' leads outside the scene folder \(root); scene files may reference only files inside it")
            }
        }
        if let problem = FileReadability.problem(url) {
            if problem == "no such file" {
                throw SceneError(file: name, field: field, "\(what) \(reference) not found (looked at \(url.path))")
            }
            throw SceneError(file: name, field: field, "cannot read \(what) \(reference) (\(url.path)): \(problem)")
        }
        return url
    }
}
