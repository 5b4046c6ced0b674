import Foundation
import Logging
import PetAPIClient
import PetDomain

/// The upstream side (docs/upstream.md): which backend is read (the configured one, or the embedded
/// demo started here) and the gateway that reads it through its cache.
struct UpstreamAssembly: Sendable {
    /// The upstream base URL in use (the embedded demo's when none was configured).
    let baseURL: URL
    /// Stops the embedded upstream, when one was started.
    let stopEmbedded: (@Sendable () async -> Void)?
    /// The validated, cached announcements.
    let gateway: AnnouncementGateway

    /// Starts the embedded upstream when none is configured (throws naming the setting when there is
    /// neither), and the gateway in front of it; the gateway's events become metrics.
    init(
        configuration: AppConfiguration,
        files: SiteFiles,
        transport: UpstreamTransport?,
        embeddedUpstream: EmbeddedUpstream?,
        metrics: Metrics,
        logger: Logger,
        now: @escaping @Sendable () -> ContinuousClock.Instant,
        days: DayClock
    ) throws {
        if let configured = configuration.upstreamURL {
            baseURL = configured
            stopEmbedded = nil
        } else if let embeddedUpstream {
            let started = try embeddedUpstream(logger.with(label: "demo-upstream"))
            stopEmbedded = started.stop
            baseURL = started.baseURL
            logger.info("no upstream configured: serving the embedded demo upstream", metadata: ["url": "\(baseURL)"])
        } else {
            throw StartupError(setting: "--upstream / PETSPOT_UPSTREAM_URL", problem: "no upstream configured and no embedded upstream to start")
        }
        gateway = AnnouncementGateway(
            transport: transport ?? .live(baseURL: baseURL),
            settings: GatewaySettings(configuration, places: files.places),
            logger: logger,
            now: now,
            date: { days.date },
            onEvent: { metrics.record($0) }
        )
    }
}

extension GatewaySettings {
    /// The gateway's settings from the configuration: time-outs, freshness, the body limit, the
    /// details cache's budget and the place names.
    init(_ configuration: AppConfiguration, places: PlaceFinder?) {
        self.init()
        timeout = .milliseconds(Int64(configuration.upstreamTimeoutSeconds * 1000))
        writeTimeout = .milliseconds(Int64(configuration.upstreamTimeoutSeconds * Double(Limits.writeTimeoutFactor * 1000)))
        ttl = .milliseconds(Int64(configuration.cacheTTLSeconds * 1000))
        staleMax = .milliseconds(Int64(configuration.staleMaxSeconds * 1000))
        // Requests do not wait for a list refresh they did not ask for: the held snapshot answers while the next is
        // fetched and indexed (every request waited 2-3 s at 50,000 items; docs/performance.md "Steady speed").
        refreshWindow = .milliseconds(Int64(configuration.refreshWindowSeconds * 1000))
        maxJSONBytes = configuration.upstreamMaxBodyMegabytes * CacheLimits.mebibyte
        maxJSONBytesSetting = AppConfiguration.upstreamMaxBodySetting
        maxDetailsCallsInFlight = configuration.maxDetailsCalls
        maxEntries = CacheLimits.upstreamDetailsEntries
        maxCachedBytes = CacheBudgets(configuration).upstreamDetails
        maxRememberedUnknownIDs = CacheLimits.rememberedUnknownIDs
        self.places = places
    }
}

extension Metrics {
    /// Counts a gateway event under the docs/upstream.md §4 metric names.
    func record(_ event: GatewayEvent) {
        switch event {
        case .upstreamCall(let endpoint):
            increment("petspot_upstream_calls_total", labels: ["endpoint": endpoint])
        case .upstreamFailure(let endpoint, let reason):
            increment("petspot_upstream_failures_total", labels: ["endpoint": endpoint, "reason": reason])
        case .cache(let outcome):
            recordCacheLookup(outcome.rawValue)
        case .skipped(let reason):
            increment("petspot_items_skipped_total", labels: ["reason": reason.rawValue])
        case .snapshot(let items):
            increment("petspot_snapshots_total")
            set("petspot_snapshot_items", to: items)
        }
    }
}
