import Mustache

// View models of the map (docs/map.md): the `/map` page, its places, and the details page's small map.

/// `/map`: the matching announcements as pins, and as a list of places (`Templates/map.mustache`,
/// rendered by `PageHandlers.map`).
@TemplateFields
struct MapPageModel: Sendable {
    let layout: LayoutModel
    let banner: BannerModel?
    let staleNotice: String?
    let heading: String  // "Lost and found pets on the map"
    let resultSummary: String  // "24 pets" / "3 pets within 15 km of you"
    let listURL: String  // "List": /pets with the same query
    let mapLabel: String  // "Map of 24 pets" (the map region's accessible name)
    let tileURL: String  // our tile route as Leaflet's template
    let visitorLatitude: String?  // the visitor's position and range circle, when located
    let visitorLongitude: String?
    let rangeMeters: String?
    let places: [MapPlaceModel]
    let hasPlaces: Bool
    let emptyMessage: String
}

/// One announcement on `/map`: its list entry, which the map script also shows as its pin's popup.
@TemplateFields
struct MapPlaceModel: Sendable {
    let card: CardModel  // name, badge, species, last seen, place, distance, details link
    let thumbnailURL: String?  // the 320 px variant; nil → placeholder
    let latitude: String?  // nil for a city-only place: listed, but no pin
    let longitude: String?
    let mapURL: String?  // "Show on the map" (OpenStreetMap)
}

/// The details page's small map with the pet's pin.
@TemplateFields
struct PinMapModel: Sendable {
    let latitude: String
    let longitude: String
    let statusClass: String
    let label: String  // "Map of where Max was last seen"
    let tileURL: String
}

extension MapPageModel: ViewModel {}
