import HTTPTypes
import Mustache
import Testing

@testable import WebApp

/// The hand-written `MustacheParent` lookups must answer every stored field, with the same value
/// Mirror would find (a field added to a view model but not to its switch would silently render empty).
@Suite("View model lookups")
struct PageModelLookupTests {
    static let layout = LayoutModel(
        pageTitle: "t",
        metaDescription: "d",
        canonicalURL: "https://x/c",
        ogTitle: "ot",
        ogDescription: "od",
        ogImage: "https://x/i.png",
        ogType: "website",
        twitterCard: "summary",
        homeURL: "/",
        listURL: "/pets",
        mapURL: "/map",
        isHome: true,
        isList: false,
        isMap: false,
        hasMap: true,
        locationState: "unknown"
    )
    static let card = CardModel(
        id: "1",
        detailURL: "/pets/1",
        name: "Max",
        speciesLabel: "Dog",
        statusLabel: "MISSING",
        statusClass: "missing",
        photoURL: "/images/a.svg",
        photoSrcset: "/images/a.jpg?w=320 320w",
        photoAlt: "Photo",
        breed: "Beagle",
        lastSeenText: "Nov 18, 2025",
        placeText: "Warsaw",
        distanceText: "1.0 km away",
        rewardText: "Reward 5 PLN",
        excerpt: "e"
    )

    static let pin = PinMapModel(latitude: "52.2", longitude: "21.0", statusClass: "found", label: "l", tileURL: "/tiles/{z}/{x}/{y}.png")
    static let place = MapPlaceModel(card: card, thumbnailURL: "/p", latitude: "52.2", longitude: "21.0", mapURL: "https://www.openstreetmap.org/")

    static let models: [any Sendable] = [
        layout,
        card,
        BannerModel(title: "a", message: "b", tryAgainURL: "c", dismissURL: "d"),
        OptionModel(value: "v", label: "l", selected: true),
        HiddenField(name: "n", value: "v"),
        PaginationModel(previousURL: "p", nextURL: "n", summary: "s"),
        DetailRow(label: "l", value: "v", href: "h"),
        LandingPageModel(
            layout: layout,
            banner: nil,
            staleNotice: "s",
            cards: [card],
            hasCards: true,
            emptyMessage: "e",
            viewAllURL: "/pets",
            nearbyText: "n"
        ),
        ListPageModel(
            layout: layout,
            banner: nil,
            staleNotice: nil,
            heading: "h",
            resultSummary: "r",
            mapURL: "/map",
            cards: [card],
            hasCards: true,
            emptyMessage: "e",
            clearFiltersURL: "c",
            statusOptions: [],
            speciesOptions: [],
            sortOptions: [],
            hiddenFields: [],
            pagination: nil
        ),
        DetailsPageModel(
            layout: layout,
            staleNotice: nil,
            id: "1",
            name: "n",
            statusLabel: "s",
            statusClass: "c",
            rewardText: "r",
            photoURL: "p",
            photoSrcset: "s",
            photoFullURL: "f",
            photoAlt: "a",
            subtitle: "s",
            rows: [],
            description: "d",
            mapURL: "m",
            pinMap: Self.pin,
            phoneHref: "tel:1",
            phoneText: "1",
            emailHref: "mailto:a@b.c",
            emailText: "a@b.c",
            shareURL: "u",
            shareTitle: "t",
            backURL: "b"
        ),
        pin,
        place,
        MapPageModel(
            layout: layout,
            banner: nil,
            staleNotice: nil,
            heading: "h",
            resultSummary: "r",
            listURL: "/pets",
            mapLabel: "m",
            tileURL: "/tiles/{z}/{x}/{y}.png",
            visitorLatitude: "52.2",
            visitorLongitude: "21.0",
            rangeMeters: "15000",
            places: [place],
            hasPlaces: true,
            emptyMessage: "e"
        ),
        ErrorPageModel(layout: layout, status: 404, heading: "h", message: "m", retryURL: "r", listURL: "l", homeURL: "h"),
    ]

    @Test(arguments: 0..<models.count)
    func every_field_is_reachable_by_name_with_the_mirrored_value(index: Int) throws {
        let model = Self.models[index]
        let parent = try #require(model as? any MustacheParent, "\(type(of: model)) is not a MustacheParent")
        for child in Mirror(reflecting: model).children {
            let name = try #require(child.label)
            let mirrored = "\(child.value)"
            let looked = parent.child(named: name)
            let optionalNil = Mirror(reflecting: child.value).displayStyle == .optional && Mirror(reflecting: child.value).children.isEmpty
            if optionalNil {
                #expect(looked == nil, "\(type(of: model)).\(name)")
            } else {
                let found = try #require(looked, "\(type(of: model)).\(name) is not answered")
                let unwrapped =
                    Mirror(reflecting: child.value).displayStyle == .optional
                    ? "\(Mirror(reflecting: child.value).children.first?.value ?? "")" : mirrored
                #expect("\(found)" == unwrapped, "\(type(of: model)).\(name)")
            }
        }
        #expect(parent.child(named: "noSuchField") == nil)
    }
}
