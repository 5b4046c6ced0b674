import Foundation

extension Place {
    /// The coordinate key pairs of the dialects, in the order they are tried (docs/upstream.md §1):
    /// A `locationLatitude/locationLongitude`, C `latitude/longitude`; D's nested `location` is read after.
    private static let flatKeyPairs = [("locationLatitude", "locationLongitude"), ("latitude", "longitude")]

    /// Reads the place of an upstream object (docs/upstream.md §2 "place").
    ///
    /// Coordinates win when present; they must be complete and in range, else the item is invalid —
    /// even when a city name is also given, because half or out-of-range coordinates mean corrupt data.
    /// Without coordinates, dialect B's `location` string is a city with an optional `locationRadius`.
    /// The radius is only kept for a city: with coordinates the point itself is the better answer.
    static func decode(from object: JSONValue) -> (place: Place?, failure: String?, radiusWarning: String?) {
        let nested = object["location"]
        var pairs: [(JSONValue?, JSONValue?, String)] = flatKeyPairs.map { latitudeKey, longitudeKey in
            (object[latitudeKey], object[longitudeKey], latitudeKey)
        }
        if case .object = nested {
            pairs.append((nested?["latitude"], nested?["longitude"], "location.latitude"))
        }
        for (latitudeValue, longitudeValue, label) in pairs {
            let latitude = latitudeValue?.present
            let longitude = longitudeValue?.present
            if latitude == nil, longitude == nil { continue }
            guard let latitude, let longitude else {
                return (nil, "\(label): only one of latitude/longitude given", nil)
            }
            guard let latitudeDegrees = latitude.double, let longitudeDegrees = longitude.double else {
                return (nil, "\(label): coordinates are not numbers", nil)
            }
            guard let coordinate = Coordinate(latitude: latitudeDegrees, longitude: longitudeDegrees) else {
                return (nil, "\(label): coordinates out of range (\(latitudeDegrees), \(longitudeDegrees))", nil)
            }
            let address = nested?["address"]?.text ?? nested?.text
            return (.coordinates(coordinate, address: address), nil, nil)
        }
        guard case .string = nested, let city = nested?.text else {
            return (nil, "no coordinates and no city", nil)
        }
        let (radius, warning) = radiusKm(object["locationRadius"])
        return (.city(name: city, radiusKm: radius), nil, warning)
    }

    /// A positive whole number of kilometres, or nil plus a warning when something else was sent.
    private static func radiusKm(_ value: JSONValue?) -> (Int?, String?) {
        guard let value = value?.present else { return (nil, nil) }
        if let radius = value.integer, radius > 0 { return (radius, nil) }
        return (nil, "locationRadius is not a positive whole number: '\(TextNormalization.excerpt(value.logText))'")
    }
}

extension JSONValue {
    /// This value, or nil when it means "absent": `null` or a blank string (docs/upstream.md §2:
    /// an empty optional is nil; tolerate explicit nulls, §1).
    var present: JSONValue? {
        switch self {
        case .null: return nil
        case .string(let raw):
            // A visible ASCII first byte proves the string is not blank without trimming it.
            if let first = raw.utf8.first, first > 0x20, first < 0x7F { return self }
            return TextNormalization.trimmed(raw).isEmpty ? nil : self
        default: return self
        }
    }

    /// A short rendering for log details.
    var logText: String {
        switch self {
        case .null: "null"
        case .bool(let flag): flag ? "true" : "false"
        case .number(let lexeme): lexeme
        case .string(let text): text
        case .array: "[…]"
        case .object: "{…}"
        }
    }
}
