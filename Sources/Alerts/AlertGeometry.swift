import Foundation
import PetDomain

/// Distances for the stores' area look-ups: the same great-circle distance the pages show
/// (`Coordinate.distanceKm`, docs/upstream.md §3).
public enum AlertGeometry {
    /// Kilometres between two points given as degrees (infinite when either is not a coordinate).
    public static func distanceKm(_ latitude1: Double, _ longitude1: Double, _ latitude2: Double, _ longitude2: Double) -> Double {
        guard let first = Coordinate(latitude: latitude1, longitude: longitude1), let second = Coordinate(latitude: latitude2, longitude: longitude2)
        else { return .infinity }
        return first.distanceKm(to: second)
    }
}
