import HTTPTypes
import MicroHTTP

/// Headers every response carries: a CSP without 'unsafe-inline' (all CSS and JS are
/// files under Public/), no MIME sniffing, a strict referrer policy, geolocation for this origin
/// only (the location flow of docs/upstream.md §4), and no framing.
enum SecurityHeaders {
    /// The Content-Security-Policy. Photos may be absolute http(s) URLs (docs/upstream.md §2 photoUrl).
    static let contentSecurityPolicy = [
        "default-src 'self'",
        "img-src 'self' https: http:",
        "script-src 'self'",
        "style-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ].joined(separator: "; ")

    /// The headers, in a stable order.
    static let all: [HTTPField] = [
        HTTPField(name: .contentSecurityPolicy, value: contentSecurityPolicy),
        HTTPField(name: .xContentTypeOptions, value: "nosniff"),
        HTTPField(name: .referrerPolicy, value: "strict-origin-when-cross-origin"),
        HTTPField(name: .permissionsPolicy, value: "geolocation=(self), camera=(), microphone=(), payment=()"),
        HTTPField(name: .xFrameOptions, value: "DENY"),
        HTTPField(name: .crossOriginOpenerPolicy, value: "same-origin"),
    ]

    /// Adds every security header that the response does not set itself.
    static func apply(to response: inout Response) {
        // Kept pages carry them already (added once when kept); X-Frame-Options is only ever set
        // here, so its presence means all of them are: one lookup instead of six per request.
        guard response.headers.value(.xFrameOptions) == nil else { return }
        for field in all where response.headers.value(field.name) == nil {
            response.headers.append(field)
        }
    }
}

extension HTTPField.Name {
    // The security fields swift-http-types does not name itself.
    static let referrerPolicy = Self("Referrer-Policy")!
    static let permissionsPolicy = Self("Permissions-Policy")!
    static let xFrameOptions = Self("X-Frame-Options")!
    static let crossOriginOpenerPolicy = Self("Cross-Origin-Opener-Policy")!
}
