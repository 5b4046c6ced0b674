import Foundation
import HTTPTypes
import MicroHTTP

/// The photo route's credentials as the backend checks them (docs/demo-upstream-writes.md):
/// `basic-auth.ts` (401 for a missing or unreadable header), then `announcement-auth.ts` (404 for
/// an unknown id, 403 for a wrong password). Wrong passwords are never rate-limited, as upstream.
extension DemoBackend {
    /// Nil when `authorization` holds the management password of announcement `id`; else the refusal.
    func authorize(id: String, authorization: String?) -> WriteError? {
        guard let authorization else { return Self.unauthenticated("Authorization header is required") }
        // `authHeader.split(' ')`: the scheme, then the text up to the next space.
        let words = authorization.split(separator: " ", omittingEmptySubsequences: false)
        guard words.count >= 2, words[0].lowercased() == "basic", !words[1].isEmpty else {
            return Self.unauthenticated("Invalid Authorization header format")
        }
        // Node's base64 decoder skips characters outside the alphabet, reads the URL-safe one too and
        // tolerates missing padding.
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        let urlSafe = words[1].map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 }
        var text = String(urlSafe.filter { alphabet.contains($0) })
        if text.count % 4 == 1 { text.removeLast() }
        text += String(repeating: "=", count: (4 - text.count % 4) % 4)
        let decoded = Data(base64Encoded: text).map { String(decoding: $0, as: UTF8.self) } ?? ""
        guard let colon = decoded.firstIndex(of: ":") else {
            return Self.unauthenticated("Credentials must be in username:password format")
        }
        let password = String(decoded[decoded.index(after: colon)...])
        guard colon != decoded.startIndex, !password.isEmpty else {
            return Self.unauthenticated("Username and password cannot be empty")
        }
        switch store.access(id: id, password: password) {
        case .granted:
            return nil
        case .wrongPassword:
            return WriteError(status: 403, code: "UNAUTHORIZED", message: "Invalid credentials for this announcement")
        case .unknown:
            // A seeded row exists but no password of ours matches it.
            if rows.contains(where: { $0.id == id }) {
                return WriteError(status: 403, code: "UNAUTHORIZED", message: "Invalid credentials for this announcement")
            }
            return WriteError(status: 404, code: "NOT_FOUND", message: "Announcement with ID \(id) not found")
        }
    }

    private static func unauthenticated(_ message: String) -> WriteError {
        WriteError(status: 401, code: "UNAUTHENTICATED", message: message)
    }

    /// The `cors` package's answer to any OPTIONS request (it runs before the request-id middleware,
    /// so no `request-id` here): 204, every method allowed, the asked-for headers reflected.
    static func preflight(_ head: RequestHead) -> Response {
        var response = Response(status: .noContent)
        response.headers[.accessControlAllowOrigin] = "*"
        response.headers[.accessControlAllowMethods] = "GET,HEAD,PUT,PATCH,POST,DELETE"
        if let asked = head.headers[.accessControlRequestHeaders] {
            response.headers[.accessControlAllowHeaders] = asked
            response.headers[.vary] = "Access-Control-Request-Headers"
        }
        return response
    }
}
