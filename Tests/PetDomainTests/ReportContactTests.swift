import Foundation
import PetDomain
import Testing

/// E-mail, phone, the contact rule, the reward, and the order of several errors (docs/report-validation.md).
@Suite struct ReportContactTests {
    @Test func report_accepts_phone_only_or_email_only() throws {
        #expect(try acceptedReport(reportDraft { $0.email = "" }).email == nil)
        #expect(try acceptedReport(reportDraft { $0.phone = " " }).phone == nil)
    }

    @Test func report_refuses_neither_phone_nor_email_as_missing_contact() {
        let error = onlyError(
            reportDraft {
                $0.email = " "
                $0.phone = ""
            }
        )
        #expect(error == ReportFieldError(field: "contact", code: .missingContact, problem: .contactMissing))
    }

    @Test(arguments: [
        "owner@example", "owner example@x.pl", "@example.com", "a@b@c.pl", "owner@.pl", "owner@x.",
        "owner@x.p", "ow..ner@x.pl",
    ])
    func report_refuses_an_email_the_backend_or_the_pages_would_refuse(raw: String) {
        let error = onlyError(reportDraft { $0.email = raw })
        #expect(error == ReportFieldError(field: "email", code: .invalidFormat, problem: .invalidEmail))
        #expect(error?.message == "email format is invalid")
    }

    @Test(arguments: ["zofia@żółć.pl", "o'brien+pets@mail.example.com", " owner@example.com "])
    func report_accepts_an_email_address(raw: String) throws {
        #expect(try acceptedReport(reportDraft { $0.email = raw }).email == raw.trimmingCharacters(in: .whitespaces))
    }

    @Test func report_refuses_an_email_longer_than_254() {
        let local = String(repeating: "a", count: 64)
        let domain = Array(repeating: String(repeating: "b", count: 60), count: 4).joined(separator: ".") + ".pl"
        #expect(onlyError(reportDraft { $0.email = local + "@" + domain })?.problem == .invalidEmail)
    }

    @Test func report_refuses_a_phone_without_a_digit() {
        let error = onlyError(reportDraft { $0.phone = "call me" })
        #expect(error == ReportFieldError(field: "phone", code: .invalidFormat, problem: .phoneNeedsDigit))
        #expect(error?.message == "invalid phone format")
    }

    @Test func report_phone_limit_is_30_characters() throws {
        _ = try acceptedReport(reportDraft { $0.phone = String(repeating: "1", count: 30) })
        #expect(onlyError(reportDraft { $0.phone = String(repeating: "1", count: 31) })?.problem == .tooLong(max: 30))
    }

    @Test func report_accepts_a_phone_with_letters_and_a_digit() throws {
        #expect(try acceptedReport(reportDraft { $0.phone = "555-PETS 1" }).phone == "555-PETS 1")
    }

    @Test(arguments: ["500 PLN", "$300", "1500 zł", "PLN 1,500.50", "300zł"])
    func report_accepts_a_reward_the_pages_can_show(raw: String) throws {
        #expect(try acceptedReport(reportDraft { $0.reward = raw }).reward == raw)
    }

    // "1 500 zł": `Reward` does not read space-grouped amounts, so the pages would drop it too.
    @Test(arguments: ["a big hug", "0 PLN", "1 500 zł"])
    func report_refuses_a_reward_the_pages_would_drop(raw: String) {
        #expect(onlyError(reportDraft { $0.reward = raw })?.problem == .notAnAmount)
    }

    @Test func report_reward_limit_is_100_characters() {
        let long = "500 " + String(repeating: "z", count: 97)
        #expect(onlyError(reportDraft { $0.reward = long })?.problem == .tooLong(max: 100))
    }

    @Test func report_lists_every_error_in_the_backend_key_order_with_contact_last() {
        let draft = ReportDraft(
            petName: String(repeating: "x", count: 101),
            age: "0",
            email: "",
            phone: "",
            status: "closed",
            reward: "hug"
        )
        let refusal = ReportRefusal(errors: reportErrors(draft))
        #expect(
            refusal.errors.map(\.field) == [
                "petName", "species", "sex", "age", "locationLatitude", "locationLongitude", "lastSeenDate", "status",
                "reward", "contact",
            ]
        )
        #expect(refusal.first.field == "petName")
        #expect(refusal.errors(for: "age").map(\.problem) == [.ageRange(min: 1, max: 40)])
    }
}
