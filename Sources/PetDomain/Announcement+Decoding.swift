import Foundation

extension Announcement {
    /// The outcome of checking one upstream item against docs/upstream.md §2.
    enum Validation {
        /// The item is valid; the warnings name optional values that were dropped.
        case valid(Announcement, [FieldWarning])
        /// The item breaks a rule and is skipped (list) or is an error (details).
        case invalid(SkippedItem)
    }

    /// Validates and normalizes one upstream item of any dialect (docs/upstream.md §1–§2).
    ///
    /// Rules run in the order of the spec's table, so an item with several problems reports the first.
    static func validate(_ value: JSONValue) -> Validation {
        guard case .object = value else {
            return .invalid(SkippedItem(id: nil, reason: .notAnObject, detail: "item is \(value.logText), not an object"))
        }
        let reader = ItemReader(object: value)

        guard let id = reader.id() else {
            return .invalid(SkippedItem(id: nil, reason: .invalidId, detail: "id \(reader.describe("id"))"))
        }
        func skip(_ reason: SkipReason, _ detail: String) -> Validation {
            .invalid(SkippedItem(id: id, reason: reason, detail: detail))
        }

        guard let status = reader.text("status").flatMap(AnnouncementStatus.init(upstream:)) else {
            return skip(.invalidStatus, "status \(reader.describe("status"))")
        }
        guard let species = reader.text("species").flatMap(Species.init(upstream:)) else {
            return skip(.invalidSpecies, "species \(reader.describe("species"))")
        }

        let givenLastSeen = reader.value("lastSeenDate")
        let lastSeen = givenLastSeen?.text.flatMap(CalendarDate.init(iso:))
        if givenLastSeen != nil, lastSeen == nil {
            return skip(.invalidLastSeenDate, "lastSeenDate \(reader.describe("lastSeenDate"))")
        }
        let givenCreated = reader.value("createdAt")
        let created = givenCreated?.text.flatMap(Timestamp.parseISO)
        if givenCreated != nil, created == nil {
            return skip(.invalidCreatedAt, "createdAt \(reader.describe("createdAt"))")
        }
        let givenUpdated = reader.value("updatedAt")
        let updated = givenUpdated?.text.flatMap(Timestamp.parseISOOrSQL)
        if givenUpdated != nil, updated == nil {
            return skip(.invalidUpdatedAt, "updatedAt \(reader.describe("updatedAt"))")
        }
        // Some dialects omit dates (seed 000's list sample has no createdAt, dialect D has no
        // lastSeenDate). A missing one is derived from the other rather than dropping a real report;
        // only when both are missing is there nothing to show or sort by.
        guard let lastSeenDate = lastSeen ?? created.flatMap(CalendarDate.init(utcDayOf:)) else {
            return skip(.invalidLastSeenDate, "lastSeenDate and createdAt both missing")
        }
        let createdAt = created ?? lastSeenDate.startOfDayUTC
        let updatedAt = updated ?? createdAt
        guard updatedAt >= createdAt else {
            return skip(
                .updatedBeforeCreated,
                "updatedAt \(Timestamp.isoString(updatedAt)) is before createdAt \(Timestamp.isoString(createdAt))"
            )
        }

        var warnings: [FieldWarning] = []
        func warn(_ field: String, _ detail: String) {
            warnings.append(FieldWarning(id: id, field: field, detail: detail))
        }

        let decodedPlace = Place.decode(from: value)
        guard let place = decodedPlace.place else {
            return skip(.invalidPlace, decodedPlace.failure ?? "no place")
        }
        if let radiusWarning = decodedPlace.radiusWarning { warn("locationRadius", radiusWarning) }

        // A name of any length is kept: the backend and the apps set none, so a long name is a real
        // report (cards shorten it, the details page shows it whole: docs/upstream.md §2 petName).
        let petName = reader.text("petName")

        var age: Int?
        if let givenAge = reader.value("age") {
            if let years = givenAge.integer, years >= 0 {
                age = years
            } else {
                warn("age", "not a non-negative whole number: '\(TextNormalization.excerpt(givenAge.logText))'")
            }
        }

        var email: String?
        if let (key, givenEmail) = reader.first("email", "contactEmail") {
            if let text = givenEmail.text, EmailRule.looksLikeAddress(text) {
                email = text
            } else {
                warn(key, "not an e-mail address: '\(TextNormalization.excerpt(givenEmail.logText))'")
            }
        }

        var reward: Reward?
        var rewardNote: String?
        if let givenReward = reader.value("reward") {
            reward = Reward(upstream: givenReward)
            if reward == nil {
                // The backend stores any text and the apps send up to 120 characters ("A big hug and a box
                // of chocolates"): text that is no amount at all is shown as it was written.
                rewardNote = Reward.freeText(givenReward)
                if rewardNote == nil {
                    warn("reward", "not a positive amount with an optional currency: '\(TextNormalization.excerpt(givenReward.logText))'")
                }
            }
        }

        let resolvedPhoto = PhotoResolver.resolve(reader.text("photoUrl"))
        if let photoWarning = resolvedPhoto.warning { warn("photoUrl", photoWarning) }

        let announcement = Announcement(
            id: id,
            petName: petName,
            species: species,
            status: status,
            breed: reader.text("breed"),
            sex: Sex(upstream: reader.text("sex") ?? reader.text("gender")),
            age: age,
            description: reader.text("description"),
            microchipNumber: reader.text("microchipNumber"),
            place: place,
            lastSeenDate: lastSeenDate,
            email: email,
            phone: reader.firstText("phone", "contactPhone"),
            contactName: reader.text("contactName"),
            photo: resolvedPhoto.photo,
            reward: reward,
            rewardNote: rewardNote,
            createdAt: createdAt,
            updatedAt: updatedAt
        )
        return .valid(announcement, warnings)
    }
}

/// Field access on one upstream object, with the tolerance of docs/upstream.md §1.
private struct ItemReader {
    /// The upstream item (an object).
    let object: JSONValue

    /// The value under `key` unless absent, `null` or blank.
    func value(_ key: String) -> JSONValue? {
        object[key]?.present
    }

    /// The first present value among alternative keys of different dialects, with its key.
    func first(_ keys: String...) -> (String, JSONValue)? {
        for key in keys {
            if let found = value(key) { return (key, found) }
        }
        return nil
    }

    /// Trimmed text (numbers tolerated) under `key`, nil when absent or blank.
    func text(_ key: String) -> String? {
        value(key)?.text
    }

    /// Trimmed text under the first key that has some.
    func firstText(_ keys: String...) -> String? {
        for key in keys {
            if let found = text(key) { return found }
        }
        return nil
    }

    /// The id: trimmed non-empty string, or an integer number as its decimal text (dialect C).
    func id() -> String? {
        switch value("id") {
        case .string(let raw):
            return TextNormalization.nonEmpty(raw)
        case .number(let lexeme):
            return lexeme.utf8.allSatisfy { $0 == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
                ? lexeme : nil
        default:
            return nil
        }
    }

    /// "missing" or the offending value in quotes, for log details.
    func describe(_ key: String) -> String {
        guard let found = object[key], !found.isNull else { return "missing" }
        return "'\(TextNormalization.excerpt(found.logText))'"
    }
}
