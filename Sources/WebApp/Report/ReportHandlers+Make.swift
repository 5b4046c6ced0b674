internal import ImageResizer
import Logging
import PetAPIClient
import ReportStore

// The report flow put together from the configuration: its limits and its handlers.

/// The write path's limits, as the store counts them (docs/report-flow.md "Abuse").
struct ReportRules: Sendable {
    /// Accepted reports per client address (`--report-limit` per 10 minutes).
    let reports: LimitRule
    /// Reports created through the JSON API per client address (`--api-report-limit` per 10 minutes),
    /// counted apart from the form's: phones behind one carrier address share it (docs/report-flow.md).
    let apiReports: LimitRule
    /// Wrong management codes per client address (10 per 10 minutes) and per announcement (20 an hour).
    let guessesByAddress: LimitRule
    let guessesByPet: LimitRule

    init(configuration: AppConfiguration) {
        reports = LimitRule(bucket: "report", limit: configuration.reportLimit, window: Limits.reportWindow)
        apiReports = LimitRule(bucket: "api_report", limit: configuration.apiReportLimit, window: Limits.reportWindow)
        guessesByAddress = LimitRule(bucket: "code_addr", limit: Limits.guessesPerAddress, window: Limits.addressGuessWindow)
        guessesByPet = LimitRule(bucket: "code_pet", limit: Limits.guessesPerPet, window: Limits.petGuessWindow)
    }
}

extension ReportHandlers {
    /// The report flow on its write store, from the configuration.
    static func make(
        configuration: AppConfiguration,
        site: SiteContext,
        gateway: AnnouncementGateway,
        store: any WriteStore,
        logger: Logger
    ) -> ReportHandlers {
        ReportHandlers(
            site: site,
            service: ReportService(gateway: gateway, logger: logger),
            photos: ReportPhotos(pool: .shared, maxPixels: configuration.maxPhotoMegapixels * 1_000_000),
            identity: ClientIdentity(configuration: configuration),
            store: store,
            rules: ReportRules(configuration: configuration),
            logger: logger
        )
    }
}
