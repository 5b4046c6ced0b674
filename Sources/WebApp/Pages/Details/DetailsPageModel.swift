import Mustache

/// A label/value row on the details page; `href` makes the value a link (tel:, mailto:, map).
@TemplateFields
struct DetailRow: Sendable {
    let label: String
    let value: String
    let href: String?
    /// A `data-testid` for the value (the place name's `place-name`).
    var testID: String?
}

/// `/pets/{id}` details page (`Templates/details.mustache`, rendered by `PageHandlers.details`).
@TemplateFields
struct DetailsPageModel: Sendable {
    let layout: LayoutModel
    let staleNotice: String?
    let id: String
    let name: String
    let statusLabel: String
    let statusClass: String
    let rewardText: String?
    let photoURL: String?  // the 1280 variant (or the one URL); nil → placeholder
    let photoSrcset: String?
    let photoFullURL: String?  // "Open photo": the full variant
    let photoAlt: String
    let subtitle: String  // "Dog · Golden Retriever"
    let rows: [DetailRow]  // Species, Breed, Sex, Age, Last seen, Place, Coordinates, Distance, Microchip, Contact…
    let description: String?  // shown whole; paragraphs kept by CSS white-space
    let mapURL: String?  // OpenStreetMap with a marker; nil for city-only places
    let pinMap: PinMapModel?  // the small map with the pet's pin; nil for city-only places
    let phoneHref: String?  // "tel:+48601234567"
    let phoneText: String?
    let emailHref: String?  // "mailto:…"
    let emailText: String?
    let shareURL: String  // canonical absolute URL when known, else the path
    let shareTitle: String
    let backURL: String  // the list, keeping location
    /// The hidden end of the "Open photo" link, "of Max in full size".
    var photoFullText: String = ""
    /// "Sharing this page helps more people recognise Max."
    var shareLead: String = ""
    /// "Reported 3 days ago" (docs/report-age.md).
    var reportAgeText: String = ""
    /// The notice of a report older than `ReportAge.outdatedAfterDays`; nil otherwise.
    var outdatedNotice: String?
    /// "Print a poster": `/pets/{id}/poster` in the page's language (docs/poster.md).
    var posterURL: String = ""
    /// Possible matches of the other status (docs/matching.md); nil when there is none.
    var matches: MatchSectionModel?
    /// "I've seen this pet" (docs/sightings.md), empty; nil for a closed report.
    /// "Home again since …" on a reunited pet (its banner, `reunited-banner`).
    var reunitedText: String?
    var sightingForm: SightingFormModel?
    /// The owner's page: the management code, then the sightings.
    var sightingsURL: String = ""
    /// `/pets/{id}/matches.atom` for a lost or found pet with coordinates; nil otherwise.
    var matchesFeedURL: String?
}

extension DetailsPageModel: ViewModel {}
