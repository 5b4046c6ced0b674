import Foundation

/// The bits of JavaScript's string semantics the backend's validator relies on (docs/demo-upstream-writes.md):
/// `String.prototype.trim` and `\s` (the same set), `\d` (ASCII digits only), lengths in UTF-16
/// units, and how `new Date("YYYY-MM-DD")` reads a date. Validation sees trimmed text; the row
/// stores the text as sent, as the backend does.
enum JavaScriptText {
    /// JavaScript's WhiteSpace and LineTerminator code points (ECMA-262 §12.2, §12.3).
    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF: true
        default: false
        }
    }

    /// `text.trim()`.
    static func trim(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
            let last = scalars.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(scalars[first...last])
    }

    /// `/\d/.test(text)`.
    static func containsDigit(_ text: String) -> Bool {
        text.utf8.contains { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// `/^\d+$/.test(text)`.
    static func isDigits(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// The backend's `^(?=.{1,254}$)[^\s@]+@[^\s@]+\.[^\s@]+$`: 1–254 UTF-16 units, one `@` with
    /// text before it, and after it no space and a dot that is neither first nor last.
    static func isEmail(_ text: String) -> Bool {
        guard (1...254).contains(text.utf16.count), !text.unicodeScalars.contains(where: isSpace) else { return false }
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty else { return false }
        let domain = Array(parts[1].unicodeScalars)
        guard domain.count >= 3 else { return false }
        return domain[1..<(domain.count - 1)].contains(".")
    }

    /// `new Date(text) <= now` for a `YYYY-MM-DD` text, as V8 reads it: UTC midnight of that day,
    /// month 1–12 and day 1–31 (a day past the month's end rolls over, `2025-02-30` is 2 March);
    /// any other text is an invalid date, which compares false (so it is "in the future").
    static func isNotFutureDate(_ text: String, now: Date) -> Bool {
        let parts = text.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, (1...12).contains(parts[1]), (1...31).contains(parts[2]) else { return false }
        let days = daysFromCivil(year: parts[0], month: parts[1], day: 1) + parts[2] - 1
        return Double(days) * 86_400 <= now.timeIntervalSince1970
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let shifted = month <= 2 ? year - 1 : year
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
