import Foundation
import PetDomain

/// The report flow's words for the domain's problems, in the page's language.
extension Texts {
    /// The message shown next to a refused field; `clock` tells when the backend's day changes.
    func reportProblem(_ problem: ReportProblem, englishFallback: String, clock: DayClock) -> String {
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
            self(.reportErrorUTCToday, ("yesterday", date(serverToday)), ("hour", clock.localTimeOfNextUTCMidnight))
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
