import Foundation
import PetDomain

/// Upstream paths, built in one place (product-spec §1).
enum UpstreamPaths {
    /// `/api/v1/announcements` with `lat`/`lng` rounded to 4 decimals (about 11 m: also the cache key) and `range`.
    static func list(origin: Coordinate?, rangeKm: Int?) -> String {
        guard let origin else { return "/api/v1/announcements" }
        var path = "/api/v1/announcements?lat=\(fourDecimals(origin.latitude))&lng=\(fourDecimals(origin.longitude))"
        if let rangeKm { path += "&range=\(rangeKm)" }
        return path
    }

    /// `/api/v1/announcements/{id}` with the id percent-encoded.
    static func details(id: String) -> String {
        "/api/v1/announcements/" + encodeSegment(id)
    }

    /// `/images/<path>` when every segment is safe (no `..`, `.`, empty, backslash or control
    /// characters), each percent-encoded; nil otherwise, so the proxy can never leave `/images/`.
    static func image(_ path: String) -> String? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !segments.isEmpty, segments.allSatisfy({ segment in
            !segment.isEmpty && segment != "." && segment != ".." && !segment.contains("\\")
                && !segment.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
        }) else { return nil }
        return "/images/" + segments.map { encodeSegment(String($0)) }.joined(separator: "/")
    }

    /// Rounds to 4 decimals and prints without exponent, e.g. `52.2297`, `-0.1`.
    static func fourDecimals(_ value: Double) -> String {
        let rounded = (value * 10_000).rounded() / 10_000
        var text = String(format: "%.4f", rounded)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }

    private static func encodeSegment(_ segment: String) -> String {
        var result = ""
        for byte in segment.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                result += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return result
    }
}
