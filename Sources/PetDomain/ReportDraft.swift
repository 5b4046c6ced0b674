import Foundation

/// A report as the visitor typed it: the raw text of every field, kept as is so a refused form
/// comes back with every value (docs/report-validation.md). Validation (`ReportValidation`) trims.
///
/// One property per upstream JSON key, so form field names, draft and upstream body never need a map.
public struct ReportDraft: Sendable, Equatable {
    /// The upstream's keys in the backend's order: it reports the first problem in this order.
    public static let fieldNames = [
        "petName", "species", "breed", "sex", "age", "description", "microchipNumber",
        "locationLatitude", "locationLongitude", "email", "phone", "lastSeenDate", "status", "reward",
    ]

    /// Optional name, at most 100 characters.
    public var petName: String
    /// DOG, CAT, BIRD, RABBIT or OTHER (any case).
    public var species: String
    /// Optional breed, at most 100 characters.
    public var breed: String
    /// MALE, FEMALE, or UNKNOWN for a found pet.
    public var sex: String
    /// Optional whole number of years, 1–40.
    public var age: String
    /// Optional, at most 500 characters.
    public var description: String
    /// Optional, up to 15 digits; spaces and dashes (the 5-5-5 display) are allowed.
    public var microchipNumber: String
    /// Degrees, −90…90; a decimal comma is accepted.
    public var locationLatitude: String
    /// Degrees, −180…180; a decimal comma is accepted.
    public var locationLongitude: String
    /// Optional e-mail (this or `phone` is required).
    public var email: String
    /// Optional phone, at least one digit (this or `email` is required).
    public var phone: String
    /// `YYYY-MM-DD`, not in the future.
    public var lastSeenDate: String
    /// MISSING or FOUND (any case).
    public var status: String
    /// Optional reward, at most 100 characters.
    public var reward: String

    /// A draft with the given values; every field defaults to empty.
    public init(
        petName: String = "",
        species: String = "",
        breed: String = "",
        sex: String = "",
        age: String = "",
        description: String = "",
        microchipNumber: String = "",
        locationLatitude: String = "",
        locationLongitude: String = "",
        email: String = "",
        phone: String = "",
        lastSeenDate: String = "",
        status: String = "",
        reward: String = ""
    ) {
        self.petName = petName
        self.species = species
        self.breed = breed
        self.sex = sex
        self.age = age
        self.description = description
        self.microchipNumber = microchipNumber
        self.locationLatitude = locationLatitude
        self.locationLongitude = locationLongitude
        self.email = email
        self.phone = phone
        self.lastSeenDate = lastSeenDate
        self.status = status
        self.reward = reward
    }

    /// A draft from submitted form fields: unknown names (`photo`, tokens) are ignored, and the first
    /// value of a repeated name wins, so an extra hidden field appended by a script cannot override it.
    public init(fields: [(name: String, value: String)]) {
        self.init()
        var seen = Set<String>()
        for (name, value) in fields where self[field: name] != nil && seen.insert(name).inserted {
            self[field: name] = value
        }
    }

    /// The raw text of the field named by its upstream key; nil for a name that is not a field.
    /// Setting an unknown name does nothing.
    public subscript(field name: String) -> String? {
        get {
            switch name {
            case "petName": petName
            case "species": species
            case "breed": breed
            case "sex": sex
            case "age": age
            case "description": description
            case "microchipNumber": microchipNumber
            case "locationLatitude": locationLatitude
            case "locationLongitude": locationLongitude
            case "email": email
            case "phone": phone
            case "lastSeenDate": lastSeenDate
            case "status": status
            case "reward": reward
            default: nil
            }
        }
        set {
            guard let newValue else { return }
            switch name {
            case "petName": petName = newValue
            case "species": species = newValue
            case "breed": breed = newValue
            case "sex": sex = newValue
            case "age": age = newValue
            case "description": description = newValue
            case "microchipNumber": microchipNumber = newValue
            case "locationLatitude": locationLatitude = newValue
            case "locationLongitude": locationLongitude = newValue
            case "email": email = newValue
            case "phone": phone = newValue
            case "lastSeenDate": lastSeenDate = newValue
            case "status": status = newValue
            case "reward": reward = newValue
            default: break
            }
        }
    }
}
