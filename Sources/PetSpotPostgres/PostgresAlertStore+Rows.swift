import Alerts
import Foundation
import PetDomain
import PostgresNIO

/// A subscription's target as `petspot_alert_subscription`'s columns, and its rows read back.
struct SubscriptionColumns {
    let kind: String
    let latitude: Double?
    let longitude: Double?
    let rangeKm: Int?
    let status: String?
    let species: String?
    let petID: String?

    /// The columns of `target` (NULL where the kind has none).
    init(_ target: AlertTarget) {
        kind = target.kind
        switch target {
        case .search(let search):
            latitude = search.latitude
            longitude = search.longitude
            rangeKm = search.rangeKm
            status = search.status?.rawValue
            species = search.species?.rawValue
            petID = nil
        case .matches(let petID), .sightings(let petID):
            (latitude, longitude, rangeKm, status, species) = (nil, nil, nil, nil, nil)
            self.petID = petID
        }
    }

    /// The select list `decode` reads, in its order.
    static let select = "id, email, kind, lat, lng, range_km, status, species, pet_id, frequency, language, state, created_at"

    /// The same list qualified by the table alias `s`.
    static let selectFromS = select.split(separator: ", ").map { "s.\($0)" }.joined(separator: ", ")

    /// Reads rows of `select` into subscriptions; a row the model cannot hold (a value this version does not
    /// know) is skipped rather than failing the whole answer.
    static func decode(_ rows: PostgresRowSequence) async throws -> [Subscription] {
        var subscriptions: [Subscription] = []
        for try await row in rows {
            if let subscription = try subscription(row) { subscriptions.append(subscription) }
        }
        return subscriptions
    }

    /// One row holding `select` from column `offset` on as a subscription (nil: a kind, frequency or state
    /// this version does not know).
    static func subscription(_ row: PostgresRow, from offset: Int = 0) throws -> Subscription? {
        let cells = row.makeRandomAccess()
        let id = try cells[offset].decode(String.self)
        let email = try cells[offset + 1].decode(String.self)
        let kind = try cells[offset + 2].decode(String.self)
        let lat = try cells[offset + 3].decode(Double?.self)
        let lng = try cells[offset + 4].decode(Double?.self)
        let range = try cells[offset + 5].decode(Int?.self)
        let status = try cells[offset + 6].decode(String?.self)
        let species = try cells[offset + 7].decode(String?.self)
        let petID = try cells[offset + 8].decode(String?.self)
        let frequency = try cells[offset + 9].decode(String.self)
        let language = try cells[offset + 10].decode(String.self)
        let state = try cells[offset + 11].decode(String.self)
        let created = try cells[offset + 12].decode(Date.self)
        guard let frequency = AlertFrequency(rawValue: frequency), let state = SubscriptionState(rawValue: state) else { return nil }
        let target: AlertTarget
        switch kind {
        case "search":
            guard let lat, let lng, let range else { return nil }
            let search = AlertSearch(
                latitude: lat,
                longitude: lng,
                rangeKm: range,
                status: status.flatMap(AnnouncementStatus.init(rawValue:)),
                species: species.flatMap(Species.init(rawValue:))
            )
            target = .search(search)
        case "matches":
            guard let petID else { return nil }
            target = .matches(petID: petID)
        case "sightings":
            guard let petID else { return nil }
            target = .sightings(petID: petID)
        default:
            return nil
        }
        return Subscription(id: id, email: email, target: target, frequency: frequency, language: language, state: state, createdAt: created)
    }
}
