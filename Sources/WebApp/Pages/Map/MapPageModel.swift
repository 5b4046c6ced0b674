import Mustache

// View models of the map (docs/map.md): the `/map` page, its places, and the details page's small map.

/// `/map`: the matching announcements as pins, and as a list of places (`Templates/map.mustache`,
/// rendered by `PageHandlers.map`).
@TemplateFields
package struct MapPageModel: Sendable {
    package let layout: LayoutModel
    package let banner: BannerModel?
    package let staleNotice: String?
    package let heading: String  // "Lost and found pets on the map"
    package let resultSummary: String  // "24 pets" / "3 pets within 15 km of you"
    package let listURL: String  // "List": /pets with the same query
    package let mapLabel: String  // "Map of 24 pets" (the map region's accessible name)
    package let tileURL: String  // our tile route as Leaflet's template
    package let visitorLatitude: String?  // the visitor's position and range circle, when located
    package let visitorLongitude: String?
    package let rangeMeters: String?
    package let places: [MapPlaceModel]
    package let hasPlaces: Bool
    package let emptyMessage: String
}

/// One announcement on `/map`: its list entry, which the map script also shows as its pin's popup.
@TemplateFields
package struct MapPlaceModel: Sendable {
    package let card: CardModel  // name, badge, species, last seen, place, distance, details link
    package let thumbnailURL: String?  // the 320 px variant; nil → placeholder
    package let latitude: String?  // nil for a city-only place: listed, but no pin
    package let longitude: String?
    package let mapURL: String?  // "Show on the map" (OpenStreetMap)
}

/// The details page's small map with the pet's pin.
@TemplateFields
package struct PinMapModel: Sendable {
    package let latitude: String
    package let longitude: String
    package let statusClass: String
    package let label: String  // "Map of where Max was last seen"
    package let tileURL: String
}

extension MapPageModel: ViewModel {}
