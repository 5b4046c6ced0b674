import Foundation
import PetDomain
/// Building query strings for links (application/x-www-form-urlencoded, UTF-8).
enum QueryString {
    /// `path?name=value&…`, leaving out empty values; just `path` when nothing is left.
    static func url(_ path: String, _ items: [(String, String?)]) -> String {
        let parts = items.compactMap { name, value -> String? in
            guard let value, !value.isEmpty else { return nil }
            return "\(encode(name))=\(encode(value))"
        }
        return parts.isEmpty ? path : path + "?" + parts.joined(separator: "&")
    }

    /// Percent-encodes a query name or value (see `URLText.encodeComponent`).
    static func encode(_ text: String) -> String { URLText.encodeComponent(text) }
}

extension VisitorLocation {
    /// The query items that carry the location into links: `lat`, `lng` (4 decimals) and an explicit
    /// `range`. `location=denied` is never carried, so the banner shows once (product-spec §4).
    var linkItems: [(String, String?)] {
        guard let origin else { return [] }
        return [
            ("lat", VisitorLocation.fourDecimals(origin.latitude)),
            ("lng", VisitorLocation.fourDecimals(origin.longitude)),
            ("range", rangeGiven ? rangeKm.map(String.init) : nil),
        ]
    }

    /// A coordinate rounded to 4 decimals without trailing zeros, e.g. `52.2297`.
    static func fourDecimals(_ value: Double) -> String { URLText.fourDecimals(value) }
}
