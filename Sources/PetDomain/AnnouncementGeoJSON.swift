import Foundation

/// Announcements as RFC 7946 GeoJSON for the map page and API: a `FeatureCollection` with one `Point`
/// feature per announcement that has coordinates (`[longitude, latitude]`, WGS 84). A city-only
/// place (dialect B) has no point to show and is left out.
///
/// Properties: `id`; `name` (`null` for an unnamed pet, which a client shows its own way);
/// `status` and `species` upper-case as in our JSON API; `createdAt` (ISO 8601); `url` (the
/// details page); `photo` (a small photo, `null` without one); and `distanceKm` (one decimal, the
/// distance pages show) when an origin is given.
public enum AnnouncementGeoJSON {
    /// The links a feature carries, made by the web app (which owns its routes).
    public struct Links: Sendable {
        /// The details page of an announcement.
        public var page: @Sendable (Announcement) -> String
        /// A small photo of an announcement; nil without one.
        public var photo: @Sendable (Announcement) -> String?

        /// Links from the two functions.
        public init(page: @escaping @Sendable (Announcement) -> String, photo: @escaping @Sendable (Announcement) -> String?) {
            self.page = page
            self.photo = photo
        }
    }

    /// The `FeatureCollection` of `items`, in their order, with `distanceKm` from `origin` when given.
    public static func encode(_ items: [Announcement], origin: Coordinate?, links: Links) -> Data {
        var writer = JSONWriter()
        writer.reserve(64 + items.count * 320)
        writer.raw(#"{"type":"FeatureCollection","features":["#)
        var first = true
        for item in items {
            guard let point = item.place.coordinate else { continue }
            if !first { writer.raw(",") }
            first = false
            writer.raw(#"{"type":"Feature","geometry":{"type":"Point","coordinates":["#)
            writer.number(point.longitude)
            writer.raw(",")
            writer.number(point.latitude)
            writer.raw("]},\"properties\":{")
            writer.key("id", first: true)
            writer.string(item.id)
            writer.key("name")
            writer.string(item.petName)
            writer.key("status")
            writer.string(item.status.apiValue)
            writer.key("species")
            writer.string(item.species.apiValue)
            writer.key("createdAt")
            writer.string(Timestamp.isoString(item.createdAt))
            writer.key("placeName")
            writer.string(Format.placeName(item.nearestPlace))
            writer.key("url")
            writer.string(links.page(item))
            writer.key("photo")
            writer.string(links.photo(item))
            if let origin {
                writer.key("distanceKm")
                writer.raw(Format.oneDecimal(point.distanceKm(to: origin)))
            }
            writer.raw("}}")
        }
        writer.raw("]}")
        return Data(writer.text.utf8)
    }
}
