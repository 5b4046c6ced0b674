import HTTPTypes
import MicroHTTP

extension StaticFiles {
    /// The gzip and br forms of a file's `body` at the startup levels; nil when not compressible.
    static func forms(of body: [UInt8], contentType: String, etag: String) -> CompressedForms? {
        let probe = Response(status: .ok, headers: [.contentType: contentType], body: body)
        guard BodyCompression.isCompressible(probe) else { return nil }
        return BodyCompression.forms(of: body, effort: .startup)
    }
}
