import Foundation

/// Turns an upstream `photoUrl` into a safe `Photo` or nothing (product-spec §2 "photoUrl").
public enum PhotoResolver {
    /// The path prefix our image proxy serves (product-spec §4 `GET /images/{path}`).
    public static let upstreamImagePrefix = "/images/"

    /// Resolves `raw`: absolute `http(s)` URLs are kept as given; `/images/…` paths become
    /// `.upstreamPath`; anything else (`javascript:`, `data:`, other paths, garbage) is no photo plus a
    /// warning for the log. Nothing given, or an empty string, is simply no photo, without a warning.
    public static func resolve(_ raw: String?) -> (photo: Photo?, warning: String?) {
        guard let text = TextNormalization.nonEmpty(raw) else { return (nil, nil) }
        // White space, control characters and quote-like bytes never belong in a URL we emit into
        // an attribute; refusing them keeps "kept as given" from meaning "kept broken".
        if text.unicodeScalars.contains(where: isForbidden) {
            return (nil, "photoUrl has white space or control characters: '\(TextNormalization.excerpt(text))'")
        }
        if text.hasPrefix("/") {
            return resolvePath(text)
        }
        return resolveAbsolute(text)
    }

    private static func resolvePath(_ path: String) -> (photo: Photo?, warning: String?) {
        guard path.hasPrefix(upstreamImagePrefix), path.count > upstreamImagePrefix.count else {
            // The proxy only reaches the upstream's /images/, so another path could never load.
            return (nil, "photoUrl path outside /images/: '\(TextNormalization.excerpt(path))'")
        }
        // Check both the raw and the percent-decoded form, so "%2e%2e" cannot smuggle in "..".
        let decoded = path.removingPercentEncoding ?? path
        for candidate in [path, decoded] {
            if candidate.contains("..") || candidate.contains("//") || candidate.contains("\\")
                || candidate.unicodeScalars.contains(where: isForbidden) {
                return (nil, "photoUrl path is unsafe: '\(TextNormalization.excerpt(path))'")
            }
        }
        return (.upstreamPath(path), nil)
    }

    private static func resolveAbsolute(_ text: String) -> (photo: Photo?, warning: String?) {
        let lower = text.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else {
            let scheme = text.split(separator: ":", maxSplits: 1).first.map(String.init) ?? text
            return (nil, "photoUrl is not http(s) or an /images/ path: '\(TextNormalization.excerpt(scheme, limit: 20))…'")
        }
        guard let url = URL(string: text), let host = url.host, !host.isEmpty,
              url.absoluteString == text
        else {
            return (nil, "photoUrl is not a valid URL: '\(TextNormalization.excerpt(text))'")
        }
        return (.absolute(url), nil)
    }

    private static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace || scalar.value < 0x20 || scalar.value == 0x7F
            || (0x80...0x9F).contains(scalar.value) || scalar == "\"" || scalar == "<" || scalar == ">"
            || scalar == "\\" || scalar == "`"
    }
}
