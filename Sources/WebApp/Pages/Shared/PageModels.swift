import CompiledTemplates
import Mustache

// View models: every page is rendered from one of these structs. All text is formatted in Swift
// (docs/upstream.md §3); templates only place values, always through `{{ }}` (HTML-escaped).
// `@TemplateFields` gives each its lookup by name from these declarations (no list to keep in step).

/// What every page's layout needs: titles, share tags, navigation and the location flow state.
@TemplateFields
struct LayoutModel: Sendable {
    /// `<title>` text, e.g. "Max — missing dog in Warsaw · PetSpot".
    let pageTitle: String
    /// `<meta name="description">`.
    let metaDescription: String
    /// Absolute canonical URL (`<link rel=canonical>` and `og:url`), when a public base URL is known.
    let canonicalURL: String?
    /// Open Graph / Twitter card values; `ogImage` is an absolute URL or nil.
    let ogTitle: String
    let ogDescription: String
    let ogImage: String?
    /// "website" or "article".
    let ogType: String
    /// `summary_large_image` when there is an image, else `summary`.
    let twitterCard: String
    /// Navigation links, keeping the visitor's location.
    let homeURL: String
    let listURL: String
    let mapURL: String
    /// True on the landing / list / map page (for `aria-current`).
    let isHome: Bool
    let isList: Bool
    let isMap: Bool
    /// The page shows a map: the layout loads Leaflet, markercluster and the map script.
    let hasMap: Bool
    /// The location state the script reads from `<body data-location="…">`: known, denied or unknown.
    let locationState: String
    /// The language switch: this page and query in English and in Polish (`lang=`),
    /// and which one is shown.
    var englishURL: String = "/?lang=en"
    var polishURL: String = "/?lang=pl"
    var isEnglish: Bool = true
    var isPolish: Bool = false
    /// `<link rel="alternate" hreflang="en|pl|x-default">`: absolute when a base URL is known.
    var alternateEnglishURL: String = "/?lang=en"
    var alternatePolishURL: String = "/?lang=pl"
    var alternateDefaultURL: String = "/"
    /// "Report a pet" in the navigation (keeping the location, which prefills the form's place).
    var reportURL: String = "/report"
    /// The same form with "found" chosen (`?status=found`).
    var reportFoundURL: String = "/report?status=found"
    /// True on the report pages (`aria-current`), which load Leaflet and the report script.
    var isReport: Bool = false
    /// The Atom feed of the page's search (`<link rel="alternate" type="application/atom+xml">`,
    /// and "Follow this search" on the list) and its title; nil on pages without a search.
    var feedURL: String?
    var feedTitle: String?

    /// This layout with the feed of the search of `filters` and `location`, titled after the search.
    func withFeed(filters: ListFilters, location: VisitorLocation, texts: Texts) -> LayoutModel {
        var copy = self
        copy.feedURL = FeedSearch.link(filters: filters, location: location)
        copy.feedTitle = texts(.feedHeadTitle, ("title", filters.title(texts)))
        return copy
    }
}

/// The permission-denied banner (docs/upstream.md §4, seed 002).
@TemplateFields
struct BannerModel: Sendable {
    let title: String  // "Location Access Needed"
    let message: String  // "Enable location access in your browser settings to see nearby pets."
    /// Same page without `location=denied`: the script asks again from there; without JS it just reloads.
    let tryAgainURL: String
    /// Same page without `location=denied` (the dismiss control works as a link without JS).
    let dismissURL: String
}

/// One announcement card (landing and list).
@TemplateFields
struct CardModel: Sendable {
    let id: String
    var detailURL: String  // var: card fragments put a marker after the path
    let name: String  // "Max" or "Unnamed pet"
    let speciesLabel: String  // "Dog"
    let statusLabel: String  // "MISSING" | "FOUND" | "CLOSED"
    let statusClass: String  // "missing" | "found" | "closed"
    let photoURL: String?  // our /images/…?w=640 variant or an absolute http(s) URL; nil → placeholder
    let photoSrcset: String?  // the 320/640/1280 variants; nil for SVG and absolute photos
    let photoAlt: String  // "Photo of Max, a dog"
    let breed: String?  // nil hides the line
    let lastSeenText: String  // "Nov 18, 2025"
    let placeText: String  // address, "52.2297° N, 21.0122° E", or "Warszawa ±5 km"
    var distanceText: String?  // "2.3 km away" when located
    let rewardText: String?  // "Reward 500 PLN"
    let excerpt: String?  // description shortened to ~140 characters
    var reportAgeText: String = ""  // "Reported 3 days ago" / "Zgłoszono 3 dni temu"
    var placeName: String?  // "Krzyki, Wrocław", "about 4 km from Burzenin"; nil → placeText
}

/// What a card slot of the landing and list pages holds: a model to render with
/// `partials/card`, or a card rendered already.
protocol CardView: Sendable {}

extension CardModel: CardView {}

/// A card already rendered from `partials/card` (see `CardFragments`): the renderer writes its
/// bytes in place of the partial.
struct RenderedCard: CardView, PrerenderedPartial {
    /// The card's HTML, escaped already.
    let html: [UInt8]

    /// The bytes for `partials/card`; nil (render normally) for any other partial.
    func prerendered(partial name: String) -> [UInt8]? {
        name == "partials/card" ? html : nil
    }
}

/// A choice in a filter `<select>`.
@TemplateFields
struct OptionModel: Sendable {
    let value: String
    let label: String
    let selected: Bool
}

/// A hidden form field that keeps state (location, range) across filter submits.
@TemplateFields
struct HiddenField: Sendable {
    let name: String
    let value: String
}

/// Previous/next links of the list.
@TemplateFields
struct PaginationModel: Sendable {
    let previousURL: String?
    let nextURL: String?
    let summary: String  // "Page 2 of 3"
}

/// `/` landing page.
@TemplateFields
struct LandingPageModel: Sendable {
    let layout: LayoutModel
    let banner: BannerModel?
    let staleNotice: String?  // "Showing saved data from 3 minutes ago: the service is not answering."
    let cards: [any CardView]
    let hasCards: Bool
    let emptyMessage: String  // shown when `hasCards` is false
    let viewAllURL: String  // /pets keeping the location
    let nearbyText: String?  // "Within 10 km of you" when located
}

/// `/pets` list page.
@TemplateFields
struct ListPageModel: Sendable {
    let layout: LayoutModel
    let banner: BannerModel?
    let staleNotice: String?
    let heading: String  // "Lost and found pets"
    let resultSummary: String  // "24 pets" / "3 missing cats within 15 km"
    let mapURL: String  // "Map": /map with the same filters and location
    let cards: [any CardView]
    let hasCards: Bool
    let emptyMessage: String
    let clearFiltersURL: String?  // when filters are active
    let statusOptions: [OptionModel]  // first option value "" = any
    let speciesOptions: [OptionModel]
    let sortOptions: [OptionModel]  // nearest only when located
    let hiddenFields: [HiddenField]  // lat, lng, range…
    let pagination: PaginationModel?  // nil when one page
}

/// A label/value row on the details page; `href` makes the value a link (tel:, mailto:, map).
@TemplateFields
struct DetailRow: Sendable {
    let label: String
    let value: String
    let href: String?
    /// A `data-testid` for the value (the place name's `place-name`).
    var testID: String?
}

/// `/pets/{id}` details page.
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
    /// `/pets/{id}/matches.atom` for a lost or found pet with coordinates; nil otherwise.
    var matchesFeedURL: String?
}

/// `/pets/{id}/poster`: the printable poster (docs/poster.md).
@TemplateFields
struct PosterPageModel: Sendable {
    let layout: LayoutModel
    let id: String
    let headline: String  // "LOST" / "ZAGINĘŁA", agreeing with the pet's sex
    let statusClass: String
    let name: String
    let kind: String  // "Dog · Golden Retriever"
    let photoURL: String?  // the 1280 variant; nil → no photo block
    let photoAlt: String
    let sexText: String
    let ageText: String
    let placeText: String  // the place name, else the address or coordinates
    let lastSeenText: String
    let description: String?  // shortened to ~280 characters
    let rewardText: String?
    let phoneText: String?  // in large type
    let emailText: String?
    let qrPath: String?  // SVG path data of the QR code's dark modules
    let qrSize: Int  // the SVG viewBox side, in modules
    let shareURL: String  // what the QR code opens, printed under it
    let detailsURL: String  // back to the details page (screen only)
    let qrLabel: String  // the QR code's accessible name
}

/// Every error page (400, 404, 405, 502, 504, 500).
@TemplateFields
struct ErrorPageModel: Sendable {
    let layout: LayoutModel
    let status: Int
    let heading: String  // "Unable to load data"
    let message: String  // "Unable to load data. Please try again later."
    let retryURL: String?  // the same URL, for 502/504
    let listURL: String
    let homeURL: String
}
