import Foundation
import MicroHTTP
import PetDomain

/// The optional `lat`/`lng`/`range` filter of `GET /api/v1/announcements`, validated the way the
/// backend validates it (docs/upstream.md §1): each parameter in turn, then the lat/lng pairing; range
/// defaults to 5 km and is ignored without a location. Messages follow the backend's wording.
struct LocationQuery: Sendable, Equatable {
    /// The centre of the search.
    var center: Coordinate
    /// Radius in whole kilometres; items strictly closer than this match.
    var rangeKm: Int

    /// The backend's default radius when lat/lng come without range.
    static let defaultRangeKm = 5

    /// A rejected parameter: which one and why, for the 400 body.
    struct ParameterError: Error, Equatable {
        var field: String
        var message: String
    }

    /// Parses the query; nil when no location was asked for.
    static func parse(_ query: QueryItems) throws(ParameterError) -> LocationQuery? {
        let lat = try coordinate(query["lat"], name: "lat", limit: 90)
        let lng = try coordinate(query["lng"], name: "lng", limit: 180)
        let range = try rangeKm(query["range"])
        switch (lat, lng) {
        case (nil, nil):
            return nil
        case (.some, nil):
            throw ParameterError(field: "lng", message: "Parameter 'lng' is required when 'lat' is provided")
        case (nil, .some):
            throw ParameterError(field: "lat", message: "Parameter 'lat' is required when 'lng' is provided")
        case let (.some(latitude), .some(longitude)):
            guard let center = Coordinate(latitude: latitude, longitude: longitude) else {
                // Unreachable after the range checks above; kept so a change there cannot crash.
                throw ParameterError(field: "lat", message: "Parameter 'lat' must be between -90 and 90")
            }
            return LocationQuery(center: center, rangeKm: range ?? defaultRangeKm)
        }
    }

    /// Whether a row lies inside the radius; rows with impossible coordinates lie nowhere.
    func contains(_ row: DemoRow) -> Bool {
        guard let place = row.coordinate else { return false }
        return center.distanceKm(to: place) < Double(rangeKm)
    }

    /// One of lat/lng: a finite decimal number within ±limit. An empty value counts as
    /// "not a number" rather than "absent", so `?lat=&lng=` is a 400, not an unfiltered list.
    private static func coordinate(_ raw: String?, name: String, limit: Double) throws(ParameterError) -> Double? {
        guard let raw else { return nil }
        guard let value = number(raw) else {
            throw ParameterError(field: name, message: "Parameter '\(name)' must be a valid number")
        }
        guard (-limit...limit).contains(value) else {
            let bound = Int(limit)
            throw ParameterError(field: name, message: "Parameter '\(name)' must be between -\(bound) and \(bound)")
        }
        return value
    }

    /// The radius: a whole, positive number of kilometres (`range=2.5` is rejected, as upstream).
    private static func rangeKm(_ raw: String?) throws(ParameterError) -> Int? {
        guard let raw else { return nil }
        guard let value = number(raw) else {
            throw ParameterError(field: "range", message: "Parameter 'range' must be a valid number")
        }
        guard value == value.rounded() else {
            throw ParameterError(field: "range", message: "Parameter 'range' must be an integer")
        }
        guard value != 0 else {
            throw ParameterError(field: "range", message: "Parameter 'range' must be greater than zero")
        }
        // Above Int's range is still "a positive integer"; clamp rather than trap.
        guard value > 0 else {
            throw ParameterError(field: "range", message: "Parameter 'range' must be a positive number")
        }
        return value >= Double(Int32.max) ? Int(Int32.max) : Int(value)
    }

    /// A finite decimal number, surrounding spaces allowed (as JavaScript's `Number`).
    private static func number(_ raw: String) -> Double? {
        let trimmed = raw.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, let value = Double(trimmed), value.isFinite else { return nil }
        return value
    }
}
