import Foundation
import HTTPTypes
import MicroHTTP

/// Who sent a request, for the report limits, and whether a write comes from our own pages.
struct ClientIdentity: Sendable {
    /// Reverse proxies whose `X-Forwarded-For` is believed (`--trusted-proxies`).
    let trustedProxies: Set<String>
    /// Our public origin, e.g. `https://petspot.example` (from the public base URL).
    let publicOrigin: String

    init(configuration: AppConfiguration) {
        trustedProxies = Set(configuration.trustedProxies)
        let base = configuration.effectivePublicBaseURL
        // scheme://host[:port] of the base URL: an Origin header never carries a path.
        if let url = URL(string: base), let scheme = url.scheme, let host = url.host {
            let shownHost = host.contains(":") ? "[\(host)]" : host
            publicOrigin = "\(scheme)://\(shownHost)" + (url.port.map { ":\($0)" } ?? "")
        } else {
            publicOrigin = base
        }
    }

    /// The client's address: the peer's, or — when the peer is a trusted proxy — the last address
    /// in `X-Forwarded-For` that is not a trusted proxy (each proxy appends the one it saw).
    func address(peer: String?, headers: HTTPFields) -> String {
        let peer = peer ?? "unknown"
        guard trustedProxies.contains(peer) else { return peer }
        let forwarded = headers[values: .xForwardedFor].flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return forwarded.last { !trustedProxies.contains($0) } ?? peer
    }

    /// True when a browser tells us the request comes from another site: `Sec-Fetch-Site:
    /// cross-site`, or an `Origin` that is neither our public origin nor the origin of the `Host`
    /// the request was sent to. A request without either header (a mobile app, curl) is not
    /// cross-site: a browser always sends `Origin` with a form POST.
    func isCrossSite(headers: HTTPFields, authority: String?) -> Bool {
        if headers[.secFetchSite]?.lowercased() == "cross-site" { return true }
        guard let origin = headers[.origin] else { return false }
        if origin == publicOrigin { return false }
        if let authority, origin == "http://" + authority || origin == "https://" + authority { return false }
        return true
    }
}

extension HTTPField.Name {
    /// `X-Forwarded-For`: the client address a reverse proxy saw.
    static let xForwardedFor = Self("X-Forwarded-For")!
    /// `Sec-Fetch-Site`: where a browser says a request comes from.
    static let secFetchSite = Self("Sec-Fetch-Site")!
}
