import Foundation

extension ReportDraft {
    /// The keys the backend types as JSON numbers; every other key is a string.
    static let numberFields: Set<String> = ["age", "locationLatitude", "locationLongitude"]

    /// A draft from an API request body (`POST /api/v1/announcements`), typed as the backend types it.
    ///
    /// Throws the body's type problems: not a JSON object (MISSING_VALUE, field ""), a number where
    /// a string is expected or the reverse (INVALID_FORMAT), an unknown key (INVALID_FIELD, field = the key).
    /// `null` counts as absent, which the backend refuses for optional fields and we accept.
    /// `ReportValidation.validate(jsonBody:localToday:upstreamToday:)` merges these with the field rules.
    public init(jsonBody: [UInt8]) throws(ReportRefusal) {
        guard let json = JSONValue.parse(Data(jsonBody)) else {
            throw ReportRefusal(errors: [ReportFieldError(field: "", code: .missingValue, problem: .notAnObject)])
        }
        try self.init(json: json)
    }

    /// A draft from a parsed API body; see `init(jsonBody:)`.
    init(json: JSONValue) throws(ReportRefusal) {
        let (draft, errors) = ReportDraft.decode(json)
        if !errors.isEmpty { throw ReportRefusal(errors: errors) }
        self = draft
    }

    /// The draft and the body's type problems (field errors in key order, then unknown keys in body order).
    /// A field with a type problem is left empty in the draft.
    static func decode(_ json: JSONValue) -> (ReportDraft, [ReportFieldError]) {
        guard case .object(let members) = json else {
            return (ReportDraft(), [ReportFieldError(field: "", code: .missingValue, problem: .notAnObject)])
        }
        var draft = ReportDraft()
        var errors: [ReportFieldError] = []
        for name in fieldNames {
            // The subscript takes the last of repeated keys, as JavaScript's JSON.parse does upstream.
            guard let value = json[name] else { continue }
            if let text = text(of: value, number: numberFields.contains(name)) {
                draft[field: name] = text
            } else {
                let problem: ReportProblem = numberFields.contains(name) ? .notANumber : .notText
                errors.append(ReportFieldError(field: name, code: .invalidFormat, problem: problem))
            }
        }
        var unknown = Set<String>()
        for member in members where draft[field: member.key] == nil && unknown.insert(member.key).inserted {
            errors.append(ReportFieldError(field: member.key, code: .invalidField, problem: .unknownField))
        }
        return (draft, errors)
    }

    /// The raw text of a value of the expected JSON type: a number's exact source text, a string as is,
    /// "" for `null`; nil for any other type (the backend's schema is strict: `"52.1"` is not a number).
    private static func text(of value: JSONValue, number: Bool) -> String? {
        switch value {
        case .null: ""
        case .number(let lexeme) where number: lexeme
        case .string(let raw) where !number: raw
        default: nil
        }
    }
}
