import Logging
import PetAPIClient
import ReportStore

/// The write path (docs/report-flow.md, docs/replicas.md): its shared state behind a deadline, the
/// report form's handlers and the API's writes.
struct ReportAssembly: Sendable {
    /// The report form and its photos, limits and management codes.
    let handlers: ReportHandlers
    /// The API's writes, on the same flow.
    let writes: AnnouncementWrites

    /// The store given (PostgreSQL, shared by the replicas) or this process's memory; either way
    /// behind a 2 s deadline that feeds the store metrics.
    init(
        configuration: AppConfiguration,
        site: SiteContext,
        gateway: AnnouncementGateway,
        writeStore: (any WriteStore)?,
        metrics: Metrics,
        logger: Logger,
        now: @escaping @Sendable () -> ContinuousClock.Instant
    ) {
        let base =
            writeStore
            ?? MemoryWriteStore(photoBytes: CacheBudgets(configuration).reportPhotos, maxPhotos: CacheLimits.keptReportPhotos, now: now)
        let store = GuardedWriteStore(base, deadline: Limits.storeDeadline) { operation, failure, seconds in
            metrics.recordStoreCall(operation: operation, failed: failure != nil, seconds: seconds)
        }
        metrics.set("petspot_store_up", to: 1)
        handlers = ReportHandlers.make(
            configuration: configuration,
            site: site,
            gateway: gateway,
            store: store,
            logger: logger.with(label: "report")
        )
        writes = AnnouncementWrites(reports: handlers)
    }
}

extension Metrics {
    /// One call of the write store: whether it is up, how long the call took, and its failures.
    func recordStoreCall(operation: String, failed: Bool, seconds: Double) {
        set("petspot_store_up", to: failed ? 0 : 1)
        recordDuration("petspot_store_duration_seconds", labels: ["operation": operation], seconds: seconds)
        if failed { increment("petspot_store_failures_total", labels: ["operation": operation]) }
    }
}
