import Foundation

/// "Looks like an address" for contact e-mails (product-spec §2 email).
///
/// A practical check, not full RFC 5322: one `@`; a local part of letters, digits and `. _ % + - '`
/// not starting or ending with a dot; a domain of at least two dot-separated labels of letters,
/// digits and inner hyphens, the last one at least two letters. What passes can safely become a
/// `mailto:` link; quoted local parts and IP-literal domains are not worth that risk for a pet poster.
enum EmailRule {
    /// Whether `text` (already trimmed) looks like an e-mail address.
    static func looksLikeAddress(_ text: String) -> Bool {
        guard text.utf8.count <= 254 else { return false }
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return false }
        let local = parts[0]
        let domain = parts[1]
        guard (1...64).contains(local.count), local.first != ".", local.last != ".", !local.contains(".."),
              local.unicodeScalars.allSatisfy(isLocalScalar)
        else { return false }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, let topLevel = labels.last, topLevel.count >= 2,
              topLevel.allSatisfy(\.isLetter),
              labels.allSatisfy(isDomainLabel)
        else { return false }
        return true
    }

    private static func isLocalScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
            || [".", "_", "%", "+", "-", "'"].contains(scalar)
    }

    private static func isDomainLabel(_ label: Substring) -> Bool {
        guard (1...63).contains(label.count), label.first != "-", label.last != "-" else { return false }
        return label.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" }
    }
}
