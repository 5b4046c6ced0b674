import Foundation
import PetDomain

/// The report flow's words for the domain's problems, in the page's language.
extension Texts {
    /// The message shown next to a refused field.
    func reportProblem(_ problem: ReportProblem, englishFallback: String) -> String {
        switch problem {
        case .required: self(.reportErrorRequired)
        case .tooLong(let max): self(.reportErrorTooLong, ("max", String(max)))
        case .notANumber: self(.reportErrorNumber)
        case .outOfRange(let min, let max): self(.reportErrorRange, ("min", number(min)), ("max", number(max)))
        case .notWholeNumber: self(.reportErrorWhole)
        case .ageRange(let min, let max): self(.reportErrorAge, ("min", String(min)), ("max", String(max)))
        case .digitsOnly: self(.reportErrorDigits)
        case .tooManyDigits(let max): self(.reportErrorDigitsMax, ("max", String(max)))
        case .invalidEmail: self(.reportErrorEmail)
        case .phoneNeedsDigit: self(.reportErrorPhone)
        case .contactMissing: self(.reportErrorContact)
        case .invalidDate: self(.reportErrorDate)
        case .dateInFuture: self(.reportErrorFuture)
        case .dateAfterUpstreamToday(let serverToday):
            self(.reportErrorUTCToday, ("yesterday", date(serverToday)), ("hour", ReportClock.localTimeOfNextUTCMidnight()))
        case .unknownChoice: self(.reportErrorChoice)
        case .notAnAmount: self(.reportErrorAmount)
        // Only a JSON body can have these; the form never sends them.
        case .notText, .unknownField, .notAnObject: englishFallback
        }
    }

    /// A bound such as 90 or -180 as the page writes numbers (a decimal comma in Polish).
    private func number(_ value: Double) -> String {
        let text = value == value.rounded() ? String(Int(value)) : String(value)
        return decimalSeparator == "." ? text : text.replacingOccurrences(of: ".", with: decimalSeparator)
    }
}

/// The dates the report form works with. The service's visitors are in Poland: without a date
/// from the browser, "today" is Warsaw's; the backend's "today" is UTC's (docs/report-validation.md).
enum ReportClock {
    /// Warsaw, or a fixed UTC+1 where the system has no time-zone data (a slim container).
    static let home: TimeZone = TimeZone(identifier: "Europe/Warsaw") ?? TimeZone(secondsFromGMT: 3600)!

    /// Today in Warsaw and in UTC.
    static func today(_ now: Date = Date()) -> (local: CalendarDate, upstream: CalendarDate) {
        let utc = CalendarDate.day(of: now, in: TimeZone(identifier: "UTC")!)!
        return (CalendarDate.day(of: now, in: home) ?? utc, utc)
    }

    /// "01:00" or "02:00": Warsaw's time at the next UTC midnight, when the backend's date changes.
    static func localTimeOfNextUTCMidnight(_ now: Date = Date()) -> String {
        let day = 86_400.0
        let next = Date(timeIntervalSince1970: (now.timeIntervalSince1970 / day).rounded(.down) * day + day)
        let minutes = home.secondsFromGMT(for: next) / 60
        let hour = (minutes / 60 + 24) % 24
        return (hour < 10 ? "0" : "") + "\(hour):" + String(format: "%02d", minutes % 60)
    }
}
