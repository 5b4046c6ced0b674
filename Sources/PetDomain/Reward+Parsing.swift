import Foundation

extension Reward {
    /// Currency symbols recognised before or after an amount ("$300", "300 €").
    private static let symbols: Set<Character> = ["$", "€", "£", "¥", "₽", "₴", "₹", "¢"]

    /// Reads a reward from a JSON number (dialect C, `500`) or text with at most one currency on
    /// either side (`500 PLN`, `PLN 1,500.50`, `$300`, `300zł`). Nil when the text holds anything
    /// else, or when the amount is not > 0 (docs/upstream.md §2: dropped with a warning by the caller).
    init?(upstream value: JSONValue) {
        switch value {
        case .number(let lexeme):
            // `value.double` is finite or nil: `Decimal(Double.infinity)` traps, and `1e400` is a
            // valid JSON number that reads as infinity (found by fuzzing).
            guard let amount = Reward.decimal(fromPlainNumber: lexeme) ?? value.double.map({ Decimal($0) })
            else { return nil }
            self.init(amount: amount, currency: nil)
        case .string(let raw):
            guard let (amount, currency) = Reward.split(TextNormalization.trimmed(raw)) else { return nil }
            self.init(amount: amount, currency: currency)
        default:
            return nil
        }
    }

    /// A reward's free text: a string that holds no amount the parser reads, trimmed and non-empty
    /// ("A big hug and a box of chocolates"); nil for numbers and for text that reads as an amount (a
    /// zero or negative one such as "0 PLN" is no reward, not a note).
    static func freeText(_ value: JSONValue) -> String? {
        guard case .string(let raw) = value, let text = TextNormalization.nonEmpty(raw), split(text) == nil else { return nil }
        return text
    }

    /// Splits "PLN 1,500.50" into (1500.5, "PLN"); nil unless the text is exactly number + optional currency.
    private static func split(_ text: String) -> (Decimal, String?)? {
        // Unicode scalars, not Characters: no grapheme breaking needed to find ASCII digits.
        let scalars = text.unicodeScalars
        let isNumberScalar: (Unicode.Scalar) -> Bool = { ("0"..."9").contains($0) || $0 == "." || $0 == "," }
        guard let firstDigit = scalars.firstIndex(where: isNumberScalar),
            let lastDigit = scalars.lastIndex(where: isNumberScalar)
        else { return nil }
        let numberText = String(scalars[firstDigit...lastDigit])
        let leading = TextNormalization.trimmed(String(scalars[..<firstDigit]))
        let trailing = TextNormalization.trimmed(String(scalars[scalars.index(after: lastDigit)...]))
        guard leading.isEmpty || trailing.isEmpty,
            let amount = amount(fromGrouped: numberText)
        else { return nil }
        let currency = leading.isEmpty ? trailing : leading
        guard currency.isEmpty || isCurrency(currency) else { return nil }
        return (amount, currency.isEmpty ? nil : currency)
    }

    /// A currency is one known symbol, or one short word of letters ("PLN", "zł", "EUR", "USD").
    private static func isCurrency(_ text: String) -> Bool {
        if text.count == 1, let character = text.first, symbols.contains(character) { return true }
        return (1...4).contains(text.count) && text.allSatisfy(\.isLetter)
    }

    /// "1,500.50" → 1500.5 (commas group thousands: groups of exactly three digits); "12,50" → 12.5
    /// (a single comma followed by one or two digits is a decimal comma); anything else → nil.
    private static func amount(fromGrouped text: String) -> Decimal? {
        let commaCount = text.count(where: { $0 == "," })
        if commaCount == 0 { return decimal(fromPlainNumber: text) }
        if commaCount == 1, !text.contains("."), let comma = text.firstIndex(of: ","),
            (1...2).contains(text.distance(from: comma, to: text.endIndex) - 1)
        {
            return decimal(fromPlainNumber: text.replacingOccurrences(of: ",", with: "."))
        }
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        // "1.500,50" (dot grouping) is ambiguous with "1.5": only comma grouping is understood.
        guard parts.count == 1 || !parts[1].contains(",") else { return nil }
        let groups = parts[0].split(separator: ",", omittingEmptySubsequences: false)
        guard let head = groups.first, (1...3).contains(head.count),
            groups.dropFirst().allSatisfy({ $0.count == 3 })
        else { return nil }
        return decimal(fromPlainNumber: text.replacingOccurrences(of: ",", with: ""))
    }

    /// Exact `Decimal` from ASCII digits with at most one dot ("1500.50"); no exponent, no sign, at
    /// most 18 significant digits (a longer "reward" is not money).
    static func decimal(fromPlainNumber text: String) -> Decimal? {
        var significand: UInt64 = 0
        var exponent = 0
        var digits = 0
        var seenDot = false
        for byte in text.utf8 {
            if byte == UInt8(ascii: ".") {
                guard !seenDot else { return nil }
                seenDot = true
                continue
            }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            digits += 1
            guard digits <= 18 else { return nil }
            significand = significand * 10 + UInt64(byte - UInt8(ascii: "0"))
            if seenDot { exponent -= 1 }
        }
        guard digits > 0 else { return nil }
        return Decimal(sign: .plus, exponent: exponent, significand: Decimal(significand))
    }
}
