import Foundation
import HTTPTypes
import MicroHTTP
import Mustache
import PetDomain
import Sightings

/// Which sighting page to show (one template, `sighting.mustache`, a section each).
enum SightingPage: Sendable {
    /// The form, with what the finder typed and what is wrong with it.
    case form(values: SightingFormValues, errors: [SightingFieldError], problem: TextKey?)
    /// Sent: mailed to the owner, or kept for the owner's page only (no e-mail on the report, or its mails
    /// stopped); the report's phone is shown for a call now.
    case sent(mailed: Bool)
    /// The management code's form.
    case signIn(problem: TextKey?)
    /// The owner's sightings, and the pet's reunion if it is home.
    case owner([Sighting], reunion: Reunion?)
}

extension SightingHandlers {
    /// Renders `kind` about `pet` as a private page (the route's privacy: never kept nor compressed; no referrer leaves it).
    func page(_ kind: SightingPage, pet: Announcement, language: PageLanguage, status: HTTPResponse.Status) -> Response {
        let texts = site.renderer.texts(language)
        let heading: String
        switch kind {
        case .form: heading = texts(pet.status == .found ? .sightingTitleFound : .sightingTitle, ("name", pet.displayName))
        case .sent: heading = texts(.sightingSentTitle)
        case .signIn, .owner: heading = texts(.sightingOwnerTitle, ("name", pet.displayName))
        }
        let layout = site.layout(
            title: texts(.pageTitle, ("title", heading)),
            description: heading,
            canonicalPath: nil,
            location: .unknown(language),
            pageURL: { _ in Route.sightings(id: pet.id).path }
        )
        var styled = layout
        styled.hasForm = true
        switch kind {
        case .owner(let sightings, _): styled.hasSightingMap = !sightings.isEmpty
        case .form: styled.hasSightingMap = pet.reunitedAt == nil
        case .sent, .signIn: break
        }
        var model = SightingPageModel(layout: styled, heading: heading)
        model.petName = pet.displayName
        model.detailsURL = LayoutBuilder.withLanguage(Route.details(id: pet.id).path, language)
        switch kind {
        case .form(let values, let errors, let problem):
            if pet.reunitedAt == nil {
                model.form = SightingHandlers.formModel(pet: pet, values: values, errors: errors, texts: texts, language: language)
                model.problem = problem.map { texts($0) }
            } else {
                model.problem = texts(.sightingProblemReunited, ("name", pet.displayName))
            }
        case .sent(let mailed):
            model.isSent = true
            model.mailed = mailed
            model.phoneText = pet.phone
            model.phoneHref = pet.phoneLinkTarget
        case .signIn(let problem):
            model.isSignIn = true
            model.problem = problem.map { texts($0) }
            model.action = LayoutBuilder.withLanguage(Route.sightings(id: pet.id).path, language)
            model.lang = language.explicit ? language.language.rawValue : nil
        case .owner(let sightings, let reunion):
            model.isOwner = true
            let now = site.days.date
            model.reunited = SightingHandlers.reunitedModel(pet: pet, reunion: reunion, now: now, texts: texts, language: language)
            model.sightings = sightings.map { SightingHandlers.itemModel($0, pet: pet, now: now, texts: texts, language: language) }
            model.hasSightings = !sightings.isEmpty
        }
        return ReportHandlers.private(site.renderer.page(model, template: "sighting", language: language, status: status))
    }

    /// The form's model, for this page and for the details page (which shows it empty).
    static func formModel(
        pet: Announcement,
        values: SightingFormValues,
        errors: [SightingFieldError],
        texts: Texts,
        language: PageLanguage
    ) -> SightingFormModel {
        func error(_ field: SightingFieldError.Field) -> String? { errors.first { $0.field == field }.map { texts($0.key) } }
        return SightingFormModel(
            action: LayoutBuilder.withLanguage(Route.sighting(id: pet.id).path, language),
            lang: language.explicit ? language.language.rawValue : nil,
            isFound: pet.status == .found,
            note: values.note,
            seenAt: values.seenAt,
            latitude: values.latitude,
            longitude: values.longitude,
            place: values.place,
            contact: values.contact,
            hasLocation: !values.latitude.isEmpty && !values.longitude.isEmpty,
            centerLatitude: pet.place.coordinate.map { String($0.latitude) },
            centerLongitude: pet.place.coordinate.map { String($0.longitude) },
            noteError: error(.note),
            seenAtError: error(.seenAt),
            placeError: error(.place),
            contactError: error(.contact),
            photoError: error(.photo),
            errorCount: errors.isEmpty ? nil : texts.counted(.sightingErrorCount, errors.count)
        )
    }

    /// The owner's "We are reunited" (a found report's "Returned to its owner"), or, once said, since when and its undo.
    static func reunitedModel(pet: Announcement, reunion: Reunion?, now: Date, texts: Texts, language: PageLanguage) -> ReunitedFormModel {
        let found = pet.status == .found
        var model = ReunitedFormModel(
            action: LayoutBuilder.withLanguage(Route.reunited(id: pet.id).path, language),
            lang: language.explicit ? language.language.rawValue : nil,
            lead: texts(found ? .reunitedLeadFound : .reunitedLead),
            button: texts(found ? .reunitedButtonFound : .reunitedButton)
        )
        if let reunion {
            let day = texts.date(CalendarDate(localDay: LocalDay.number(of: reunion.at, in: DayClock.zone)))
            model.homeText = texts(found ? .reunitedBannerFound : .reunitedBanner, ("name", pet.displayName), ("date", day))
            model.mayUndo = reunion.mayUndo(now: now)
        }
        return model
    }

    /// One sighting on the owner's page: when (relative, and the time itself), where (its place, its distance from
    /// where the pet was last seen, a link to OpenStreetMap), what, who, and the photo.
    static func itemModel(_ sighting: Sighting, pet: Announcement, now: Date, texts: Texts, language: PageLanguage) -> SightingItemModel {
        let point = Coordinate(latitude: sighting.latitude, longitude: sighting.longitude)
        let minutes = max(0, Int(now.timeIntervalSince(sighting.seenAt) / 60))
        let ago: String
        switch minutes {
        case ..<1: ago = texts(.sightingAgoNow)
        case ..<60: ago = texts.counted(.sightingAgoMinutes, minutes)
        case ..<(48 * 60): ago = texts.counted(.sightingAgoHours, minutes / 60)
        default: ago = texts.counted(.sightingAgoDays, minutes / (24 * 60))
        }
        var distance: String?
        if let point, let lastSeen = pet.place.coordinate,
            let km = Format.oneDecimalKilometres(point.distanceKm(to: lastSeen), separator: texts(.formatDecimal))
        {
            distance = texts(.sightingDistance, ("km", km))
        }
        return SightingItemModel(
            id: sighting.id,
            ago: ago,
            when: SightingCheck.localText(sighting.seenAt).replacingOccurrences(of: "T", with: " "),
            whenISO: ISO8601DateFormatter().string(from: sighting.seenAt),
            place: sighting.placeName,
            distance: distance,
            mapURL: point.map(Format.mapLink),
            latitude: String(sighting.latitude),
            longitude: String(sighting.longitude),
            note: sighting.note,
            contact: sighting.contact,
            photoURL: sighting.photo == nil ? nil : Route.sightingPhoto(id: pet.id, sighting: sighting.id).path
        )
    }
}

/// The sighting form (`partials/sighting-form.mustache`): on the details page of every pet, and on its own page.
@TemplateFields
package struct SightingFormModel: Sendable {
    package var action: String
    /// The URL's `lang`, kept by the form as every form of the site keeps it (docs/languages.md).
    package var lang: String?
    /// A found pet's form says "I know whose pet this is".
    package var isFound: Bool
    package var note: String
    package var seenAt: String
    package var latitude: String
    package var longitude: String
    package var place: String
    package var contact: String
    /// The page's location fills `lat`/`lng` (said on the form; a typed place wins).
    package var hasLocation: Bool
    /// Where the small map to tap the place starts (`Public/js/sighting.js`): the pet's last-seen point, or
    /// nil for a city-only place (the map then shows the country).
    package var centerLatitude: String?
    package var centerLongitude: String?
    package var noteError: String?
    package var seenAtError: String?
    package var placeError: String?
    package var contactError: String?
    package var photoError: String?
    /// "2 problems to fix", above the form; nil without errors.
    package var errorCount: String?
}

/// "We are reunited" on the owner's page (`reunited-form`).
@TemplateFields
package struct ReunitedFormModel: Sendable {
    package var action: String
    package var lang: String?
    package var lead: String
    package var button: String
    /// Set once the pet is home: the form then offers the undo only, while `mayUndo`.
    package var homeText: String? = nil
    package var mayUndo = false
}

/// One sighting on the owner's page.
@TemplateFields
package struct SightingItemModel: Sendable {
    package var id: String
    package var ago: String
    package var when: String
    package var whenISO: String
    package var place: String?
    package var distance: String?
    package var mapURL: String?
    package var latitude: String
    package var longitude: String
    package var note: String
    package var contact: String?
    package var photoURL: String?
}

/// Every sighting page (`sighting.mustache`).
@TemplateFields
package struct SightingPageModel: Sendable {
    package var layout: LayoutModel
    package var heading: String
    package var petName: String = ""
    package var detailsURL: String = ""
    package var problem: String? = nil
    package var form: SightingFormModel? = nil
    package var isSent = false
    package var mailed = false
    package var phoneText: String? = nil
    package var phoneHref: String? = nil
    package var isSignIn = false
    package var action: String = ""
    /// The URL's `lang`, kept by the code's form.
    package var lang: String? = nil
    package var isOwner = false
    package var sightings: [SightingItemModel] = []
    package var hasSightings = false
    package var reunited: ReunitedFormModel? = nil
}

extension SightingPageModel: ViewModel {}
