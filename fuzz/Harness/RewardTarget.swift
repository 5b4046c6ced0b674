import Foundation

@testable import PetDomain

/// `Reward(upstream:)` from text (`"PLN 1,500.50"`) and from a JSON number (`500`): only positive
/// amounts are kept, and the display text the pages and our API print reads back to the same reward.
enum RewardTarget {
    static func run(_ bytes: [UInt8]) {
        var values = [JSONValue.string(text(bytes))]
        if let parsed = JSONValue.parse(Data(bytes)), case .number = parsed { values.append(parsed) }
        for value in values {
            guard let reward = Reward(upstream: value) else { continue }
            expect(reward.amount > 0 && reward.amount < Reward.amountLimit, "reward amount out of range: \(reward.amount)")
            expect(reward.amount == Reward.rounded(reward.amount), "reward amount not to the cent: \(reward.amount)")
            if let currency = reward.currency {
                expect(!currency.isEmpty && sameBytes(TextNormalization.trimmed(currency), currency), "currency not trimmed: '\(currency)'")
            }
            let shown = reward.displayText
            guard let readBack = Reward(upstream: .string(shown)) else {
                fatalError("invariant broken: display text '\(shown)' of \(reward) is not a reward")
            }
            expect(readBack == reward, "display text '\(shown)' of \(reward) reads back as \(readBack)")
        }
    }
}
