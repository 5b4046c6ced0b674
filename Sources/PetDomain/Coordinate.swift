import Foundation

/// A point on Earth in decimal degrees, latitude in [-90, 90] and longitude in [-180, 180].
public struct Coordinate: Sendable, Hashable, Codable {
    /// Degrees north (negative: south).
    public var latitude: Double
    /// Degrees east (negative: west).
    public var longitude: Double

    /// Creates a coordinate; returns nil when either value is out of range or not finite.
    public init?(latitude: Double, longitude: Double) {
        guard latitude.isFinite, longitude.isFinite,
            (-90.0...90.0).contains(latitude), (-180.0...180.0).contains(longitude)
        else { return nil }
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Mean Earth radius used by the Haversine formula (IUGG), in kilometres.
    public static let earthRadiusKm = 6371.0088

    /// Great-circle distance to `other` in kilometres (Haversine; docs/upstream.md §3, seed 004).
    public func distanceKm(to other: Coordinate) -> Double {
        DistancesTo(other).km(from: self)
    }
}

/// Distances from many points to one `origin`, bit for bit `point.distanceKm(to: origin)`, with the
/// origin's cosine computed once: a located page measures each item it shows (20, a feed 50), and
/// the cosines were a sizeable part of the located answer's cycles (perf, docs/performance.md).
public struct DistancesTo {
    private static let toRadians = Double.pi / 180
    private let origin: Coordinate
    private let originCosine: Double

    public init(_ origin: Coordinate) {
        self.origin = origin
        originCosine = cos(origin.latitude * DistancesTo.toRadians)
    }

    /// The Haversine distance from `point` to the origin, in kilometres.
    @inline(__always)
    public func km(from point: Coordinate) -> Double {
        km(from: point, latitudeCosine: DistancesTo.latitudeCosine(point))
    }

    /// The same distance from a point whose latitude's cosine was computed beforehand (`MeasuredPoint`).
    @inline(__always)
    public func km(from point: MeasuredPoint) -> Double {
        km(from: point.coordinate, latitudeCosine: point.latitudeCosine)
    }

    @inline(__always)
    private func km(from point: Coordinate, latitudeCosine: Double) -> Double {
        let toRadians = DistancesTo.toRadians
        let dLat = (origin.latitude - point.latitude) * toRadians
        let dLng = (origin.longitude - point.longitude) * toRadians
        // The factors in the order `distanceKm` always multiplied them, so every result is the same double.
        let a =
            sin(dLat / 2) * sin(dLat / 2)
            + latitudeCosine * originCosine * sin(dLng / 2) * sin(dLng / 2)
        return 2 * Coordinate.earthRadiusKm * asin(min(1, sqrt(a)))
    }

    /// The cosine of `point`'s latitude, the one expression every distance uses.
    @inline(__always)
    static func latitudeCosine(_ point: Coordinate) -> Double {
        cos(point.latitude * toRadians)
    }
}

/// A point with its latitude's cosine, computed once per snapshot: an index measures the items it
/// shows from each visitor's origin (50 per located feed), and their cosines were a tenth of that
/// work's cycles (perf). `DistancesTo.km(from:)` gives the same double for it as for `coordinate`.
public struct MeasuredPoint: Sendable {
    public let coordinate: Coordinate
    let latitudeCosine: Double

    public init(_ coordinate: Coordinate) {
        self.coordinate = coordinate
        latitudeCosine = DistancesTo.latitudeCosine(coordinate)
    }
}

extension Coordinate {
    private enum CodingKeys: String, CodingKey {
        case latitude, longitude
    }

    /// Decodes and validates like `init?(latitude:longitude:)`: a synthesized decoder would let
    /// out-of-range values (docs/upstream.md §2 place) into a type whose promise is that they are in range.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let latitude = try container.decode(Double.self, forKey: .latitude)
        let longitude = try container.decode(Double.self, forKey: .longitude)
        guard let valid = Coordinate(latitude: latitude, longitude: longitude) else {
            throw DecodingError.dataCorruptedError(
                forKey: .latitude,
                in: container,
                debugDescription: "coordinate out of range: \(latitude), \(longitude)"
            )
        }
        self = valid
    }
}
