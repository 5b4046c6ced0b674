import Foundation

/// "Looks like an address" for contact e-mails (docs/upstream.md §2 email).
///
/// A practical check, not full RFC 5322: one `@`; a local part of letters, digits and `. _ % + - '`
/// not starting or ending with a dot and without `..`; a domain of at least two dot-separated labels
/// of letters, digits and inner hyphens, the last one at least two letters. What passes can safely
/// become a `mailto:` link; quoted local parts and IP-literal domains are not worth that risk here.
/// Letters may be non-ASCII (`zofia@żółć.pl`).
public enum EmailRule {
    /// Whether `text` (already trimmed) looks like an e-mail address.
    public static func looksLikeAddress(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        guard text.utf8.count <= 254,
            let at = scalars.firstIndex(of: "@"), scalars.lastIndex(of: "@") == at
        else { return false }
        let local = scalars[..<at]
        let domain = scalars[(at + 1)...]
        guard (1...64).contains(local.count), local.first != ".", local.last != ".",
            !hasDoubleDot(local), local.allSatisfy(isLocalScalar)
        else { return false }

        var labelCount = 0
        var labelStart = domain.startIndex
        for index in domain.indices where domain[index] == "." {
            guard isDomainLabel(domain[labelStart..<index]) else { return false }
            labelCount += 1
            labelStart = index + 1
        }
        let topLevel = domain[labelStart...]
        guard isDomainLabel(topLevel), labelCount >= 1, topLevel.count >= 2,
            topLevel.allSatisfy(isLetter)
        else { return false }
        return true
    }

    private static func hasDoubleDot(_ scalars: ArraySlice<Unicode.Scalar>) -> Bool {
        zip(scalars, scalars.dropFirst()).contains { $0 == "." && $1 == "." }
    }

    private static func isLocalScalar(_ scalar: Unicode.Scalar) -> Bool {
        isLetter(scalar) || ("0"..."9").contains(scalar) || [".", "_", "%", "+", "-", "'"].contains(scalar)
    }

    private static func isDomainLabel(_ label: ArraySlice<Unicode.Scalar>) -> Bool {
        guard (1...63).contains(label.count), label.first != "-", label.last != "-" else { return false }
        return label.allSatisfy { isLetter($0) || ("0"..."9").contains($0) || $0 == "-" }
    }

    /// A letter; ASCII is decided without the (slow) Unicode property tables.
    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) }
        return scalar.properties.isAlphabetic
    }
}
