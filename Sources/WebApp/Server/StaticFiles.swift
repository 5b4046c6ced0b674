import Foundation
import HTTPTypes
import MicroHTTP

/// The files of `Public/`, read once at startup and served from memory under `/static/`.
///
/// Serving only from a map of files found at startup makes traversal impossible by construction:
/// a request path is a key, never joined onto a folder. Symlinks that lead outside the folder and
/// dot-files are left out when the map is built.
struct StaticFiles: Sendable {
    /// One file ready to send.
    struct Asset: Sendable {
        let body: [UInt8]
        let contentType: String
        let etag: String
        /// Its gzip and br forms, made at startup with the highest levels (nil: not compressible).
        let compressed: CompressedForms?

        /// The file `name` (its extension gives the type) holding `body`.
        init(body: [UInt8], name: String) {
            self.body = body
            contentType = StaticFiles.contentType(forExtension: (name as NSString).pathExtension)
            etag = ConditionalGet.etag(for: body)
            compressed = StaticFiles.forms(of: body, contentType: contentType, etag: etag)
        }
    }

    /// Files by path relative to the folder, e.g. `css/site.css`.
    let assets: [String: Asset]

    /// Browsers revalidate after a day; the ETag makes that a cheap 304.
    static let cachePolicy = CachePolicy.lasting(seconds: 86400)

    /// Reads every regular file below `directory`; throws when the folder is missing.
    init(directory: String) throws(StartupError) {
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw StartupError(setting: "--public-dir / PETSPOT_PUBLIC_DIR", problem: "folder '\(directory)' does not exist")
        }
        let root = URL(fileURLWithPath: directory).standardizedFileURL.resolvingSymlinksInPath().path
        var assets: [String: Asset] = [:]
        for relative in (fileManager.subpaths(atPath: root) ?? []).sorted() {
            guard !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) else { continue }
            let full = URL(fileURLWithPath: root).appendingPathComponent(relative)
            let resolved = full.resolvingSymlinksInPath().path
            guard resolved.hasPrefix(root + "/") else { continue }  // a symlink leading outside
            var isFolder: ObjCBool = false
            guard fileManager.fileExists(atPath: resolved, isDirectory: &isFolder), !isFolder.boolValue,
                let data = fileManager.contents(atPath: resolved)
            else { continue }
            assets[relative] = Asset(body: [UInt8](data), name: relative)
        }
        self.assets = assets
    }

    /// These files and `more` (which win on a clash).
    func adding(_ more: [String: Asset]) -> StaticFiles {
        StaticFiles(assets: assets.merging(more) { _, new in new })
    }

    private init(assets: [String: Asset]) {
        self.assets = assets
    }

    /// The response for `/static/<path>`: the file (or 304), or nil when there is no such file.
    func response(for path: String, request: Request) -> Response? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !segments.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." || $0.contains("\\") }),
            let asset = assets[path]
        else { return nil }
        // Its `Cache-Control` is `cachePolicy`'s, written by the pipeline's header step (`AnswerHeaders`).
        return Response(status: 200, headers: [.contentType: asset.contentType, .eTag: asset.etag], body: asset.body)
    }

    /// The content type of a file extension; unknown ones are `application/octet-stream`.
    static func contentType(forExtension fileExtension: String) -> String {
        switch fileExtension.lowercased() {
        case "css": return "text/css; charset=utf-8"
        case "js", "mjs": return "text/javascript; charset=utf-8"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "webp": return "image/webp"
        case "gif": return "image/gif"
        case "ico": return "image/x-icon"
        case "woff2": return "font/woff2"
        case "json": return "application/json; charset=utf-8"
        case "webmanifest": return "application/manifest+json; charset=utf-8"
        case "txt": return "text/plain; charset=utf-8"
        default: return "application/octet-stream"
        }
    }
}

/// A startup failure naming the setting or file at fault (docs/style.md "Fail fast at startup").
public struct StartupError: Error, CustomStringConvertible {
    /// The setting, e.g. `--templates-dir / PETSPOT_TEMPLATES_DIR`.
    public let setting: String
    /// What is wrong.
    public let problem: String

    public var description: String { "cannot start: \(setting): \(problem)" }
}
