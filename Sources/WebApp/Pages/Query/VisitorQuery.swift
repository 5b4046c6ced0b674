import Foundation
import HTTPTypes
import MicroHTTP
import PetDomain

/// A query parameter with a bad value: which one and why (answered 400, docs/upstream.md §4).
struct QueryProblem: Error, Equatable, Sendable {
    /// The parameter's name, e.g. `lat`.
    let parameter: String
    /// Why it is wrong: a catalog text (`{name}` is the parameter), in words a visitor understands.
    let reason: TextKey

    /// The reason in `texts`' language.
    func message(_ texts: Texts) -> String {
        texts(reason, ("name", parameter))
    }
}

/// A bad query parameter and the language of the page that says so.
struct LocatedProblem: Error, Sendable {
    let problem: QueryProblem
    let language: PageLanguage
}

/// The visitor's location as the query string states it (docs/upstream.md §4 "Location from the query string").
struct VisitorLocation: Equatable, Sendable {
    /// Where the visitor is, when `lat` and `lng` were given.
    var origin: Coordinate?
    /// `location=denied`: the browser refused; show the banner.
    var denied: Bool
    /// The search radius in km when located (the page's default when `range` is absent).
    var rangeKm: Int?
    /// Whether `range` was given explicitly (then links keep it).
    var rangeGiven: Bool
    /// The coordinates as links write them (4 decimals), or the page-shell markers in their place.
    var coordinateText: (latitude: String, longitude: String)?
    /// The page language, which links carry along with the location when the URL chose it.
    var language: PageLanguage = .standard

    static func == (lhs: VisitorLocation, rhs: VisitorLocation) -> Bool {
        lhs.origin == rhs.origin && lhs.denied == rhs.denied && lhs.rangeKm == rhs.rangeKm && lhs.rangeGiven == rhs.rangeGiven
            && lhs.coordinateText?.latitude == rhs.coordinateText?.latitude && lhs.coordinateText?.longitude == rhs.coordinateText?.longitude
            && lhs.language == rhs.language
    }

    /// Nobody knows where the visitor is.
    static let unknown = VisitorLocation(origin: nil, denied: false, rangeKm: nil, rangeGiven: false, coordinateText: nil)

    /// Nobody knows where the visitor is; the page is in `language`.
    static func unknown(_ language: PageLanguage) -> VisitorLocation {
        var location = VisitorLocation.unknown
        location.language = language
        return location
    }

    /// This visitor state with the page in `language`.
    func with(_ language: PageLanguage) -> VisitorLocation {
        var copy = self
        copy.language = language
        return copy
    }

    /// Parses `lat`, `lng`, `range` and `location` of `request`, with its page language; throws the
    /// first bad parameter, with the language to say it in.
    static func parse(_ request: Request, defaultRangeKm: Int) throws(LocatedProblem) -> VisitorLocation {
        let language: PageLanguage
        do {
            language = try PageLanguage.of(request)
        } catch {
            throw LocatedProblem(problem: error, language: PageLanguage.fromHeader(request))
        }
        do {
            var location = try parse(request.query, defaultRangeKm: defaultRangeKm)
            location.language = language
            return location
        } catch {
            throw LocatedProblem(problem: error, language: language)
        }
    }

    /// Parses `lat`, `lng`, `range` and `location`; throws the first bad parameter.
    static func parse(_ query: QueryItems, defaultRangeKm: Int) throws(QueryProblem) -> VisitorLocation {
        let lat = try single("lat", in: query)
        let lng = try single("lng", in: query)
        let rangeText = try single("range", in: query)
        let locationText = try single("location", in: query)
        var result = VisitorLocation.unknown
        switch (lat, lng) {
        case (nil, nil):
            break
        case (.some, nil):
            throw QueryProblem(parameter: "lng", reason: .queryLngMissing)
        case (nil, .some):
            throw QueryProblem(parameter: "lat", reason: .queryLatMissing)
        case (.some(let latText), .some(let lngText)):
            guard let latitude = decimalDegrees(latText), (-90.0...90.0).contains(latitude) else {
                throw QueryProblem(parameter: "lat", reason: .queryLat)
            }
            guard let longitude = decimalDegrees(lngText), (-180.0...180.0).contains(longitude) else {
                throw QueryProblem(parameter: "lng", reason: .queryLng)
            }
            // Rounded to the 4 decimals (about 11 m) the location script sends and links carry, so
            // distances, links and the rendered-page key all agree (docs/scaling.md).
            result.origin = Coordinate(latitude: VisitorLocation.fourDecimals(latitude), longitude: VisitorLocation.fourDecimals(longitude))
            // Their text for links, made once: every link on a located page carries it.
            result.coordinateText = (URLText.fourDecimals(latitude), URLText.fourDecimals(longitude))
        }
        if let rangeText {
            guard let range = wholeKilometres(rangeText) else {
                throw QueryProblem(parameter: "range", reason: .queryRange)
            }
            result.rangeGiven = true
            result.rangeKm = result.origin == nil ? nil : range
        } else if result.origin != nil {
            result.rangeKm = defaultRangeKm
        }
        if let locationText {
            guard locationText == "denied" else {
                throw QueryProblem(parameter: "location", reason: .queryLocation)
            }
            // Coordinates win over a stale "denied": the visitor is located after all.
            result.denied = result.origin == nil
        }
        return result
    }

    /// The value of `name`; nil when absent or empty (an "any" choice of a form); a repeated name is a problem.
    static func single(_ name: String, in query: QueryItems) throws(QueryProblem) -> String? {
        // One pass, no arrays: this runs for several names on every page request.
        var found: String?
        for item in query.items where item.name == name {
            guard found == nil else {
                throw QueryProblem(parameter: name, reason: .queryRepeated)
            }
            found = item.value
        }
        guard var value = found else { return nil }
        // Trimmed by hand: Foundation's trimmingCharacters bridged through NSString on every
        // parameter of every request (measured on the located path).
        if let first = value.utf8.first, let last = value.utf8.last,
            first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") || last == UInt8(ascii: " ") || last == UInt8(ascii: "\t")
        {
            value = String(value.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
        }
        return value.isEmpty ? nil : value
    }

    /// `value` rounded to 4 decimals, like `URLText.fourDecimals`.
    static func fourDecimals(_ value: Double) -> Double {
        (value * 10_000).rounded() / 10_000
    }
}
