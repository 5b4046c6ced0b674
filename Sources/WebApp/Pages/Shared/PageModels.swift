import Alerts
import CompiledTemplates
import Mustache

// View models: every page is rendered from one of these structs. All text is formatted in Swift
// (docs/upstream.md §3); templates only place values, always through `{{ }}` (HTML-escaped).
// `@TemplateFields` gives each its lookup by name from these declarations (no list to keep in step).

/// What every page's layout needs: titles, share tags, navigation and the location flow state.
@TemplateFields
package struct LayoutModel: Sendable {
    /// `<title>` text, e.g. "Max — missing dog in Warsaw · PetSpot".
    package let pageTitle: String
    /// `<meta name="description">`.
    package let metaDescription: String
    /// Absolute canonical URL (`<link rel=canonical>` and `og:url`), when a public base URL is known.
    package let canonicalURL: String?
    /// Open Graph / Twitter card values; `ogImage` is an absolute URL or nil.
    package let ogTitle: String
    package let ogDescription: String
    package let ogImage: String?
    /// "website" or "article".
    package let ogType: String
    /// `summary_large_image` when there is an image, else `summary`.
    package let twitterCard: String
    /// Navigation links, keeping the visitor's location.
    package let homeURL: String
    package let listURL: String
    package let mapURL: String
    /// True on the landing / list / map page (for `aria-current`).
    package let isHome: Bool
    package let isList: Bool
    package let isMap: Bool
    /// The page shows a map: the layout loads Leaflet, markercluster and the map script.
    package let hasMap: Bool
    /// The location state the script reads from `<body data-location="…">`: known, denied or unknown.
    package let locationState: String
    /// The language switch: this page and query in English and in Polish (`lang=`),
    /// and which one is shown.
    package var englishURL: String = "/?lang=en"
    package var polishURL: String = "/?lang=pl"
    package var isEnglish: Bool = true
    package var isPolish: Bool = false
    /// `<link rel="alternate" hreflang="en|pl|x-default">`: absolute when a base URL is known.
    package var alternateEnglishURL: String = "/?lang=en"
    package var alternatePolishURL: String = "/?lang=pl"
    package var alternateDefaultURL: String = "/"
    /// "Report a pet" in the navigation (keeping the location, which prefills the form's place).
    package var reportURL: String = "/report"
    /// The same form with "found" chosen (`?status=found`).
    package var reportFoundURL: String = "/report?status=found"
    /// True on the report pages (`aria-current`), which load Leaflet and the report script.
    package var isReport: Bool = false
    /// A page with a form outside the report flow (the sighting form, the owner's page): the form styles only.
    package var hasForm: Bool = false
    /// The sighting form's map to tap the place, or the owner's page with sightings to show on a map: Leaflet,
    /// without the list map's script (`Public/js/sighting.js`).
    package var hasSightingMap: Bool = false
    /// The Atom feed of the page's search (`<link rel="alternate" type="application/atom+xml">`,
    /// and "Follow this search" on the list) and its title; nil on pages without a search.
    package var feedURL: String?
    package var feedTitle: String?
    /// The page's search has a place: its alert form is offered (an unlocated one asks for a place first).
    package var alertsLocated: Bool = false
    /// Where the alert form posts (`POST /alerts`, docs/alerts.md).
    package var alertsAction: String = "/alerts"
    /// The alert form's frequencies (instant chosen).
    package var alertFrequencies: [ChoiceModel] = []

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
package struct BannerModel: Sendable {
    package let title: String  // "Location Access Needed"
    package let message: String  // "Enable location access in your browser settings to see nearby pets."
    /// Same page without `location=denied`: the script asks again from there; without JS it just reloads.
    package let tryAgainURL: String
    /// Same page without `location=denied` (the dismiss control works as a link without JS).
    package let dismissURL: String
}

/// One announcement card (landing and list).
@TemplateFields
package struct CardModel: Sendable {
    package let id: String
    package var detailURL: String  // var: card fragments put a marker after the path
    package let name: String  // "Max" or "Unnamed pet"
    package let speciesLabel: String  // "Dog"
    package let statusLabel: String  // "MISSING" | "FOUND" | "CLOSED"
    package let statusClass: String  // "missing" | "found" | "closed"
    package let photoURL: String?  // our /images/…?w=640 variant or an absolute http(s) URL; nil → placeholder
    package let photoSrcset: String?  // the 320/640/1280 variants; nil for SVG and absolute photos
    package let photoAlt: String  // "Photo of Max, a dog"
    package let breed: String?  // nil hides the line
    package let lastSeenText: String  // "Nov 18, 2025"
    package let placeText: String  // address, "52.2297° N, 21.0122° E", or "Warszawa ±5 km"
    package var distanceText: String?  // "2.3 km away" when located
    package let rewardText: String?  // "Reward 500 PLN"
    package let excerpt: String?  // description shortened to ~140 characters
    package var reportAgeText: String = ""  // "Reported 3 days ago" / "Zgłoszono 3 dni temu"
    package var placeName: String?  // "Krzyki, Wrocław", "about 4 km from Burzenin"; nil → placeText
}

/// What a card slot of the landing and list pages holds: a model to render with
/// `partials/card`, or a card rendered already.
package protocol CardView: Sendable {}

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
package struct OptionModel: Sendable {
    package let value: String
    package let label: String
    package let selected: Bool
}

/// A hidden form field that keeps state (location, range) across filter submits.
@TemplateFields
package struct HiddenField: Sendable {
    package let name: String
    package let value: String
}
