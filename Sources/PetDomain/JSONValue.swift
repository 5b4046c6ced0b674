import Foundation

/// A parsed JSON document, kept close to the wire so the tolerant rules of docs/upstream.md §1–§2 can
/// look at what the upstream actually sent.
///
/// Numbers keep their source text: an id such as `12345678901234567890` or a microchip sent as a
/// number must not lose digits through `Double`, and `17` vs `17.5` decides "integer or not".
enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, as its exact JSON source text (e.g. `"17"`, `"-0.5e3"`).
    case number(String)
    /// A string, unescaped.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object's members in source order; with repeated keys the last one wins, as in JavaScript
    /// (the upstream is Node). An array, not a dictionary: for ~20 keys a scan is cheaper than
    /// hashing every key of every item (measured with `domain-benchmark`, docs/performance.md).
    case object([JSONMember])
}

/// One `"key": value` member of a JSON object.
struct JSONMember: Sendable, Hashable {
    /// The key, unescaped.
    let key: String
    /// The value.
    let value: JSONValue
}

extension JSONValue {
    /// The value under `key` when this is an object; `nil` for an absent key, `.null` kept as is.
    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        // Comparing UTF-8 lengths first skips most keys without a full string comparison.
        let length = key.utf8.count
        for member in members.reversed() where member.key.utf8.count == length && member.key == key {
            return member.value
        }
        return nil
    }

    /// Whether this is JSON `null`.
    var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// Text of a string or number (numbers where strings are expected are tolerated, docs/upstream.md §1),
    /// trimmed; `nil` when empty, `null`, or another kind (docs/upstream.md §2: empty optional → nil).
    var text: String? {
        switch self {
        case .string(let raw):
            let trimmed = TextNormalization.trimmed(raw)
            return trimmed.isEmpty ? nil : trimmed
        case .number(let lexeme):
            return lexeme
        default:
            return nil
        }
    }

    /// A finite `Double` from a number, or from a string holding a plain decimal number
    /// (tolerated: some exports quote coordinates, e.g. `"52.1"`).
    var double: Double? {
        switch self {
        case .number(let lexeme):
            return Double(lexeme).flatMap { $0.isFinite ? $0 : nil }
        case .string(let raw):
            let trimmed = TextNormalization.trimmed(raw)
            guard JSONValue.isDecimalNumber(trimmed) else { return nil }
            return Double(trimmed).flatMap { $0.isFinite ? $0 : nil }
        default:
            return nil
        }
    }

    /// An `Int` from an integral number (`5`, `5.0`) or a string holding one (`"5"`); `nil` otherwise.
    var integer: Int? {
        guard let value = double, value.rounded(.towardZero) == value,
            value >= Double(Int.min), value < Double(Int.max)
        else { return nil }
        return Int(value)
    }

    /// Whether `text` is a plain decimal number: optional sign, digits, optional fraction.
    /// Deliberately stricter than `Double(_:)`, which would also accept `"nan"`, `"inf"` or `"0x1p3"`.
    static func isDecimalNumber(_ text: String) -> Bool {
        var digits = 0
        var seenDot = false
        for (index, byte) in text.utf8.enumerated() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                digits += 1
            case UInt8(ascii: "-"), UInt8(ascii: "+"):
                guard index == 0 else { return false }
            case UInt8(ascii: "."):
                guard !seenDot else { return false }
                seenDot = true
            default:
                return false
            }
        }
        return digits > 0
    }
}
