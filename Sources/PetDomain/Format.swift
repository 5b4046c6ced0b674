import FastBytes
import Foundation

/// Presentation rules of docs/upstream.md §3, in English: pure functions from domain values to text.
///
/// Nothing here depends on the server's locale or time zone, so every visitor sees the same text.
public enum Format {
    /// What a missing optional value shows (docs/upstream.md §3).
    public static let missingValue = "—"

    private static let monthAbbreviations = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun",
        "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]

    /// English dates: `MMM dd, yyyy`.
    private static let englishDates = DateStyle(months: monthAbbreviations, monthFirst: true)

    /// `MMM dd, yyyy`, e.g. "Nov 05, 2025", straight from the calendar date (no time-zone shift).
    public static func date(_ date: CalendarDate) -> String {
        self.date(date, style: englishDates)
    }

    /// "♂ Male", "♀ Female", "? Unknown".
    public static func sex(_ sex: Sex) -> String {
        switch sex {
        case .male: "♂ Male"
        case .female: "♀ Female"
        case .unknown: "? Unknown"
        }
    }

    /// Digits grouped by three from the left with dashes ("123-456-789-012-345"); a value with
    /// anything but digits is shown as given (trimmed); an empty one as `—`.
    public static func microchip(_ raw: String) -> String {
        let value = TextNormalization.trimmed(raw)
        guard !value.isEmpty else { return missingValue }
        guard value.allSatisfy({ $0.isASCII && $0.isNumber }) else { return value }
        var grouped = ""
        for (offset, digit) in value.enumerated() {
            if offset > 0, offset % 3 == 0 { grouped.append("-") }
            grouped.append(digit)
        }
        return grouped
    }

    /// "1 year", "5 years"; 0 reads "under 1 year" (the backend stores whole years, so 0 means a
    /// young animal, not "no age"); nil or negative → `—`.
    public static func age(_ years: Int?) -> String {
        guard let years, years >= 0 else { return missingValue }
        switch years {
        case 0: return "under 1 year"
        case 1: return "1 year"
        default: return "\(years) years"
        }
    }

    /// "2.3 km away", one decimal (docs/upstream.md §3, seed 004); `—` for a negative or non-finite value.
    public static func distance(km: Double) -> String {
        guard let number = oneDecimalKilometres(km, separator: ".") else { return missingValue }
        return number + " km away"
    }

    /// The dialect B search radius, "±5 km".
    public static func radius(km: Int) -> String {
        "±\(km) km"
    }

    /// "52.2297° N, 21.0122° E": four decimals, S and W for negative values.
    public static func coordinate(_ coordinate: Coordinate) -> String {
        self.coordinate(coordinate, separator: ".", hemispheres: (north: "N", south: "S", east: "E", west: "W"))
    }

    /// The reward badge, "Reward 500 PLN".
    public static func rewardBadge(_ reward: Reward) -> String {
        "Reward " + reward.displayText
    }

    /// The trimmed value, or `—` when nil or blank.
    public static func optional(_ text: String?) -> String {
        TextNormalization.nonEmpty(text) ?? missingValue
    }

    /// The address, else the coordinates; a city with its radius ("Warszawa ±5 km") or alone.
    public static func place(_ place: Place) -> String {
        switch place {
        case .coordinates(let point, let address):
            return address ?? coordinate(point)
        case .city(let name, let radiusKm?):
            return name + " " + radius(km: radiusKm)
        case .city(let name, nil):
            return name
        }
    }

    /// "Krzyki, Wrocław" within `NearestPlace.nearbyKm` of the place, else "about 4 km from Burzenin";
    /// nil without a place (docs/place-names.md). The JSON API's `placeName`; pages word it per language.
    public static func placeName(_ place: NearestPlace?) -> String? {
        guard let place else { return nil }
        return place.isAtPlace ? place.label : "about \(place.roundedKm) km from \(place.label)"
    }

    /// The "Show on the map" target: OpenStreetMap with a marker at the point (docs/upstream.md §3 map),
    /// e.g. `https://www.openstreetmap.org/?mlat=52.22970&mlon=21.01220#map=16/52.22970/21.01220`.
    /// Five decimals (about a metre) and only digits, `-` and `.`, so it needs no escaping.
    public static func mapLink(_ coordinate: Coordinate) -> String {
        let latitude = fixed(coordinate.latitude, decimals: 5)
        let longitude = fixed(coordinate.longitude, decimals: 5)
        return "https://www.openstreetmap.org/?mlat=\(latitude)&mlon=\(longitude)#map=16/\(latitude)/\(longitude)"
    }

    /// `value` rounded half away from zero to one decimal, with a dot whatever the locale.
    static func oneDecimal(_ value: Double) -> String {
        fixed(value, decimals: 1)
    }

    /// `value` with exactly `decimals` decimals, computed in integers so that neither
    /// locale nor `printf` rounding quirks (2.25 → "2.2") show.
    static func fixed(_ value: Double, decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded(.toNearestOrAwayFromZero)
        guard scaled < 9e15 else { return String(format: "%.\(decimals)f", value) }
        let units = Int(scaled)
        return decimalText(units: units, decimals: decimals, negative: value < 0 && units > 0, trimmed: false)
    }

    /// `units` ÷ 10^`decimals` as text (`-` first when `negative`), its digits written into the
    /// string's own room: a coordinate is a small string, made without an allocation, where the
    /// joined parts cost more than the rest of a feed's title or a located page's links (callgrind;
    /// docs/performance.md "Located pages"). `trimmed` drops the fraction's trailing zeros and a bare point.
    static func decimalText(units: Int, decimals: Int, negative: Bool, trimmed: Bool) -> String {
        var divisor = 1
        for _ in 0..<decimals { divisor *= 10 }
        let whole = units / divisor
        var fraction = units % divisor
        var fractionDigits = decimals
        while trimmed, fractionDigits > 0, fraction % 10 == 0 {
            fraction /= 10
            fractionDigits -= 1
        }
        var wholeDigits = 1
        var power = 10
        while whole >= power, wholeDigits < 19 {
            wholeDigits += 1
            power = power.multipliedReportingOverflow(by: 10).partialValue
        }
        let length = (negative ? 1 : 0) + wholeDigits + (fractionDigits > 0 ? 1 + fractionDigits : 0)
        return DigitWriter.string(capacity: length) { writer in
            if negative { writer.put("-") }
            writer.put(whole, digits: wholeDigits)
            if fractionDigits > 0 {
                writer.put(".")
                writer.put(fraction, digits: fractionDigits)
            }
        }
    }
}
