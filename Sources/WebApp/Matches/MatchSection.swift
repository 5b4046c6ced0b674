import Foundation
import Mustache
import PetAPIClient
import PetDomain

/// One possible match as a card of the "possible matches" section (`partials/matches`).
@TemplateFields
package struct MatchCardModel: Sendable {
    package let id: String
    package let detailURL: String
    package let name: String
    package let kind: String  // "Cat · Persian"
    package let statusLabel: String
    package let statusClass: String
    /// The 320 px variant; nil → no picture. Not `photoURL`: a nil would let the template find the page's own.
    package let thumbURL: String?
    package let thumbAlt: String
    package let lastSeenText: String
    package let placeText: String
    /// "Same microchip": a certain match.
    package let certainText: String?
    package let reasons: [MatchReasonModel]
}

/// One reason of a match, in the page's language ("2.1 km apart").
@TemplateFields
package struct MatchReasonModel: Sendable {
    package let text: String
}

/// The "possible matches" section of the details page, the report result page and the
/// all-matches page (`data-testid="possible-matches"`).
@TemplateFields
package struct MatchSectionModel: Sendable {
    package let title: String
    package let lead: String
    package let cards: [MatchCardModel]
    /// "All 7 possible matches": the all-matches page; nil on that page itself.
    package let allURL: String?
    package let allText: String
}

extension SiteContext {
    /// Cards a details or result page shows; the all-matches page shows every kept match.
    static let matchesShown = 5

    /// The "possible matches" section for `pet` in `snapshot`, in `language`, or nil when it has
    /// none: `title` heads it ("Could this be the same pet?", or the result page's "Is it one of
    /// these?"); `limit` cards at most, with a link to all of them unless `linkAll` is false.
    func matchSection(
        for pet: Announcement,
        in snapshot: Snapshot?,
        language: PageLanguage,
        title: TextKey = .matchTitle,
        limit: Int = SiteContext.matchesShown,
        linkAll: Bool = true
    ) -> MatchSectionModel? {
        guard let snapshot else { return nil }
        let matches = caches.matchMemo.matches(for: pet, in: snapshot)
        guard !matches.isEmpty else { return nil }
        let texts = renderer.texts(language)
        let cards = matches.prefix(limit).map { match in
            matchCard(snapshot.index.items[match.position], match: match, texts: texts, language: language)
        }
        return MatchSectionModel(
            title: texts(title),
            lead: texts(pet.status == .missing ? .matchLeadMissing : .matchLeadFound),
            cards: cards,
            allURL: linkAll ? LayoutBuilder.withLanguage(Route.matches(id: pet.id).path, language) : nil,
            allText: texts(.matchAll, ("count", String(matches.count)))
        )
    }

    /// `/pets/{id}/matches.atom` in the page's language, for a report that can have matches (lost
    /// or found, with coordinates): the link is there before the first match is.
    static func matchesFeedURL(_ pet: Announcement, language: PageLanguage) -> String? {
        guard Matching.otherStatus(pet.status) != nil, pet.place.coordinate != nil else { return nil }
        return LayoutBuilder.withLanguage(Route.matchesFeed(id: pet.id).path, PageLanguage(language: language.language, explicit: true))
    }

    private func matchCard(_ pet: Announcement, match: PetMatch, texts: Texts, language: PageLanguage) -> MatchCardModel {
        let name = texts.name(pet)
        return MatchCardModel(
            id: pet.id,
            detailURL: LayoutBuilder.withLanguage(Route.details(id: pet.id).path, language),
            name: name,
            kind: [texts.species(pet.species), pet.breed].compactMap { $0 }.joined(separator: " · "),
            statusLabel: texts.status(pet.status),
            statusClass: pet.status.rawValue,
            thumbURL: PhotoLinks(pet.photo, width: 320)?.src,
            thumbAlt: texts.photoAlt(name: name, species: pet.species),
            lastSeenText: texts.date(pet.lastSeenDate),
            placeText: texts.placeName(pet.nearestPlace) ?? texts.place(pet.place),
            certainText: match.certain ? texts(.matchCertain) : nil,
            reasons: match.reasons.map { MatchReasonModel(text: texts.matchReason($0)) }
        )
    }
}

extension Texts {
    /// A reason in this language: "2.1 km apart", "found 3 days after it was lost", "both: black, white".
    func matchReason(_ reason: MatchReason) -> String {
        switch reason {
        case .sameMicrochip: self(.matchReasonChip)
        case .distanceKm(let km):
            self(.matchReasonDistance, ("km", Format.oneDecimalKilometres(km, separator: decimalSeparator) ?? Format.missingValue))
        case .daysApart(0): self(.matchReasonSameDay)
        case .daysApart(let days) where days > 0: counted(.matchReasonAfter, days)
        case .daysApart(let days): counted(.matchReasonBefore, -days)
        case .sharedMarkings(let markings): self(.matchReasonMarkings, ("markings", markings.map(marking).joined(separator: ", ")))
        case .sameBreed(let breed): self(.matchReasonBreed, ("breed", breed))
        case .agesAgree: self(.matchReasonAges)
        }
    }

    /// "black" / "czarny".
    func marking(_ marking: Marking) -> String {
        let keys: [Marking: TextKey] = [
            .black: .markingBlack, .white: .markingWhite, .grey: .markingGrey, .brown: .markingBrown, .ginger: .markingGinger,
            .cream: .markingCream, .golden: .markingGolden, .tan: .markingTan, .striped: .markingStriped, .tricolour: .markingTricolour,
            .patched: .markingPatched, .spotted: .markingSpotted, .merle: .markingMerle,
        ]
        return keys[marking].map { self($0) } ?? marking.rawValue
    }
}

extension SiteContext {
    /// The result page's "Is it one of these?" section for a report just made: matched from the
    /// fresh snapshot as the form described it (the snapshot may not list it yet), or as listed.
    func reportMatches(_ record: ReportRecord, gateway: AnnouncementGateway, language: PageLanguage) -> MatchSectionModel? {
        guard let snapshot = gateway.freshSnapshot()?.value, let pet = snapshot.index.announcement(id: record.id) ?? record.pet else { return nil }
        return matchSection(for: pet, in: snapshot, language: language, title: .matchResultTitle)
    }
}
