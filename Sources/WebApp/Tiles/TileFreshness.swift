import Foundation
import HTTPTypes

/// How long a shared cache may keep a tile, from the tile server's own header fields (RFC 9111),
/// as the OpenStreetMap tile usage policy asks (docs/platform.md "Map").
enum TileFreshness: Equatable, Sendable {
    /// `no-store` or `private`: never kept by a shared cache like ours.
    case doNotKeep
    /// Fresh this many seconds after it was received (0 for `no-cache`: kept, revalidated each time).
    case seconds(Double)

    /// Seconds kept when the server says nothing about freshness: a week, what the OpenStreetMap
    /// policy names as the least a client should cache tiles for.
    static let defaultSeconds: Double = 7 * 86_400
    /// The longest we keep a tile without asking again, whatever the server says.
    static let maxSeconds: Double = 30 * 86_400

    /// The freshness of an answer with `headers`, received at `now`. `s-maxage` (meant for shared
    /// caches) wins over `max-age`, which wins over `Expires` − `Date`.
    init(headers: HTTPFields, now: Date) {
        var maxAge: Double?
        var sharedMaxAge: Double?
        var revalidateAlways = false
        for directive in (headers[values: .cacheControl].joined(separator: ",")).split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let name = parts.first else { continue }
            let value = parts.count > 1 ? Double(parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))) : nil
            switch name {
            case "no-store", "private":
                self = .doNotKeep
                return
            case "no-cache": revalidateAlways = true
            case "max-age": maxAge = value.map { max(0, $0) } ?? 0
            case "s-maxage": sharedMaxAge = value.map { max(0, $0) } ?? 0
            default: break
            }
        }
        if revalidateAlways {
            self = .seconds(0)
        } else if let seconds = sharedMaxAge ?? maxAge {
            self = .seconds(min(seconds, TileFreshness.maxSeconds))
        } else if let expiresText = headers[.expires] {
            // An invalid `Expires` (such as `0`) means "already expired" (RFC 9111 §5.3).
            guard let expires = TileFreshness.httpDate(expiresText) else {
                self = .seconds(0)
                return
            }
            // Judged against the server's own clock when it sent one, so clock skew does not count.
            let sent = headers[.date].flatMap(TileFreshness.httpDate) ?? now
            self = .seconds(min(max(0, expires.timeIntervalSince(sent)), TileFreshness.maxSeconds))
        } else {
            self = .seconds(TileFreshness.defaultSeconds)
        }
    }

    /// An IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`); nil for anything else.
    static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text.trimmingCharacters(in: .whitespaces))
    }
}
