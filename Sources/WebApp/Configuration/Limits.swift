import Foundation

/// The fixed limits of requests, uploads and rate limits that are not settings, named once here
/// (the caches' own are `CacheLimits`). Each says why it has the value it has; none has needed
/// changing per deployment, so none is a setting.
enum Limits {
    /// The largest JSON body of an API create, as the backend's own limit.
    static let jsonWriteBytes = 100 * 1024
    /// An API create's JSON body must arrive within this time.
    static let jsonWriteDeadline: Duration = .seconds(30)
    /// The whole body of a form or photo upload must arrive within this time.
    static let uploadDeadline: Duration = .seconds(120)
    /// The largest text field of a report form (the longest, the description, is far shorter).
    static let formFieldBytes = 64 * 1024
    /// The largest photo accepted, as the backend's own limit (and the apps').
    static let reportPhotoBytes = 20 * CacheLimits.mebibyte
    /// Room for a form's text fields and multipart framing beside the photo.
    static let formOverheadBytes = 256 * 1024
    /// The largest tile accepted (a 256 px PNG is 5–40 KB; a larger body is no tile of ours to keep).
    static let tileBytes = CacheLimits.mebibyte

    /// The window `--report-limit` counts accepted reports in, per client address.
    static let reportWindow: Duration = .seconds(600)
    /// Wrong management codes allowed per client address per `addressGuessWindow`: the fifth is refused without asking
    /// the backend, on the photo page and the owner's sightings page alike (docs/report-flow.md "Abuse").
    static let guessesPerAddress = 4
    static let addressGuessWindow: Duration = .seconds(600)
    /// Wrong management codes allowed per announcement per `petGuessWindow`, whoever guesses.
    static let guessesPerPet = 20
    static let petGuessWindow: Duration = .seconds(3600)
    /// `Retry-After` of a write refused because the write store is down or slow (docs/replicas.md).
    static let storeRetryAfterSeconds = 30
    /// How long a write waits for the write store before it fails closed (docs/replicas.md).
    static let storeDeadline: Duration = .seconds(2)

    /// A write carries a photo of a few megabytes and waits for the upstream to store it: this
    /// many times the read timeout (30 s by default).
    static let writeTimeoutFactor = 6
    /// Readiness says "not ready" when the upstream has not answered within twice the cache TTL,
    /// and never within less than this.
    static let readinessFloor: Duration = .seconds(60)
}
