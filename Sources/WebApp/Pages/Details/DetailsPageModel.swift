import Mustache

/// A label/value row on the details page; `href` makes the value a link (tel:, mailto:, map).
@TemplateFields
package struct DetailRow: Sendable {
    package let label: String
    package let value: String
    package let href: String?
    /// A `data-testid` for the value (the place name's `place-name`).
    package var testID: String?
}

/// `/pets/{id}` details page (`Templates/details.mustache`, rendered by `PageHandlers.details`).
@TemplateFields
package struct DetailsPageModel: Sendable {
    package let layout: LayoutModel
    package let staleNotice: String?
    package let id: String
    package let name: String
    package let statusLabel: String
    package let statusClass: String
    package let rewardText: String?
    package let photoURL: String?  // the 1280 variant (or the one URL); nil → placeholder
    package let photoSrcset: String?
    package let photoFullURL: String?  // "Open photo": the full variant
    package let photoAlt: String
    package let subtitle: String  // "Dog · Golden Retriever"
    package let rows: [DetailRow]  // Species, Breed, Sex, Age, Last seen, Place, Coordinates, Distance, Microchip, Contact…
    package let description: String?  // shown whole; paragraphs kept by CSS white-space
    package let mapURL: String?  // OpenStreetMap with a marker; nil for city-only places
    package let pinMap: PinMapModel?  // the small map with the pet's pin; nil for city-only places
    package let phoneHref: String?  // "tel:+48601234567"
    package let phoneText: String?
    package let emailHref: String?  // "mailto:…"
    package let emailText: String?
    package let shareURL: String  // canonical absolute URL when known, else the path
    package let shareTitle: String
    package let backURL: String  // the list, keeping location
    /// The hidden end of the "Open photo" link, "of Max in full size".
    package var photoFullText: String = ""
    /// "Sharing this page helps more people recognise Max."
    package var shareLead: String = ""
    /// "Reported 3 days ago" (docs/report-age.md).
    package var reportAgeText: String = ""
    /// The notice of a report older than `ReportAge.outdatedAfterDays`; nil otherwise.
    package var outdatedNotice: String?
    /// "Print a poster": `/pets/{id}/poster` in the page's language (docs/poster.md).
    package var posterURL: String = ""
    /// Possible matches of the other status (docs/matching.md); nil when there is none.
    package var matches: MatchSectionModel?
    /// "I've seen this pet" (docs/sightings.md), empty; nil for a closed report.
    /// "Home again since …" on a reunited pet (its banner, `reunited-banner`).
    package var reunitedText: String?
    package var sightingForm: SightingFormModel?
    /// The owner's page: the management code, then the sightings.
    package var sightingsURL: String = ""
    /// `/pets/{id}/matches.atom` for a lost or found pet with coordinates; nil otherwise.
    package var matchesFeedURL: String?
}

extension DetailsPageModel: ViewModel {}
