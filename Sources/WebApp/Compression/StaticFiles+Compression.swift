import HTTPTypes
import MicroHTTP

extension StaticFiles {
    /// The answer for `/static/<path>` with the file's forms beside it (see `response(for:request:)`).
    func reply(for path: String, request: Request) -> Reply? {
        response(for: path, request: request).map { Reply($0, cache: StaticFiles.cachePolicy, forms: assets[path]?.compressed) }
    }

    /// The gzip and br forms of a file's `body` at the thorough level; nil when not compressible.
    static func forms(of body: [UInt8], contentType: String, etag: String) -> CompressedForms? {
        let probe = Response(status: .ok, headers: [.contentType: contentType], body: body)
        guard BodyCompression.isCompressible(probe, cache: StaticFiles.cachePolicy) else { return nil }
        return BodyCompression.forms(of: body, level: BodyCompression.policy.thorough)
    }
}
