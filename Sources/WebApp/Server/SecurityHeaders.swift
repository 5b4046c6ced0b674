import MicroHTTP

/// Headers every response carries (issue 2): a CSP without 'unsafe-inline' (all CSS and JS are
/// files under Public/), no MIME sniffing, a strict referrer policy, geolocation for this origin
/// only (the location flow of product-spec §4), and no framing.
enum SecurityHeaders {
    /// The Content-Security-Policy. Photos may be absolute http(s) URLs (product-spec §2 photoUrl).
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
    static let all: [(String, String)] = [
        ("Content-Security-Policy", contentSecurityPolicy),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "strict-origin-when-cross-origin"),
        ("Permissions-Policy", "geolocation=(self), camera=(), microphone=(), payment=()"),
        ("X-Frame-Options", "DENY"),
        ("Cross-Origin-Opener-Policy", "same-origin"),
    ]

    /// Adds every security header that the response does not set itself.
    static func apply(to response: inout Response) {
        // Kept pages carry them already (added once when kept); X-Frame-Options is only ever set
        // here, so its presence means all of them are: one lookup instead of six per request.
        guard response.headers["X-Frame-Options"] == nil else { return }
        for (name, value) in all where response.headers[name] == nil {
            response.headers[name] = value
        }
    }
}
