import Foundation
import HTTPTypes

/// A refused write, as the backend's error body states it.
struct WriteError: Error, Equatable {
    var status: HTTPResponse.Status = .badRequest
    var code: String
    var message: String
    var field: String?
}

/// The fields of a valid `POST /api/v1/announcements` body, as sent (untrimmed: the backend
/// validates trimmed text but stores what it received, docs/demo-upstream-writes.md).
struct NewAnnouncement: Equatable {
    var petName: String?
    var species: String
    var breed: String?
    var sex: String
    var age: Double?
    var description: String?
    var microchipNumber: String?
    var latitude: Double
    var longitude: Double
    var email: String?
    var phone: String?
    var lastSeenDate: String
    var status: String
    var reward: String?
}

/// The backend's zod schema for a new announcement (docs/upstream.md §6, docs/demo-upstream-writes.md):
/// keys checked in the schema's order, then unknown keys, then the contact rule; only the first
/// problem is reported, with zod's messages and the backend's code mapping.
enum DemoWriteValidation {
    /// The schema's keys, in its order.
    static let keys = [
        "petName", "species", "breed", "sex", "age", "description", "microchipNumber", "locationLatitude",
        "locationLongitude", "email", "phone", "lastSeenDate", "status", "reward",
    ]

    /// Validates a parsed body (nil: no JSON body at all, which zod reads as `undefined`).
    static func validate(_ body: DemoJSON?, now: Date = Date()) -> Result<NewAnnouncement, WriteError> {
        guard let body else { return .failure(WriteError(code: "MISSING_VALUE", message: "Required")) }
        guard case .object(let members) = body else {
            return .failure(WriteError(code: "INVALID_FORMAT", message: "Expected object, received \(body.zodTypeName)"))
        }
        do {
            let announcement = try fields(of: body, now: now)
            if let unknown = members.first(where: { !keys.contains($0.key) }) {
                throw WriteError(code: "INVALID_FIELD", message: "\(unknown.key) is not a valid field", field: unknown.key)
            }
            // The refine reads zod's output, i.e. trimmed text.
            let email = announcement.email.map(JavaScriptText.trim) ?? ""
            let phone = announcement.phone.map(JavaScriptText.trim) ?? ""
            if email.isEmpty && phone.isEmpty {
                let message = "at least one contact method (email or phone) is required"
                throw WriteError(code: "MISSING_CONTACT", message: message, field: "contact")
            }
            return .success(announcement)
        } catch let error as WriteError {
            return .failure(error)
        } catch {
            return .failure(WriteError(status: 500, code: "INTERNAL_SERVER_ERROR", message: "Internal server error"))
        }
    }

    private static func fields(of body: DemoJSON, now: Date) throws -> NewAnnouncement {
        let petName = try optionalString(body, "petName")
        let species = try requiredText(body, "species")
        let breed = try optionalString(body, "breed")
        let sex = try requiredText(body, "sex")
        let age = try number(body, "age", required: false)
        if let age {
            guard age == age.rounded(.towardZero), age.isFinite else { throw invalid("age", "Expected integer, received float") }
            guard age > 0 else { throw invalid("age", "age must be a positive integer") }
        }
        let description = try optionalString(body, "description")
        let microchip = try optionalString(body, "microchipNumber")
        if let microchip, !JavaScriptText.isDigits(JavaScriptText.trim(microchip)) {
            throw invalid("microchipNumber", "must contain only digits")
        }
        let latitude = try number(body, "locationLatitude", required: true)!
        guard (-90...90).contains(latitude) else { throw invalid("locationLatitude", "latitude must be between -90 and 90") }
        let longitude = try number(body, "locationLongitude", required: true)!
        guard (-180...180).contains(longitude) else { throw invalid("locationLongitude", "longitude must be between -180 and 180") }
        let email = try optionalString(body, "email")
        if let email, !JavaScriptText.isEmail(JavaScriptText.trim(email)) { throw invalid("email", "email format is invalid") }
        let phone = try optionalString(body, "phone")
        if let phone, !JavaScriptText.containsDigit(JavaScriptText.trim(phone)) { throw invalid("phone", "invalid phone format") }
        let lastSeenDate = try lastSeen(body, now: now)
        let status = try status(body)
        let reward = try optionalString(body, "reward")
        return NewAnnouncement(
            petName: petName,
            species: species,
            breed: breed,
            sex: sex,
            age: age,
            description: description,
            microchipNumber: microchip,
            latitude: latitude,
            longitude: longitude,
            email: email,
            phone: phone,
            lastSeenDate: lastSeenDate,
            status: status,
            reward: reward
        )
    }

    private static func invalid(_ field: String, _ message: String) -> WriteError {
        WriteError(code: "INVALID_FORMAT", message: message, field: field)
    }

    /// A wrong type: `MISSING_VALUE` "Required" when absent, else zod's "Expected …, received …".
    private static func typeError(_ field: String, expected: String, received: DemoJSON?) -> WriteError {
        guard let received else { return WriteError(code: "MISSING_VALUE", message: "Required", field: field) }
        return invalid(field, "Expected \(expected), received \(received.zodTypeName)")
    }

    /// `z.string().optional()`: absent is fine, `null` is not.
    private static func optionalString(_ body: DemoJSON, _ key: String) throws -> String? {
        guard let value = body[key] else { return nil }
        guard case .string(let text) = value else { throw typeError(key, expected: "string", received: value) }
        return text
    }

    /// `z.string().trim().min(1, "cannot be empty")`.
    private static func requiredText(_ body: DemoJSON, _ key: String) throws -> String {
        guard case .string(let text) = body[key] else { throw typeError(key, expected: "string", received: body[key]) }
        guard !JavaScriptText.trim(text).isEmpty else {
            throw WriteError(code: "MISSING_VALUE", message: "cannot be empty", field: key)
        }
        return text
    }

    /// `z.number()`, optional or not.
    private static func number(_ body: DemoJSON, _ key: String, required: Bool) throws -> Double? {
        guard let value = body[key] else {
            if required { throw typeError(key, expected: "number", received: nil) }
            return nil
        }
        guard case .number(let number) = value else { throw typeError(key, expected: "number", received: value) }
        return number
    }

    /// `lastSeenDate`: `YYYY-MM-DD` (trimmed), not after now as JavaScript compares dates.
    private static func lastSeen(_ body: DemoJSON, now: Date) throws -> String {
        guard case .string(let text) = body["lastSeenDate"] else {
            throw typeError("lastSeenDate", expected: "string", received: body["lastSeenDate"])
        }
        let trimmed = JavaScriptText.trim(text)
        let shape =
            trimmed.utf8.count == 10
            && trimmed.utf8.enumerated().allSatisfy { index, byte in
                index == 4 || index == 7 ? byte == UInt8(ascii: "-") : (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            }
        guard shape else { throw invalid("lastSeenDate", "invalid date format (expected YYYY-MM-DD)") }
        guard JavaScriptText.isNotFutureDate(trimmed, now: now) else {
            throw invalid("lastSeenDate", "lastSeenDate cannot be in the future")
        }
        return text
    }

    /// `z.enum(["MISSING","FOUND"])` whose error map gives every problem one message.
    private static func status(_ body: DemoJSON) throws -> String {
        let message = "status must be either MISSING or FOUND"
        guard let value = body["status"] else { throw WriteError(code: "MISSING_VALUE", message: message, field: "status") }
        guard case .string(let text) = value, text == "MISSING" || text == "FOUND" else { throw invalid("status", message) }
        return text
    }
}
