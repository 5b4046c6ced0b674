import Foundation
import PetDomain

/// Turning validated announcements into card and detail view models (product-spec §3).
extension Announcement {
    /// "Dog", "Cat", …
    var speciesLabel: String { species.displayName }

    /// "Photo of Max, a dog".
    var photoAlt: String {
        "Photo of \(displayName), a \(species.displayName.lowercased())"
    }

    /// The description shortened at a word boundary to about `limit` characters, with an ellipsis.
    func excerpt(limit: Int = 140) -> String? {
        guard let text = description?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
        let flattened = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        guard flattened.count > limit else { return flattened }
        let cut = flattened.prefix(limit)
        let atWord = cut.lastIndex(of: " ").map { cut[..<$0] } ?? cut
        return atWord.trimmingCharacters(in: .whitespacesAndNewlines.union(.punctuationCharacters)) + "…"
    }

    /// The card for lists, with the distance when the visitor is located.
    func card(origin: Coordinate?, location: VisitorLocation) -> CardModel {
        let links = PhotoLinks(photo, width: 640)
        return CardModel(
            id: id,
            detailURL: QueryString.url(Route.details(id: id).path, location.linkItems),
            name: displayName,
            speciesLabel: speciesLabel,
            statusLabel: status.label,
            statusClass: status.rawValue,
            photoURL: links?.src,
            photoSrcset: links?.srcset,
            photoAlt: photoAlt,
            breed: breed,
            lastSeenText: Format.date(lastSeenDate),
            placeText: Format.place(place),
            distanceText: origin.flatMap { distanceKm(from: $0) }.map { Format.distance(km: $0) },
            rewardText: reward.map(Format.rewardBadge),
            excerpt: excerpt()
        )
    }

    /// OpenStreetMap with a marker at the coordinates; nil for city-only places.
    var mapURL: String? {
        place.coordinate.map(Format.mapLink)
    }

    /// "missing dog", "found cat", for titles and share text.
    var statusPhrase: String {
        "\(status.rawValue) \(species.displayName.lowercased())"
    }

    /// The label/value rows of the details page, every optional shown as "—" when absent.
    func detailRows(origin: Coordinate?) -> [DetailRow] {
        var rows: [DetailRow] = [
            DetailRow(label: "Status", value: status.label, href: nil),
            DetailRow(label: "Species", value: speciesLabel, href: nil),
            DetailRow(label: "Breed", value: Format.optional(breed), href: nil),
            DetailRow(label: "Sex", value: Format.sex(sex), href: nil),
            DetailRow(label: "Age", value: Format.age(age), href: nil),
            DetailRow(label: "Last seen", value: Format.date(lastSeenDate), href: nil),
        ]
        let placeText = Format.place(place)
        // Without an address the place text is the coordinates: show them once, in their own row.
        if place.coordinate.map(Format.coordinate) != placeText {
            rows.append(DetailRow(label: "Place", value: placeText, href: nil))
        }
        if let coordinate = place.coordinate {
            rows.append(DetailRow(label: "Coordinates", value: Format.coordinate(coordinate), href: mapURL))
        }
        if let origin, let km = distanceKm(from: origin) {
            rows.append(DetailRow(label: "Distance", value: Format.distance(km: km), href: nil))
        }
        rows.append(DetailRow(label: "Microchip", value: microchipNumber.map(Format.microchip) ?? Format.missingValue, href: nil))
        rows.append(DetailRow(label: "Reward", value: reward.map(Format.rewardBadge) ?? Format.missingValue, href: nil))
        // Phone and email are shown (as links) in the template's contact section, not twice here.
        rows.append(DetailRow(label: "Contact", value: Format.optional(contactName), href: nil))
        return rows
    }
}
