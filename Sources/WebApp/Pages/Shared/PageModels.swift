import Alerts
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
    /// A page with a form outside the report flow (the sighting form, the owner's page): the form styles only.
    var hasForm: Bool = false
    /// The sighting form's map to tap the place, or the owner's page with sightings to show on a map: Leaflet,
    /// without the list map's script (`Public/js/sighting.js`).
    var hasSightingMap: Bool = false
    /// The Atom feed of the page's search (`<link rel="alternate" type="application/atom+xml">`,
    /// and "Follow this search" on the list) and its title; nil on pages without a search.
    var feedURL: String?
    var feedTitle: String?
    /// The page's search has a place: its alert form is offered (an unlocated one asks for a place first).
    var alertsLocated: Bool = false
    /// Where the alert form posts (`POST /alerts`, docs/alerts.md).
    var alertsAction: String = "/alerts"
    /// The alert form's frequencies (instant chosen).
    var alertFrequencies: [ChoiceModel] = []

    /// This layout with the feed of the search of `filters` and `location`, titled after the search.
    func withFeed(filters: ListFilters, location: VisitorLocation, texts: Texts) -> LayoutModel {
        var copy = self
        copy.feedURL = FeedSearch.link(filters: filters, location: location)
        copy.feedTitle = texts(.feedHeadTitle, ("title", filters.title(texts)))
        copy.alertsLocated = location.origin != nil
        copy.alertFrequencies = AlertHandlers.frequencyChoices(texts: texts, chosen: .instant)
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
