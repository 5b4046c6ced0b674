/// A CLDR plural category: which form of a counted word a number takes
/// (https://cldr.unicode.org/index/cldr-spec/plural-rules).
public enum PluralCategory: String, CaseIterable, Sendable {
    case zero, one, two, few, many, other
}

/// The CLDR cardinal plural rules of a language, for whole numbers and for numbers shown with
/// decimals: one rule machinery for every counted text (ages, results, minutes, km) in both languages.
public enum PluralRules: String, Sendable {
    case english
    case polish

    /// The categories a message catalog must give for this language (CLDR's list, without
    /// those only fractions reach when the site counts whole things: every one of them is needed).
    public var categories: [PluralCategory] {
        switch self {
        case .english: [.one, .other]
        case .polish: [.one, .few, .many, .other]
        }
    }

    /// The category of the whole number `count` (CLDR operands i = |count|, v = 0).
    ///
    /// English: one for 1, other otherwise. Polish: one for 1; few when the last digit is 2–4 and
    /// the last two are not 12–14 (2, 3, 22, 104); many otherwise (0, 5, 11, 12, 25, 112).
    public func category(_ count: Int) -> PluralCategory {
        let i = count.magnitude
        switch self {
        case .english:
            return i == 1 ? .one : .other
        case .polish:
            if i == 1 { return .one }
            let lastDigit = i % 10
            let lastTwo = i % 100
            if (2...4).contains(lastDigit), !(12...14).contains(lastTwo) { return .few }
            return .many
        }
    }

    /// The category of a number shown with visible decimals (v > 0): CLDR gives English and
    /// Polish "other" for every such number ("1.0 km", "2,5 km").
    public func categoryWithDecimals() -> PluralCategory {
        .other
    }
}
