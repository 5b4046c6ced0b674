import Foundation

/// One run of the report rules over a draft (docs/report-validation.md has the table).
/// Every rule trims first; an empty optional value is absent.
struct ReportRules {
    /// The visitor's input.
    let draft: ReportDraft
    /// The visitor's calendar day.
    let localToday: CalendarDate
    /// The backend's calendar day (UTC).
    let upstreamToday: CalendarDate
    /// The client's length limits.
    let limits: ReportLimits
    /// The problems found so far, in the order the rules ran.
    private(set) var errors: [ReportFieldError] = []

    init(draft: ReportDraft, localToday: CalendarDate, upstreamToday: CalendarDate, limits: ReportLimits) {
        self.draft = draft
        self.localToday = localToday
        self.upstreamToday = upstreamToday
        self.limits = limits
    }

    /// Runs every rule; the report when none failed. `errors` ends in the backend's order.
    mutating func run() -> ValidReport? {
        let petName = text("petName", draft.petName, max: limits.nameLength)
        let species = choice("species", draft.species, Species.allCases.map(\.apiValue)).flatMap(Species.init(upstream:))
        let breed = text("breed", draft.breed, max: limits.nameLength)
        let status = choice("status", draft.status, ["MISSING", "FOUND"]).flatMap(AnnouncementStatus.init(upstream:))
        let sex = sexChoice(status: status)
        let age = ageRule()
        let description = text("description", draft.description, max: ReportValidation.maximumDescriptionLength)
        let microchip = microchipRule()
        let latitude = degrees("locationLatitude", draft.locationLatitude, limit: 90)
        let longitude = degrees("locationLongitude", draft.locationLongitude, limit: 180)
        let email = emailRule()
        let phone = phoneRule()
        let lastSeen = dateRule()
        let reward = rewardRule()
        if TextNormalization.nonEmpty(draft.email) == nil, TextNormalization.nonEmpty(draft.phone) == nil {
            fail("contact", .contactMissing, code: .missingContact)
        }
        errors = ReportValidation.ordered(errors)
        guard errors.isEmpty, let species, let sex, let status, let lastSeen,
            let latitude, let longitude, let coordinate = Coordinate(latitude: latitude, longitude: longitude)
        else { return nil }
        return ValidReport(
            petName: petName,
            species: species,
            breed: breed,
            sex: sex,
            age: age,
            description: description,
            microchipNumber: microchip,
            coordinate: coordinate,
            email: email,
            phone: phone,
            lastSeenDate: lastSeen,
            status: status,
            reward: reward
        )
    }

    /// Records a problem; most are INVALID_FORMAT.
    mutating func fail(_ field: String, _ problem: ReportProblem, code: ReportErrorCode = .invalidFormat) {
        errors.append(ReportFieldError(field: field, code: code, problem: problem))
    }

    /// The trimmed value of a required field, or nil after recording MISSING_VALUE.
    mutating func required(_ field: String, _ raw: String) -> String? {
        guard let value = TextNormalization.nonEmpty(raw) else {
            fail(field, .required, code: .missingValue)
            return nil
        }
        return value
    }

    /// Optional free text of at most `max` characters (graphemes, as the read side counts them); nil
    /// `max`: any length.
    private mutating func text(_ field: String, _ raw: String, max: Int?) -> String? {
        guard let value = TextNormalization.nonEmpty(raw) else { return nil }
        guard let max else { return value }
        guard value.count <= max else {
            fail(field, .tooLong(max: max))
            return nil
        }
        return value
    }

    /// A required value among `allowed`, compared case-insensitively; returned upper-case.
    private mutating func choice(_ field: String, _ raw: String, _ allowed: [String]) -> String? {
        guard let value = required(field, raw) else { return nil }
        let upper = value.uppercased()
        guard allowed.contains(upper) else {
            fail(field, .unknownChoice(allowed: allowed))
            return nil
        }
        return upper
    }

    /// MALE or FEMALE; UNKNOWN only for a found pet (the owner of a lost pet knows its sex; a finder
    /// may not). When the status is itself empty or refused, UNKNOWN is let through here: the status
    /// error is the one to fix, and one error per mistake is clearer.
    private mutating func sexChoice(status: AnnouncementStatus?) -> Sex? {
        let allowed = status == .missing && !limits.unknownSexWhenMissing ? ["MALE", "FEMALE"] : ["MALE", "FEMALE", "UNKNOWN"]
        return choice("sex", draft.sex, allowed).flatMap { Sex(rawValue: $0.lowercased()) }
    }

    /// Optional whole number of years, 1–40 (the backend refuses 0; `5.0` is 5, as in JSON).
    private mutating func ageRule() -> Int? {
        guard let value = TextNormalization.nonEmpty(draft.age) else { return nil }
        guard let number = ReportNumber.parse(value) else {
            fail("age", .notANumber)
            return nil
        }
        guard number == number.rounded(.towardZero) else {
            fail("age", .notWholeNumber)
            return nil
        }
        guard number >= 1, number <= Double(ReportValidation.maximumAge) else {
            fail("age", .ageRange(min: 1, max: ReportValidation.maximumAge))
            return nil
        }
        return Int(number)
    }

    /// A required coordinate in −limit…limit degrees.
    private mutating func degrees(_ field: String, _ raw: String, limit: Double) -> Double? {
        guard let value = required(field, raw) else { return nil }
        guard let number = ReportNumber.parse(value) else {
            fail(field, .notANumber)
            return nil
        }
        guard (-limit...limit).contains(number) else {
            fail(field, .outOfRange(min: -limit, max: limit))
            return nil
        }
        return number
    }
}
