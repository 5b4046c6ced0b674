import MicroHTTP

/// ETags and `If-None-Match` → 304, shared by static files, pages and the JSON API.
enum ConditionalGet {
    /// A strong ETag from the body's FNV-1a 64-bit hash (fast; not a security function).
    static func etag(for body: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in body {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return "\"" + String(hash, radix: 16).leftPadded(to: 16) + "\""
    }

    /// True when `If-None-Match` lists `etag` (weak comparison, RFC 9110 §13.1.2) or is `*`.
    static func matches(ifNoneMatch header: String?, etag: String) -> Bool {
        guard let header else { return false }
        let bare = etag.hasPrefix("W/") ? String(etag.dropFirst(2)) : etag
        for candidate in header.split(separator: ",") {
            var tag = candidate.trimmingCharacters(in: .whitespaces)
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag = String(tag.dropFirst(2)) }
            if tag == bare { return true }
        }
        return false
    }

    /// Sets `ETag` and `Cache-Control` on a 200 response and turns it into a bodiless 304 when the
    /// request's `If-None-Match` matches.
    static func apply(to response: inout Response, request: Request, cacheControl: String) {
        guard response.status == 200 else { return }
        let tag = response.headers["ETag"] ?? etag(for: response.body)
        response.headers["ETag"] = tag
        response.headers["Cache-Control"] = cacheControl
        if matches(ifNoneMatch: request.headers["If-None-Match"], etag: tag) {
            response.status = 304
            response.body = []
            response.headers["Content-Type"] = nil
        }
    }
}

private extension Substring {
    func trimmingCharacters(in set: Set<Character>) -> String {
        String(self.drop(while: { set.contains($0) }).reversed().drop(while: { set.contains($0) }).reversed())
    }
}

private extension Set where Element == Character {
    static let whitespaces: Set<Character> = [" ", "\t"]
}
