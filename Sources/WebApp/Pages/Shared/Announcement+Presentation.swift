import Foundation
import PetDomain

/// Turning validated announcements into card and detail view models (docs/upstream.md §3), in the
/// page's language.
extension Announcement {
    /// The description shortened at a word boundary to about `limit` characters, with an ellipsis.
    func excerpt(limit: Int = 140) -> String? {
        guard let text = description?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
        return Self.shortened(text, limit: limit)
    }

    /// The longest pet name and reward a card shows; longer ones end in "…" there and are whole on
    /// the details page (names have no length limit upstream: docs/upstream.md §2 petName).
    static let cardNameLimit = 40
    static let cardRewardLimit = 48

    /// `text` on one line, cut at a word before `limit` characters with "…" when longer.
    static func shortened(_ text: String, limit: Int) -> String {
        let flattened = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        guard flattened.count > limit else { return flattened }
        let cut = flattened.prefix(limit)
        let atWord = cut.lastIndex(of: " ").map { cut[..<$0] } ?? cut
        let kept = atWord.trimmingCharacters(in: .whitespacesAndNewlines.union(.punctuationCharacters))
        return (kept.isEmpty ? String(cut) : kept) + "…"
    }

    /// The card for lists, with the distance when the visitor is located and the report's age on `day`.
    func card(origin: Coordinate?, location: VisitorLocation, texts: Texts, day: Int) -> CardModel {
        let links = PhotoLinks(photo, width: 640)
        let name = Self.shortened(texts.name(self), limit: Self.cardNameLimit)
        return CardModel(
            id: id,
            detailURL: QueryString.url(Route.details(id: id).path, location.linkItems),
            name: name,
            speciesLabel: texts.species(species),
            statusLabel: texts.status(status),
            statusClass: status.rawValue,
            photoURL: links?.src,
            photoSrcset: links?.srcset,
            photoAlt: texts.photoAlt(name: name, species: species),
            breed: breed,
            lastSeenText: texts.date(lastSeenDate),
            placeText: texts.place(place),
            distanceText: origin.flatMap { distanceKm(from: $0) }.map { texts.distance(km: $0) },
            rewardText: texts.reward(of: self).map { Self.shortened($0, limit: Self.cardRewardLimit) },
            excerpt: excerpt(),
            reportAgeText: texts.reportAge(DayClock.age(of: createdAt, on: day)),
            placeName: texts.placeName(nearestPlace)
        )
    }

    /// OpenStreetMap with a marker at the coordinates; nil for city-only places.
    var mapURL: String? {
        place.coordinate.map(Format.mapLink)
    }

    /// The label/value rows of the details page, every optional shown as "—" when absent.
    func detailRows(origin: Coordinate?, texts: Texts) -> [DetailRow] {
        var rows: [DetailRow] = [
            DetailRow(label: texts(.rowStatus), value: texts.status(status), href: nil),
            DetailRow(label: texts(.rowSpecies), value: texts.species(species), href: nil),
            DetailRow(label: texts(.rowBreed), value: Format.optional(breed), href: nil),
            DetailRow(label: texts(.rowSex), value: texts.sex(sex), href: nil),
            DetailRow(label: texts(.rowAge), value: texts.age(age), href: nil),
            DetailRow(label: texts(.rowLastSeen), value: texts.date(lastSeenDate), href: nil),
        ]
        let placeText = texts.place(place)
        // Without an address the place text is the coordinates: show them once, in their own row.
        // With a place name, that is the place and an address gets its own row.
        let hasAddress = place.coordinate.map(texts.coordinate) != placeText
        if let name = texts.placeName(nearestPlace) {
            rows.append(DetailRow(label: texts(.rowPlace), value: name, href: nil, testID: "place-name"))
            if hasAddress { rows.append(DetailRow(label: texts(.rowAddress), value: placeText, href: nil)) }
        } else if hasAddress {
            rows.append(DetailRow(label: texts(.rowPlace), value: placeText, href: nil))
        }
        if let coordinate = place.coordinate {
            rows.append(DetailRow(label: texts(.rowCoordinates), value: texts.coordinate(coordinate), href: mapURL))
        }
        if let origin, let km = distanceKm(from: origin) {
            rows.append(DetailRow(label: texts(.rowDistance), value: texts.distance(km: km), href: nil))
        }
        rows.append(DetailRow(label: texts(.rowMicrochip), value: microchipNumber.map(Format.microchip) ?? Format.missingValue, href: nil))
        rows.append(DetailRow(label: texts(.rowReward), value: texts.reward(of: self) ?? Format.missingValue, href: nil))
        // Phone and email are shown (as links) in the template's contact section, not twice here;
        // the row names the contact person, so it is there only when the data has one (dialect D).
        if let contactName {
            rows.append(DetailRow(label: texts(.rowContactName), value: contactName, href: nil))
        }
        return rows
    }
}
