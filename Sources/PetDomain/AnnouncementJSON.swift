import Foundation

/// Our own JSON API output (docs/upstream.md §4): the current backend's shape (dialect A), so a mobile
/// client can point at us instead of the raw backend.
///
/// Every one of the backend's 18 keys is always present, with explicit `null`s. Extra keys appear
/// only when they carry something dialect A cannot express: `contactName` (dialect D);
/// `location` (a city or address) and, for a city-only place (dialect B), `locationRadius`; and
/// `placeName` on every item (the nearest populated place in English wording, or `null`);
/// `distanceKm` on every item whenever an origin is given (then `null` for city-only places),
/// rounded to 0.1 km like the pages show it (docs/upstream.md §3). Reward is its display text
/// (`"1,500.50 PLN"`), which our decoder reads back to the same amount. `photoUrl` is what `PhotoLinks`
/// says: by default the photo as received, `null` when there is none.
public enum AnnouncementJSON {
    /// How `photoUrl` is written: the public URL of a photo, and what an item without one gets.
    public struct PhotoLinks: Sendable {
        /// The public URL of a photo.
        public var url: @Sendable (Photo) -> String
        /// The URL written for an item without a photo; nil writes `null`.
        public var placeholder: String?

        /// Links from `url`, with `placeholder` for items without a photo.
        public init(url: @escaping @Sendable (Photo) -> String, placeholder: String?) {
            self.url = url
            self.placeholder = placeholder
        }

        /// The photo exactly as received and `null` without one: the backend's convention, which
        /// our own decoder reads back unchanged.
        public static let asReceived = PhotoLinks(url: { $0.urlString }, placeholder: nil)
    }

    /// `{"data":[…]}` with items in the given order.
    public static func encodeList(_ items: [Announcement], origin: Coordinate?, photos: PhotoLinks = .asReceived) -> Data {
        Data(listText(items, origin: origin, photos: photos).utf8)
    }

    /// `encodeList`'s bytes as an array: the whole list at 50,000 items is ~30 MB, and going
    /// through `Data` to an array held it three times at once (text, `Data`, array).
    public static func encodeListBytes(_ items: [Announcement], origin: Coordinate?, photos: PhotoLinks = .asReceived) -> [UInt8] {
        Array(listText(items, origin: origin, photos: photos).utf8)
    }

    private static func listText(_ items: [Announcement], origin: Coordinate?, photos: PhotoLinks) -> String {
        var writer = JSONWriter()
        writer.reserve(16 + items.count * 640)
        writer.raw("{\"data\":[")
        for (offset, item) in items.enumerated() {
            if offset > 0 { writer.raw(",") }
            write(item, origin: origin, photos: photos, into: &writer)
        }
        writer.raw("]}")
        return writer.text
    }

    /// One announcement as a bare object, like the backend's details endpoint.
    public static func encodeDetails(_ item: Announcement, origin: Coordinate?, photos: PhotoLinks = .asReceived) -> Data {
        var writer = JSONWriter()
        write(item, origin: origin, photos: photos, into: &writer)
        return Data(writer.text.utf8)
    }

    /// `{"error":{"code":…,"message":…,"requestId":…,"field":…}}`, the backend's error body
    /// (docs/upstream.md §1); `field` only when given.
    public static func encodeError(code: String, message: String, requestID: String, field: String?) -> Data {
        var writer = JSONWriter()
        writer.raw("{\"error\":{")
        writer.key("code", first: true)
        writer.string(code)
        writer.key("message")
        writer.string(message)
        writer.key("requestId")
        writer.string(requestID)
        if let field {
            writer.key("field")
            writer.string(field)
        }
        writer.raw("}}")
        return Data(writer.text.utf8)
    }

    private static func write(_ item: Announcement, origin: Coordinate?, photos: PhotoLinks, into writer: inout JSONWriter) {
        writer.raw("{")
        writer.key("id", first: true)
        writer.string(item.id)
        writer.key("petName")
        writer.string(item.petName)
        writer.key("species")
        writer.string(item.species.apiValue)
        writer.key("breed")
        writer.string(item.breed)
        writer.key("sex")
        writer.string(item.sex.apiValue)
        writer.key("age")
        writer.integer(item.age)
        writer.key("description")
        writer.string(item.description)
        writer.key("microchipNumber")
        writer.string(item.microchipNumber)
        writer.key("locationLatitude")
        writer.number(item.place.coordinate?.latitude)
        writer.key("locationLongitude")
        writer.number(item.place.coordinate?.longitude)
        writer.key("lastSeenDate")
        writer.string(item.lastSeenDate.isoString)
        writer.key("email")
        writer.string(item.email)
        writer.key("phone")
        writer.string(item.phone)
        writer.key("photoUrl")
        writer.string(item.photo.map(photos.url) ?? photos.placeholder)
        writer.key("status")
        writer.string(item.status.apiValue)
        writer.key("reward")
        writer.string(item.reward?.displayText ?? item.rewardNote)
        writer.key("createdAt")
        writer.string(Timestamp.isoString(item.createdAt))
        writer.key("updatedAt")
        writer.string(Timestamp.isoString(item.updatedAt))
        // Only on a reunited pet (docs/sightings.md "Reunited"): the apps' decoders know no key they do not use.
        if let reunitedAt = item.reunitedAt {
            writer.key("reunitedAt")
            writer.string(Timestamp.isoString(reunitedAt))
        }
        writeExtras(item, origin: origin, into: &writer)
        writer.raw("}")
    }

    private static func writeExtras(_ item: Announcement, origin: Coordinate?, into writer: inout JSONWriter) {
        // Always present, `null` without a place (docs/place-names.md): the English page wording.
        writer.key("placeName")
        writer.string(Format.placeName(item.nearestPlace))
        if let contactName = item.contactName {
            writer.key("contactName")
            writer.string(contactName)
        }
        switch item.place {
        case .city(let name, let radiusKm):
            writer.key("location")
            writer.string(name)
            writer.key("locationRadius")
            writer.integer(radiusKm)
        case .coordinates(_, let address?):
            writer.key("location")
            writer.string(address)
        case .coordinates(_, nil):
            break
        }
        if let origin {
            writer.key("distanceKm")
            if let distance = item.distanceKm(from: origin) {
                writer.raw(Format.oneDecimal(distance))
            } else {
                writer.null()
            }
        }
    }
}
