import Foundation
import HTTPTypes
import PetAPIClient

/// The tile server as a small client value (docs/style.md "Wrap each external system"): the live one
/// fills a URL template (`--tile-url`) and calls it over the same AsyncHTTPClient transport as the
/// upstream; tests pass a stub server's template.
struct TileSource: Sendable {
    /// GETs one tile; conditional when `validators` (an earlier answer's ETag/Last-Modified) are given.
    var fetch: @Sendable (_ tile: TileAddress, _ validators: PhotoValidators?) async throws(UpstreamFailure) -> UpstreamResponse
    /// Releases the connections; called once at shutdown.
    var shutdown: @Sendable () async -> Void

    /// The largest tile accepted (`Limits.tileBytes`).
    static let maxTileBytes = Limits.tileBytes

    /// The User-Agent the OpenStreetMap tile usage policy asks for: the application and a way to
    /// reach whoever runs it.
    static func userAgent(contact: String) -> String {
        "PetSpot-Web/1.0 (+\(contact))"
    }

    /// Where the template's origin ends and its path (with `{z}`, `{x}`, `{y}`) starts: the
    /// transport keeps connections per origin.
    static func split(template: String) -> (origin: URL, path: String)? {
        guard let schemeEnd = template.range(of: "://") else { return nil }
        let pathStart = template[schemeEnd.upperBound...].firstIndex(of: "/") ?? template.endIndex
        guard let origin = URL(string: String(template[..<pathStart])), origin.host?.isEmpty == false else { return nil }
        return (origin, String(template[pathStart...]))
    }

    /// The live source for `template` (checked by the configuration: absolute http(s) with all
    /// three placeholders); nil when it cannot be split into origin and path.
    static func live(template: String, contact: String, timeout: Duration) -> TileSource? {
        guard let (origin, pathTemplate) = split(template: template) else { return nil }
        let transport = UpstreamTransport.live(baseURL: origin)
        let agent = userAgent(contact: contact)
        return TileSource(
            fetch: { (tile: TileAddress, validators: PhotoValidators?) async throws(UpstreamFailure) -> UpstreamResponse in
                var headers: HTTPFields = [.userAgent: agent]
                if let etag = validators?.etag { headers[.ifNoneMatch] = etag }
                if let lastModified = validators?.lastModified { headers[.ifModifiedSince] = lastModified }
                return try await transport.get(
                    UpstreamRequest(
                        pathAndQuery: tile.url(template: pathTemplate),
                        headers: headers,
                        timeout: timeout,
                        maxBodyBytes: maxTileBytes
                    )
                )
            },
            shutdown: transport.shutdown
        )
    }
}
