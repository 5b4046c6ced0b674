import Crypto
import Foundation

/// The secrets of alert links and the hash addresses are kept under (docs/alerts.md "Privacy"). A token is
/// 128 random bits shown once, in a mail's link; stores keep only its SHA-256, so a copy of the store
/// lets no one confirm, manage or stop a subscription.
public enum AlertTokens {
    /// A new token: 16 random bytes as 32 lowercase hex digits (URL-safe as it is).
    public static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return hex((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// A new random id (32 hex digits) for a subscription or an outbox row.
    public static func newID() -> String { make() }

    /// The hash a store keeps of `token`.
    public static func digest(_ token: String) -> [UInt8] { Array(SHA256.hash(data: Array(token.utf8))) }

    /// Whether `text` has a token's shape (what a link can carry); anything else is refused before a look-up.
    public static func isWellFormed(_ text: String) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// The hash of an address, the key of everything kept per address (suppression, the confirmation limit):
    /// SHA-256 of the trimmed, lowercased address.
    public static func addressHash(_ email: String) -> [UInt8] {
        Array(SHA256.hash(data: Array(email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased().utf8)))
    }

    /// Lowercase hex of `bytes`.
    public static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
