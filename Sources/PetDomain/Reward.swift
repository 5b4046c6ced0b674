import Foundation

/// A reward offered for finding the pet (docs/upstream.md §2 "reward", §3 reward badge).
public struct Reward: Sendable, Hashable {
    /// The amount to the cent, always > 0; `Decimal` so `1,500.50` stays exactly 1500.5.
    public let amount: Decimal
    /// The currency as the upstream wrote it ("PLN", "zł", "$"), or nil when only a number was given.
    public let currency: String?

    /// Amounts from this one up are not money: the reward text parser reads at most 18 digits, so
    /// a JSON number such as `2e33` would otherwise be shown as a figure nothing reads back (found by fuzzing).
    public static let amountLimit: Decimal = 1_000_000_000_000_000

    /// Creates a reward; returns nil unless `amount`, rounded to the cent as every page and our API
    /// show it, is greater than zero (docs/upstream.md §2) and below `amountLimit`. Kept rounded, so
    /// the display text reads back to the same reward: 0.001 is no reward, not "0 PLN" (found by fuzzing).
    public init?(amount: Decimal, currency: String?) {
        guard !amount.isNaN else { return nil }
        let cents = Reward.rounded(amount)
        guard cents > 0, cents < Reward.amountLimit else { return nil }
        self.amount = cents
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
        // Decimal's description is locale-independent ("1500.5").
        let parts = rounded(amount).description.split(separator: ".", maxSplits: 1)
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

    /// `amount` rounded to the cent, halves away from zero.
    static func rounded(_ amount: Decimal) -> Decimal {
        var value = amount
        var result = Decimal()
        NSDecimalRound(&result, &value, 2, .plain)
        return result
    }
}
