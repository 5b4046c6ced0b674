import Foundation

/// Where the pet was last seen (docs/upstream.md §2 "place").
public enum Place: Sendable, Hashable {
    /// A point, from any dialect's coordinates, with an optional human-readable address
    /// (dialect D's `location.address`, or dialect B's city name when coordinates came too).
    case coordinates(Coordinate, address: String?)
    /// Dialect B only: a city name and an optional search radius in kilometres, without coordinates.
    case city(name: String, radiusKm: Int?)

    /// The point, when there is one; a city-only place has no distance and no map marker.
    public var coordinate: Coordinate? {
        switch self {
        case .coordinates(let coordinate, _): coordinate
        case .city: nil
        }
    }

    /// The address or city name, when there is one.
    public var name: String? {
        switch self {
        case .coordinates(_, let address): address
        case .city(let name, _): name
        }
    }

    /// The dialect B search radius in kilometres, when there is one.
    public var radiusKm: Int? {
        switch self {
        case .coordinates: nil
        case .city(_, let radiusKm): radiusKm
        }
    }
}
