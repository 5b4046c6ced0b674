import Foundation

/// One validated, normalized lost-or-found report: the single shape every upstream dialect becomes
/// (docs/upstream.md §2). Every value here has passed the rules; pages only format it.
public struct Announcement: Sendable, Hashable, Identifiable {
    /// The upstream id, trimmed (numeric ids of dialect C become their decimal text).
    public var id: String
    /// The pet's name, trimmed, at most 100 characters; nil when the upstream has none.
    public var petName: String?
    /// The kind of animal.
    public var species: Species
    /// Missing, found or closed.
    public var status: AnnouncementStatus
    /// Breed as free text.
    public var breed: String?
    /// Sex; `unknown` when not given.
    public var sex: Sex
    /// Age in whole years, never negative.
    public var age: Int?
    /// Free-text description, unchanged apart from trimming.
    public var description: String?
    /// Microchip number as given (formatting is `Format.microchip`).
    public var microchipNumber: String?
    /// Where the pet was last seen.
    public var place: Place
    /// The day the pet was last seen.
    public var lastSeenDate: CalendarDate
    /// Contact e-mail; only kept when it looks like an address.
    public var email: String?
    /// Contact phone as free text (e.g. "555-PETS").
    public var phone: String?
    /// Contact person's name (dialect D).
    public var contactName: String?
    /// The photo, when there is a safe one.
    public var photo: Photo?
    /// The reward, when there is a positive one.
    public var reward: Reward?
    /// A reward given as free text that is no amount ("A big hug and a box of chocolates"), shown as
    /// written; nil when `reward` holds an amount (docs/upstream.md §2 reward).
    public var rewardNote: String?
    /// When the report was created.
    public var createdAt: Date
    /// When the report was last changed; never before `createdAt`.
    public var updatedAt: Date
    /// The populated place nearest the coordinates, found once per snapshot (`PlaceFinder`,
    /// docs/place-names.md); nil without coordinates, without place data, or far from any place.
    public var nearestPlace: NearestPlace?
    /// When its owner (or, for a found report, its finder) said the pet is home: set by the snapshot from
    /// our own shared store, never by the upstream, which has no such state (docs/sightings.md "Reunited").
    public var reunitedAt: Date?

    /// Creates an announcement from already-validated values (the demo data set and tests use this).
    public init(
        id: String,
        petName: String? = nil,
        species: Species,
        status: AnnouncementStatus,
        breed: String? = nil,
        sex: Sex = .unknown,
        age: Int? = nil,
        description: String? = nil,
        microchipNumber: String? = nil,
        place: Place,
        lastSeenDate: CalendarDate,
        email: String? = nil,
        phone: String? = nil,
        contactName: String? = nil,
        photo: Photo? = nil,
        reward: Reward? = nil,
        rewardNote: String? = nil,
        createdAt: Date,
        updatedAt: Date
    ) {
        self.id = id
        self.petName = petName
        self.species = species
        self.status = status
        self.breed = breed
        self.sex = sex
        self.age = age
        self.description = description
        self.microchipNumber = microchipNumber
        self.place = place
        self.lastSeenDate = lastSeenDate
        self.email = email
        self.phone = phone
        self.contactName = contactName
        self.photo = photo
        self.reward = reward
        self.rewardNote = rewardNote
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// What pages call the pet when the upstream gave no name (docs/upstream.md §2 petName).
    public static let unnamedPetName = "Unnamed pet"

    /// The pet's name, or "Unnamed pet".
    public var displayName: String { petName ?? Announcement.unnamedPetName }

    /// A `tel:` link target such as `tel:+48123456789`, only when the phone holds nothing but
    /// digits, spaces and `+ - ( )` and at least one digit; free text like "555-PETS" gets no link
    /// (docs/upstream.md §2 phone). Spaces, dashes and parentheses are dropped from the target (RFC 3966).
    public var phoneLinkTarget: String? {
        guard let phone else { return nil }
        var target = "tel:"
        var digits = 0
        for scalar in phone.unicodeScalars {
            switch scalar {
            case "0"..."9":
                digits += 1
                target.unicodeScalars.append(scalar)
            case "+":
                target.unicodeScalars.append(scalar)
            case " ", "-", "(", ")":
                continue
            default:
                return nil
            }
        }
        return digits > 0 ? target : nil
    }

    /// This announcement with its nearest place looked up in `finder` (nil finder: unchanged).
    public func withNearestPlace(_ finder: PlaceFinder?) -> Announcement {
        guard let finder, let point = place.coordinate else { return self }
        var named = self
        named.nearestPlace = finder.nearest(to: point)
        return named
    }

    /// Great-circle distance in kilometres from `origin`; nil for a city-only place (dialect B).
    public func distanceKm(from origin: Coordinate) -> Double? {
        place.coordinate?.distanceKm(to: origin)
    }
}
