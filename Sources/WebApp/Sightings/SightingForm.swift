import Foundation
import MicroHTTP
import PetDomain
import Sightings

/// The sighting form's fields as sent, and what is wrong with them (docs/sightings.md "The form"): what the
/// finder typed is kept whatever was refused.
struct SightingFormValues: Sendable, Equatable {
    var note = ""
    /// `datetime-local` text in Warsaw time (`DayClock.zone`); empty means now.
    var seenAt = ""
    var latitude = ""
    var longitude = ""
    var place = ""
    var contact = ""

    init() {}

    init(_ form: FormBody) {
        note = form["note"] ?? ""
        seenAt = (form["seenAt"] ?? "").trimmingCharacters(in: .whitespaces)
        latitude = (form["lat"] ?? "").trimmingCharacters(in: .whitespaces)
        longitude = (form["lng"] ?? "").trimmingCharacters(in: .whitespaces)
        place = (form["place"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        contact = (form["contact"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// One refused field of the sighting form.
struct SightingFieldError: Sendable, Equatable {
    enum Field: String, Sendable {
        case note, seenAt, place, contact, photo
    }

    let field: Field
    let key: TextKey
}

/// What is wrong with a sent form: one error per refused field, in the form's order.
struct SightingRefusal: Error, Sendable {
    let errors: [SightingFieldError]
}

/// A sighting's fields checked: where, when, what, and how to reach the finder.
struct CheckedSighting: Sendable {
    let seenAt: Date
    let point: Coordinate
    let placeName: String?
    let note: String
    let contact: String?
}

enum SightingCheck {
    /// How far into the future a time may be (the finder's clock and ours differ by a little).
    static let clockSlack: TimeInterval = 5 * 60

    /// Checks `values` at `now`; `pet` names a typed place near its own (`PlaceFinder.named`).
    static func check(
        _ values: SightingFormValues,
        now: Date,
        near pet: Coordinate?,
        places: PlaceFinder?
    ) -> Result<CheckedSighting, SightingRefusal> {
        var errors: [SightingFieldError] = []
        let note = values.note.trimmingCharacters(in: .whitespacesAndNewlines)
        if note.isEmpty {
            errors.append(SightingFieldError(field: .note, key: .sightingErrorNote))
        } else if note.count > SightingRules.maxNoteLength {
            errors.append(SightingFieldError(field: .note, key: .sightingErrorNoteLength))
        }
        var seenAt = now
        if !values.seenAt.isEmpty {
            if let parsed = parseLocal(values.seenAt) {
                seenAt = parsed
                if parsed.timeIntervalSince(now) > clockSlack {
                    errors.append(SightingFieldError(field: .seenAt, key: .sightingErrorFuture))
                } else if now.timeIntervalSince(parsed) > SightingRules.maxAge {
                    errors.append(SightingFieldError(field: .seenAt, key: .sightingErrorOld))
                }
            } else {
                errors.append(SightingFieldError(field: .seenAt, key: .sightingErrorTime))
            }
        }
        var point: Coordinate?
        var placeName: String?
        if !values.place.isEmpty {
            // A typed place wins over the page's location: it is what the finder chose to say.
            if let named = places?.named(values.place, near: pet) {
                point = named.coordinate
                placeName = named.place.label
            } else {
                errors.append(SightingFieldError(field: .place, key: .sightingErrorPlaceUnknown))
            }
        } else if let lat = Double(values.latitude), let lng = Double(values.longitude), let given = Coordinate(latitude: lat, longitude: lng) {
            point = given
            placeName = places?.nearest(to: given).map(\.label)
        } else {
            errors.append(SightingFieldError(field: .place, key: .sightingErrorPlace))
        }
        let contact = values.contact
        if !contact.isEmpty, contact.count > SightingRules.maxContactLength || !(EmailRule.looksLikeAddress(contact) || looksLikePhone(contact)) {
            errors.append(SightingFieldError(field: .contact, key: .sightingErrorContact))
        }
        guard errors.isEmpty, let point else { return .failure(SightingRefusal(errors: errors)) }
        return .success(CheckedSighting(seenAt: seenAt, point: point, placeName: placeName, note: note, contact: contact.isEmpty ? nil : contact))
    }

    /// A phone number as people write one: 7 to 15 digits, with spaces, dashes, dots, brackets and a leading +.
    static func looksLikePhone(_ text: String) -> Bool {
        let digits = text.filter(\.isASCII).filter(\.isNumber).count
        let allowed =
            text.allSatisfy { $0.isNumber && $0.isASCII || " -.()".contains($0) }
            || (text.first == "+"
                && text.dropFirst().allSatisfy {
                    $0.isNumber && $0.isASCII || " -.()".contains($0)
                })
        return allowed && (7...15).contains(digits)
    }

    /// `2026-12-01T14:30` (the `datetime-local` value) in Warsaw time.
    static func parseLocal(_ text: String) -> Date? {
        let parts = text.split(whereSeparator: { $0 == "T" || $0 == " " })
        guard parts.count == 2 else { return nil }
        let day = parts[0].split(separator: "-").compactMap { Int($0) }
        let time = parts[1].split(separator: ":").compactMap { Int($0) }
        guard day.count == 3, (2...3).contains(time.count), (1...12).contains(day[1]), (1...31).contains(day[2]), (0...23).contains(time[0]),
            (0...59).contains(time[1])
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = DayClock.zone
        let components = DateComponents(year: day[0], month: day[1], day: day[2], hour: time[0], minute: time[1])
        guard let date = calendar.date(from: components), calendar.component(.day, from: date) == day[2] else { return nil }
        return date
    }

    /// `date` as a `datetime-local` value in Warsaw time.
    static func localText(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = DayClock.zone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        return String(format: "%04d-%02d-%02dT%02d:%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0, c.minute ?? 0)
    }
}
