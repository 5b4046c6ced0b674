import Foundation

/// When owed mails are due (docs/alerts.md "Frequency"): the rules every store applies the same way.
public enum AlertSchedule {
    /// An instant subscription gets at most one mail in this long; pets arriving meanwhile wait for the next.
    public static let instantGap: TimeInterval = 600
    /// Daily digests go out at this hour, Warsaw time.
    public static let digestHour = 8
    /// A digest lists at most this many pets, then "and N more".
    public static let digestPets = 20
    /// An instant alert lists at most this many pets, then "and N more".
    public static let alertPets = 10
    /// A claimed mail is the claimer's for this long; a sender killed mid-send leaves it to another after.
    public static let lease: TimeInterval = 120
    /// Temporary failures are retried until this long after the mail was first owed.
    public static let retryFor: TimeInterval = 24 * 3600
    /// A pending subscription is removed this long after it was asked for.
    public static let pendingFor: TimeInterval = 7 * 24 * 3600
    /// At most this many confirmation mails per address in `confirmWindow`.
    public static let confirmationsPerAddress = 3
    public static let confirmWindow: TimeInterval = 24 * 3600
    /// The service's zone: digests follow Warsaw's 08:00 (the same zone as `DayClock` in WebApp).
    public static let zone = TimeZone(identifier: "Europe/Warsaw") ?? TimeZone(secondsFromGMT: 3_600) ?? .gmt

    /// When a newly owed pet makes a subscription's next mail due: instant subscriptions at once, or
    /// `instantGap` after their last mail; digests at the next 08:00 Warsaw time.
    public static func due(frequency: AlertFrequency, lastMail: Date?, now: Date) -> Date {
        switch frequency {
        case .instant:
            guard let lastMail else { return now }
            return max(now, lastMail.addingTimeInterval(instantGap))
        case .daily:
            return nextDigest(after: now)
        }
    }

    /// The first 08:00 in Warsaw strictly after `now`.
    public static func nextDigest(after now: Date) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        var parts = calendar.dateComponents([.year, .month, .day], from: now)
        parts.hour = digestHour
        parts.minute = 0
        parts.second = 0
        let today = calendar.date(from: parts) ?? now
        if today > now { return today }
        return calendar.date(byAdding: .day, value: 1, to: today) ?? now.addingTimeInterval(86_400)
    }

    /// The wait before retry number `attempt` (1, 2, …) after a temporary failure: 30 s, 1, 2, 4 … minutes,
    /// at most an hour (a greylisting server asks for a few minutes; a server down for a day is tried ~30 times).
    public static func backoff(attempt: Int) -> TimeInterval {
        min(30 * pow(2, Double(max(attempt - 1, 0))), 3600)
    }
}
