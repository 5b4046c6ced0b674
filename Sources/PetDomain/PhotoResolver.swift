import Foundation

/// Turns an upstream `photoUrl` into a safe `Photo` or nothing (docs/upstream.md §2 "photoUrl").
public enum PhotoResolver {
    /// The path prefix our image proxy serves (docs/upstream.md §4 `GET /images/{path}`).
    public static let upstreamImagePrefix = "/images/"

    /// Resolves `raw`: absolute `http(s)` URLs are kept as given; `/images/…` paths become
    /// `.upstreamPath`; anything else (`javascript:`, `data:`, other paths, garbage) is no photo plus a
    /// warning for the log. Nothing given, or an empty string, is simply no photo, without a warning.
    public static func resolve(_ raw: String?) -> (photo: Photo?, warning: String?) {
        guard let text = TextNormalization.nonEmpty(raw) else { return (nil, nil) }
        // White space, control characters and quote-like bytes never belong in a URL we emit into
        // an attribute; refusing them keeps "kept as given" from meaning "kept broken". One
        // exception: a plain space in an `/images/` path names a file with a space in its name
        // (`/images/my cat.png`, which the upstream serves): our proxy URL encodes it.
        if hasForbiddenCharacter(text, allowingSpace: text.hasPrefix(upstreamImagePrefix)) {
            return (nil, "photoUrl has white space or control characters: '\(TextNormalization.excerpt(text))'")
        }
        if text.hasPrefix("/") {
            return resolvePath(text)
        }
        return resolveAbsolute(text)
    }

    private static func resolvePath(_ path: String) -> (photo: Photo?, warning: String?) {
        guard path.hasPrefix(upstreamImagePrefix), path.utf8.count > upstreamImagePrefix.utf8.count else {
            // The proxy only reaches the upstream's /images/, so another path could never load.
            return (nil, "photoUrl path outside /images/: '\(TextNormalization.excerpt(path))'")
        }
        // The path is a URL path, so its `%XX` are escapes: check both the raw and the decoded
        // form, so "%2e%2e" cannot smuggle in "..". Decoded, a name may hold a space or a quote
        // (`my%20cat.png` names a real file upstream): every URL we build encodes it again.
        var unsafe = isUnsafe(path, decoded: false)
        if !unsafe, path.utf8.contains(UInt8(ascii: "%")), let decoded = path.removingPercentEncoding, decoded != path {
            unsafe = isUnsafe(decoded, decoded: true)
        }
        if unsafe {
            return (nil, "photoUrl path is unsafe: '\(TextNormalization.excerpt(path))'")
        }
        return (.upstreamPath(path), nil)
    }

    /// Whether `path` climbs (`..`), doubles a slash, or holds a character that never belongs in it:
    /// raw, any of `hasForbiddenCharacter`'s but a space; decoded, only backslash and control characters.
    private static func isUnsafe(_ path: String, decoded: Bool) -> Bool {
        if containsPair(path, UInt8(ascii: "."), UInt8(ascii: ".")) || containsPair(path, UInt8(ascii: "/"), UInt8(ascii: "/")) {
            return true
        }
        guard decoded else { return hasForbiddenCharacter(path, allowingSpace: true) }
        return path.unicodeScalars.contains { scalar in
            scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\\"
        }
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

    /// Two adjacent bytes `first`, `second` somewhere in `text` (a byte search: no Foundation bridging).
    private static func containsPair(_ text: String, _ first: UInt8, _ second: UInt8) -> Bool {
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if previous == first, byte == second { return true }
            previous = byte
        }
        return false
    }

    private static func hasForbiddenCharacter(_ text: String, allowingSpace: Bool = false) -> Bool {
        // Byte scan first: ASCII-only URLs (nearly all) never touch the Unicode tables.
        var sawNonASCII = false
        for byte in text.utf8 {
            if byte >= 0x80 {
                sawNonASCII = true
            } else if isForbidden(Unicode.Scalar(byte)), !(allowingSpace && byte == UInt8(ascii: " ")) {
                return true
            }
        }
        return sawNonASCII && text.unicodeScalars.contains { isForbidden($0) && !(allowingSpace && $0 == " ") }
    }

    private static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            return scalar.value <= 0x20 || scalar.value == 0x7F || scalar == "\"" || scalar == "<" || scalar == ">"
                || scalar == "\\" || scalar == "`"
        }
        return (0x80...0x9F).contains(scalar.value) || scalar.properties.isWhitespace
    }
}
