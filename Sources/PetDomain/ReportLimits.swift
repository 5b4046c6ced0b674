/// The length limits one client's reports are checked against (docs/report-validation.md has a column
/// per client). The web form may be stricter than the backend where that helps the visitor; the JSON
/// API takes what the backend takes and the PetSpot apps let through.
public struct ReportLimits: Sendable, Hashable {
    /// The longest pet name and breed, in characters; nil: none of its own (the body's 100 KB bounds it).
    public let nameLength: Int?
    /// The longest reward, in characters.
    public let rewardLength: Int
    /// Whether the reward must read as an amount (`500 PLN`, `$300`), or may be any text.
    public let rewardMustBeAmount: Bool
    /// Whether a lost pet's sex may be UNKNOWN (the backend takes any sex; the web form asks the owner).
    public let unknownSexWhenMissing: Bool

    /// The web form: names fit a card whole, and a reward typed as an amount gets the amount badge.
    public static let webForm = ReportLimits(nameLength: 100, rewardLength: 100, rewardMustBeAmount: true, unknownSexWhenMissing: false)
    /// The JSON API: the backend sets no name limit and stores any reward text; the iOS and Android
    /// apps stop a reward at 120 characters and set no limit on names.
    public static let api = ReportLimits(nameLength: nil, rewardLength: 120, rewardMustBeAmount: false, unknownSexWhenMissing: true)
}
