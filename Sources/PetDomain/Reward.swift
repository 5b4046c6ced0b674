import Foundation

/// A reward offered for finding the pet (product-spec §2 "reward", §3 reward badge).
public struct Reward: Sendable, Hashable {
    /// The amount, always > 0; `Decimal` so `1,500.50` stays exactly 1500.5.
    public let amount: Decimal
    /// The currency as the upstream wrote it ("PLN", "zł", "$"), or nil when only a number was given.
    public let currency: String?

    /// Creates a reward; returns nil unless `amount` is greater than zero (product-spec §2).
    public init?(amount: Decimal, currency: String?) {
        guard amount > 0, !amount.isNaN else { return nil }
        self.amount = amount
        self.currency = TextNormalization.nonEmpty(currency)
    }

    /// "500 PLN", "1,500.50 PLN", "$300", "500": thousands grouped with commas, two decimals only
    /// when there is a fraction (money reads as "1,500.50", not "1,500.5"); a one-character symbol
    /// such as `$` or `€` goes before the amount, a code or word ("PLN", "zł") after it.
    public var displayText: String {
        let number = Reward.formatted(amount)
        guard let currency else { return number }
        if currency.count == 1, let scalar = currency.unicodeScalars.first, !scalar.properties.isAlphabetic {
            return currency + number
        }
        return number + " " + currency
    }

    /// `amount` with comma grouping and 0 or 2 decimals, independent of the server's locale.
    static func formatted(_ amount: Decimal) -> String {
        var value = amount
        var rounded = Decimal()
        NSDecimalRound(&rounded, &value, 2, .plain)
        // Decimal's description is locale-independent ("1500.5").
        let parts = rounded.description.split(separator: ".", maxSplits: 1)
        let integerDigits = parts.first.map(String.init) ?? "0"
        var grouped = ""
        for (offset, digit) in integerDigits.enumerated() {
            if offset > 0, (integerDigits.count - offset) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        guard parts.count == 2 else { return grouped }
        let fraction = String(parts[1])
        return grouped + "." + (fraction.count == 1 ? fraction + "0" : fraction)
    }
}
