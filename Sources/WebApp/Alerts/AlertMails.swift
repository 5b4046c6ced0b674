import Alerts
import Foundation
import HTTPTypes
import Logging
import MailDelivery
import MicroHTTP
import Mustache
import PetAPIClient
import PetDomain
import Sightings

/// Writes the outbox's mails (docs/alerts.md "The mails"): RFC 5322 with a text and an HTML part made from
/// `Templates/mail/*.mustache` by the site's template engine, in the subscription's language, every link
/// absolute on the public base URL, each pet as on a card (its photo a JPEG link of ours, never attached),
/// `List-Unsubscribe` with RFC 8058's one-click POST on alerts and digests, and a `Message-ID` made from
/// the outbox row, so a mail sent again after a crash is recognisably the same mail.
struct AlertMails: Sendable {
    let site: SiteContext
    /// The absolute base of every link (`--public-base-url`).
    let base: String
    /// The sender (`--mail-from`).
    let from: MailAddress
    /// `List-Id` and `Message-ID`'s right side: the public base URL's host.
    let authority: String
    /// Names a search's centre ("Mokotów, Warszawa"), as the cards name places (docs/place-names.md).
    let places: PlaceFinder?

    /// The confirmation mail of `subscription`, with its two links' tokens.
    func confirmation(_ mail: OwedMail, confirmToken: String, neverToken: String, what: String) -> MailMessage {
        let language = PageLanguage(language: Language(rawValue: mail.subscription.language) ?? .en, explicit: true)
        let texts = site.renderer.texts(language)
        var model = MailModel(what: what)
        model.isConfirm = true
        model.confirmURL = AlertLinks.absolute(.alert(.confirm, token: confirmToken), base: base, language: language.language.rawValue)
        model.neverURL = AlertLinks.absolute(.alert(.never, token: neverToken), base: base, language: language.language.rawValue)
        return message(
            mail,
            subject: texts(.mailConfirmSubject, ("what", what)),
            model: model,
            template: "confirm",
            language: language,
            unsubscribe: nil
        )
    }

    /// The alert or digest telling of `pets` (already the ones still listed, oldest owed first).
    func alert(_ mail: OwedMail, pets: [Announcement], index: AnnouncementIndex, manageToken: String, what: String) -> MailMessage {
        let language = PageLanguage(language: Language(rawValue: mail.subscription.language) ?? .en, explicit: true)
        let texts = site.renderer.texts(language)
        let limit = mail.kind == .digest ? AlertSchedule.digestPets : AlertSchedule.alertPets
        let shown = Array(pets.prefix(limit))
        var model = MailModel(what: what)
        var origin: Coordinate?
        var report: Announcement?
        switch mail.subscription.target {
        case .search(let search):
            origin = search.centre
            let filters = ListFilters(status: search.status, species: search.species, sort: .newest, page: 1)
            var location = VisitorLocation.unknown(language)
            location.origin = search.centre
            location.coordinateText = (URLText.fourDecimals(search.latitude), URLText.fourDecimals(search.longitude))
            location.rangeKm = search.rangeKm
            location.rangeGiven = true
            model.allURL = base + filters.url(page: 1, location: location)
        case .matches(let petID):
            report = index.announcement(id: petID)
            origin = report?.place.coordinate
            model.allURL = base + LayoutBuilder.withLanguage(Route.matches(id: petID).path, language)
        case .sightings(let petID):
            // Its mails are `sightings(_:)`'s; an alert of it (none is owed) would lead to the pet.
            model.allURL = base + LayoutBuilder.withLanguage(Route.details(id: petID).path, language)
        }
        let day = site.days.today
        model.pets = shown.map { pet in
            let card = pet.card(origin: origin, location: .unknown(language), texts: texts, day: day)
            let reasons =
                report.flatMap { Matching.evaluate(MatchProfile($0), MatchProfile(pet), position: 0) }?.reasons.map(texts.matchReason) ?? []
            return MailPetModel(
                id: pet.id,
                detailURL: base + LayoutBuilder.withLanguage(Route.details(id: pet.id).path, language),
                name: AlertMails.oneLine(card.name),
                speciesLabel: card.speciesLabel,
                statusLabel: card.statusLabel,
                placeText: AlertMails.oneLine(card.placeName ?? card.placeText),
                distanceText: card.distanceText,
                reportAgeText: card.reportAgeText,
                photoURL: AlertMails.jpegPhoto(card.photoURL, base: base),
                photoAlt: card.photoAlt,
                reasons: reasons.map { MailReasonModel(text: AlertMails.oneLine($0)) }
            )
        }
        if pets.count > shown.count { model.moreText = texts.counted(.mailMore, pets.count - shown.count) }
        let manage = AlertLinks.absolute(.alert(.manage, token: manageToken), base: base, language: language.language.rawValue)
        let stop = base + Route.alert(.stop, token: manageToken).path
        model.manageURL = manage
        model.stopURL = stop
        let subject: String =
            switch (mail.kind, mail.subscription.target) {
            case (_, .matches): texts(.mailMatchSubject, ("what", what))
            case (.digest, _): texts.counted(.mailDigestSubject, pets.count, ("what", what))
            default: texts.counted(.mailAlertSubject, pets.count, ("what", what))
            }
        return message(mail, subject: subject, model: model, template: "alert", language: language, unsubscribe: stop)
    }

    /// The relay of `sightings` to the owner of report `petID` (docs/sightings.md "The relay"): each one's time,
    /// place (its name and a link to the point on OpenStreetMap), note and the finder's contact, and a link to the
    /// owner's page; `List-Unsubscribe` stops these mails for this pet.
    func sightings(_ mail: OwedMail, sightings: [Sighting], petID: String, pet: Announcement?, manageToken: String) -> MailMessage {
        let language = PageLanguage(language: Language(rawValue: mail.subscription.language) ?? .en, explicit: true)
        let texts = site.renderer.texts(language)
        let name = AlertMails.oneLine(pet.map { texts.name($0) } ?? texts(.petUnnamed))
        var model = MailModel(what: name)
        model.sightings = sightings.map { sighting in
            let point = Coordinate(latitude: sighting.latitude, longitude: sighting.longitude)
            return MailSightingModel(
                when: SightingCheck.localText(sighting.seenAt).replacingOccurrences(of: "T", with: " "),
                place: AlertMails.oneLine(
                    sighting.placeName ?? point.map { Format.coordinate($0, separator: ".", hemispheres: ("N", "S", "E", "W")) } ?? ""
                ),
                mapURL: point.map(Format.mapLink),
                note: AlertMails.oneLine(sighting.note),
                contact: sighting.contact.map(AlertMails.oneLine),
                hasPhoto: sighting.photo != nil
            )
        }
        model.ownerURL = base + LayoutBuilder.withLanguage(Route.sightings(id: petID).path, language)
        let stop = base + Route.alert(.stop, token: manageToken).path
        model.manageURL = AlertLinks.absolute(.alert(.manage, token: manageToken), base: base, language: language.language.rawValue)
        model.stopURL = stop
        let subject = texts.counted(.mailSightingSubject, sightings.count, ("name", name))
        return message(mail, subject: subject, model: model, template: "sighting", language: language, unsubscribe: stop)
    }

    private func message(
        _ mail: OwedMail,
        subject: String,
        model: MailModel,
        template: String,
        language: PageLanguage,
        unsubscribe: String?
    ) -> MailMessage {
        let html = site.renderer.render(model, template: "mail/\(template)-html", language: language.language) ?? []
        let text = site.renderer.render(model, template: "mail/\(template)-text", language: language.language) ?? []
        var headers: [(name: String, value: String)] = [("List-Id", "PetSpot alerts <alerts.\(authority)>")]
        if let unsubscribe {
            headers.append(("List-Unsubscribe", "<\(unsubscribe)>"))
            headers.append(("List-Unsubscribe-Post", "List-Unsubscribe=One-Click"))
        }
        return MailMessage(
            from: from,
            to: MailAddress(mail.subscription.email),
            subject: subject,
            text: String(decoding: text, as: UTF8.self),
            html: String(decoding: html, as: UTF8.self),
            messageID: "\(mail.kind.rawValue).\(mail.id)@\(authority)",
            date: site.days.date,
            extraHeaders: headers
        )
    }

    /// What a subscription follows, in its own language ("Missing dogs within 5 km of 52.230, 21.010").
    func describe(_ subscription: Subscription, index: AnnouncementIndex?) -> String {
        let language = PageLanguage(language: Language(rawValue: subscription.language) ?? .en, explicit: true)
        return AlertMails.describe(subscription, texts: site.renderer.texts(language), index: index, places: places)
    }

    /// What a subscription follows, in words of `texts`; a followed report by its pet's name when `index` lists it,
    /// a search's centre by its nearest place when `places` knows one (else its coordinates).
    static func describe(_ subscription: Subscription, texts: Texts, index: AnnouncementIndex?, places: PlaceFinder?) -> String {
        switch subscription.target {
        case .search(let search):
            let filters = ListFilters(status: search.status, species: search.species, sort: .newest, page: 1)
            let named = search.centre.flatMap { places?.nearest(to: $0) }.flatMap { texts.placeName($0) }
            let place = named ?? String(format: "%.3f, %.3f", search.latitude, search.longitude)
            return texts(.alertWhatSearch, ("title", filters.title(texts)), ("range", String(search.rangeKm)), ("place", place))
        case .matches(let petID):
            let name = index?.announcement(id: petID)?.displayName ?? petID
            return texts(.alertWhatMatches, ("name", name))
        case .sightings(let petID):
            let name = index?.announcement(id: petID)?.displayName ?? petID
            return texts(.alertWhatSightings, ("name", name))
        }
    }

    /// `text` on one line: line breaks, other control characters and bidirectional overrides become spaces.
    /// The text part prints values unescaped (docs/templates.md "Escaping, and the one place it is turned off"),
    /// so an upstream name with a line break could otherwise forge a line of our own ("Confirm: http://…").
    static func oneLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isBreaking) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { isBreaking($0) ? " " : $0 }))
    }

    private static func isBreaking(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: return true
        default: return (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
        }
    }

    /// Our photo variant as JPEG (mail clients read no WebP), absolute; another host's photo as it is.
    static func jpegPhoto(_ src: String?, base: String) -> String? {
        guard let src else { return nil }
        guard src.hasPrefix("/") else { return src }
        return base + src + (src.contains("?") ? "&" : "?") + "format=jpeg"
    }
}

/// What a mail's templates place (`Templates/mail/`).
@TemplateFields
package struct MailModel: Sendable {
    package var what: String
    package var isConfirm = false
    package var confirmURL: String? = nil
    package var neverURL: String? = nil
    package var pets: [MailPetModel] = []
    package var moreText: String? = nil
    package var allURL: String? = nil
    package var manageURL: String? = nil
    package var stopURL: String? = nil
    /// A relay mail's sightings, and the owner's page.
    package var sightings: [MailSightingModel] = []
    package var ownerURL: String? = nil
}

extension MailModel: ViewModel {}

/// One sighting of a relay mail (every text on one line: the text part prints values unescaped).
@TemplateFields
package struct MailSightingModel: Sendable {
    package let when: String
    package let place: String
    package let mapURL: String?
    package let note: String
    package let contact: String?
    package let hasPhoto: Bool
}

/// One pet of an alert, as on a card.
@TemplateFields
package struct MailPetModel: Sendable {
    package let id: String
    package let detailURL: String
    package let name: String
    package let speciesLabel: String
    package let statusLabel: String
    package let placeText: String
    package let distanceText: String?
    package let reportAgeText: String
    package let photoURL: String?
    package let photoAlt: String
    /// Why a report's follower is told of it (its possible-match reasons).
    package let reasons: [MailReasonModel]
}

/// One reason of a possible match in a mail.
@TemplateFields
package struct MailReasonModel: Sendable {
    package let text: String
}
