import Foundation

extension ReportRules {
    /// Optional microchip: digits only once the spaces and dashes of the 5-5-5 display are removed,
    /// at most 15 (the backend checks `^\d+$`, ASCII digits as in JavaScript).
    mutating func microchipRule() -> String? {
        guard let value = TextNormalization.nonEmpty(draft.microchipNumber) else { return nil }
        let digits = String(value.unicodeScalars.filter { !TextNormalization.isSpace($0) && !ReportRules.isDash($0) })
        guard !digits.isEmpty, digits.utf8.allSatisfy(ReportRules.isDigit) else {
            fail("microchipNumber", .digitsOnly)
            return nil
        }
        guard digits.utf8.count <= ReportValidation.maximumMicrochipDigits else {
            fail("microchipNumber", .tooManyDigits(max: ReportValidation.maximumMicrochipDigits))
            return nil
        }
        return digits
    }

    /// Optional e-mail: the backend's pattern, and the read side's `EmailRule` too, because an address
    /// the pages would drop leaves a report nobody can answer.
    mutating func emailRule() -> String? {
        guard let value = TextNormalization.nonEmpty(draft.email) else { return nil }
        guard ReportRules.matchesBackendEmailPattern(value), EmailRule.looksLikeAddress(value) else {
            fail("email", .invalidEmail)
            return nil
        }
        return value
    }

    /// Optional phone: at least one digit (the backend's rule), at most 30 characters.
    mutating func phoneRule() -> String? {
        guard let value = TextNormalization.nonEmpty(draft.phone) else { return nil }
        guard value.count <= ReportValidation.maximumPhoneLength else {
            fail("phone", .tooLong(max: ReportValidation.maximumPhoneLength))
            return nil
        }
        guard value.utf8.contains(where: ReportRules.isDigit) else {
            fail("phone", .phoneNeedsDigit)
            return nil
        }
        return value
    }

    /// Optional reward of at most the client's length: for the web form one that `Reward` can read
    /// (`500 PLN`, `$300`, shown as an amount badge); for the API any text, as the backend stores it and
    /// the pages show it as written (`Announcement.rewardNote`).
    mutating func rewardRule() -> String? {
        guard let value = TextNormalization.nonEmpty(draft.reward) else { return nil }
        guard value.count <= limits.rewardLength else {
            fail("reward", .tooLong(max: limits.rewardLength))
            return nil
        }
        guard !limits.rewardMustBeAmount || Reward(upstream: .string(value)) != nil else {
            fail("reward", .notAnAmount)
            return nil
        }
        return value
    }

    /// Required `YYYY-MM-DD`, a real day, not after the visitor's today, and not after the backend's
    /// UTC today: just after midnight in Poland the backend still lives on yesterday and would refuse it.
    mutating func dateRule() -> CalendarDate? {
        guard let value = required("lastSeenDate", draft.lastSeenDate) else { return nil }
        guard let date = CalendarDate(iso: value) else {
            fail("lastSeenDate", .invalidDate)
            return nil
        }
        if date > localToday {
            fail("lastSeenDate", .dateInFuture)
            return nil
        }
        if date > upstreamToday {
            fail("lastSeenDate", .dateAfterUpstreamToday(serverToday: upstreamToday))
            return nil
        }
        return date
    }

    /// The backend's `^(?=.{1,254}$)[^\s@]+@[^\s@]+\.[^\s@]+$`: 1–254 UTF-16 units (JavaScript's
    /// length), no white space, exactly one `@` with text before it and a dot inside the domain.
    static func matchesBackendEmailPattern(_ text: String) -> Bool {
        guard (1...254).contains(text.utf16.count),
            !text.unicodeScalars.contains(where: { TextNormalization.isSpace($0) || $0 == "\u{FEFF}" }),
            let at = text.firstIndex(of: "@"), text.lastIndex(of: "@") == at, at > text.startIndex
        else { return false }
        let domain = text[text.index(after: at)...]
        // A dot with at least one character on each side.
        return domain.dropFirst().dropLast().contains(".")
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// ASCII hyphen and the Unicode dashes a phone keyboard or a copy from a document may give.
    private static func isDash(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "-" || (0x2010...0x2015).contains(scalar.value) || scalar == "\u{2212}"
    }
}
