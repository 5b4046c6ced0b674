import Alerts
import Foundation
import HTTPTypes
import Logging
import MicroHTTP
import PetAPIClient
import ReportStore
import ServiceLifecycle
import Sightings

/// Starts an upstream in-process for a server configured without one, and says where it listens
/// and how to stop it. The executable passes the demo backend (`DemoUpstream.embedded`); WebApp
/// itself does not know it (docs/architecture.md).
public typealias EmbeddedUpstream = @Sendable (_ logger: Logger) throws -> (baseURL: URL, stop: @Sendable () async -> Void)

/// The whole web front, built from a configuration: the composition root shared by the executable
/// and the integration tests (docs/style.md), wiring the assemblies of `Composition/`
/// (docs/architecture.md "Composition").
public final class PetSpotApp: Sendable {
    /// The configuration it was built from.
    public let configuration: AppConfiguration
    let logger: Logger
    let metrics: Metrics
    let upstream: UpstreamAssembly
    let photos: PhotoAssembly
    let responses: ResponseCache
    let served: ServerAssembly
    /// E-mail alerts: their store, sender and fan-out (docs/alerts.md).
    let alerts: AlertAssembly
    /// The reunited pets the snapshot puts apart (docs/sightings.md "Reunited").
    let reunions: ReunionBook

    /// The upstream base URL in use (the embedded demo's when none was configured).
    package var upstreamURL: URL { upstream.baseURL }
    var server: HTTPServer { served.server }
    var pipeline: Pipeline { served.pipeline }
    var gateway: AnnouncementGateway { upstream.gateway }

    private init(
        configuration: AppConfiguration,
        logger: Logger,
        metrics: Metrics,
        upstream: UpstreamAssembly,
        photos: PhotoAssembly,
        responses: ResponseCache,
        served: ServerAssembly,
        alerts: AlertAssembly,
        reunions: ReunionBook
    ) {
        self.configuration = configuration
        self.logger = logger
        self.metrics = metrics
        self.upstream = upstream
        self.photos = photos
        self.responses = responses
        self.served = served
        self.alerts = alerts
        self.reunions = reunions
    }

    /// Checks static files and templates, starts the embedded demo upstream when no upstream is
    /// configured, and prepares (but does not start) the server. Throws `StartupError` naming the setting.
    /// `now` is the monotonic clock every TTL is judged by (snapshot, details, kept pages and
    /// answers); tests pass one they move by hand instead of waiting for real time to pass.
    /// `startDate` is the wall-clock date of `now`'s first reading: "today" of report ages is that
    /// date plus the time `now` has moved since (`DayClock`, docs/report-age.md).
    public static func build(
        configuration: AppConfiguration,
        logger: Logger,
        transport: UpstreamTransport? = nil,
        embeddedUpstream: EmbeddedUpstream? = nil,
        writeStore: (any WriteStore)? = nil,
        alertStore: (any AlertStore)? = nil,
        sightingStore: (any SightingStore)? = nil,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now },
        startDate: Date = Date()
    ) async throws -> PetSpotApp {
        try await build(
            configuration: configuration,
            files: SiteFiles.load(configuration, logger: logger),
            logger: logger,
            transport: transport,
            embeddedUpstream: embeddedUpstream,
            writeStore: writeStore,
            alertStore: alertStore,
            sightingStore: sightingStore,
            now: now,
            startDate: startDate
        )
    }

    /// `build` on files already loaded (`SiteFiles`): the tests load them once for all their apps.
    package static func build(
        configuration: AppConfiguration,
        files: SiteFiles,
        logger: Logger,
        transport: UpstreamTransport? = nil,
        embeddedUpstream: EmbeddedUpstream? = nil,
        writeStore: (any WriteStore)? = nil,
        alertStore: (any AlertStore)? = nil,
        sightingStore: (any SightingStore)? = nil,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now },
        startDate: Date = Date()
    ) async throws -> PetSpotApp {
        let renderer = try await PageRenderer.load(directory: configuration.templatesDirectory)
        return try compose(
            configuration: configuration,
            files: files,
            renderer: renderer,
            logger: logger,
            transport: transport,
            embeddedUpstream: embeddedUpstream,
            writeStore: writeStore,
            alertStore: alertStore,
            sightingStore: sightingStore,
            now: now,
            days: DayClock(startDate: startDate, now: now)
        )
    }

    /// The composition root: builds the assemblies (upstream, photos, reports, server) and wires them.
    /// Kept synchronous, apart from `build`'s one `await`: as one async function, the release
    /// build's optimizer crashed (Swift 6.3.1, signal 11 "while splitting coroutine"
    /// `PetSpotApp.build`) once the map and the languages made it this long.
    private static func compose(
        configuration: AppConfiguration,
        files: SiteFiles,
        renderer: PageRenderer,
        logger: Logger,
        transport: UpstreamTransport?,
        embeddedUpstream: EmbeddedUpstream?,
        writeStore: (any WriteStore)?,
        alertStore: (any AlertStore)?,
        sightingStore: (any SightingStore)?,
        now: @escaping @Sendable () -> ContinuousClock.Instant,
        days: DayClock
    ) throws -> PetSpotApp {
        let metrics = Metrics()
        let upstream = try UpstreamAssembly(
            configuration: configuration,
            files: files,
            transport: transport,
            embeddedUpstream: embeddedUpstream,
            metrics: metrics,
            logger: logger,
            now: now,
            days: days
        )
        let answers = AnswerRecord(metrics: metrics, logger: logger)
        let responses = ResponseCache.make(configuration: configuration, answers: answers, now: now)
        let site = SiteContext(configuration: configuration, renderer: renderer, days: days, responses: responses)
        let reports = ReportAssembly(
            configuration: configuration,
            site: site,
            gateway: upstream.gateway,
            writeStore: writeStore,
            metrics: metrics,
            logger: logger,
            now: now
        )
        let photos = try PhotoAssembly(
            configuration: configuration,
            files: files,
            gateway: upstream.gateway,
            metrics: metrics,
            logger: logger,
            days: days
        )
        // Made first: the alerts' sender reads the sightings it relays (docs/sightings.md "The relay").
        // Behind the stores' deadline: a hung PostgreSQL fails the sighting pages closed in about two seconds.
        let sightingStore = GuardedSightingStore(
            sightingStore ?? MemorySightingStore(),
            deadline: Limits.storeDeadline,
            logger: logger.with(label: "sighting-store")
        )
        let alerts = try AlertAssembly(
            configuration: configuration,
            site: site,
            gateway: upstream.gateway,
            reports: reports,
            alertStore: alertStore,
            sightings: sightingStore,
            places: files.places,
            metrics: metrics,
            logger: logger
        )
        let sightings = SightingAssembly(
            site: site,
            gateway: upstream.gateway,
            reports: reports,
            alerts: alerts,
            sightingStore: sightingStore,
            places: files.places,
            logger: logger
        )
        let served = ServerAssembly(
            configuration: configuration,
            files: files,
            site: site,
            upstream: upstream,
            photos: photos,
            reports: reports,
            alerts: alerts,
            sightings: sightings,
            responses: responses,
            answers: answers,
            metrics: metrics,
            logger: logger
        )
        return PetSpotApp(
            configuration: configuration,
            logger: logger,
            metrics: metrics,
            upstream: upstream,
            photos: photos,
            responses: responses,
            served: served,
            alerts: alerts,
            reunions: sightings.reunions
        )
    }

    /// Starts listening (what `run` does first; tests and benchmarks call it directly).
    package func start() throws {
        try server.start()
        alerts.sender.start()
        logger.info("alert mails", metadata: ["to": "\(alerts.transportDescription)"])
        logger.info(
            "PetSpot Web listening",
            metadata: ["url": "http://\(configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host):\(server.port)"]
        )
    }

    /// The bound port.
    package var port: Int { server.port }

    /// Another replica published a report (or the change feed reconnected and may have missed some):
    /// the snapshot is fetched again, as after a publish here; a new one empties the kept answers
    /// (`ServerAssembly`'s listener of `AnnouncementGateway.whenReplaced`).
    /// The reunions are read again first: a pet reunited or taken back on another replica leaves or rejoins the
    /// lists with this same fetch.
    public func dataChanged() async {
        await reunions.reload()
        await gateway.refreshAfterWrite(requestID: RequestID.choose(from: nil))
    }

    /// Another replica queued alert mails (`NOTIFY petspot_outbox`): this replica's sender looks too,
    /// so a mail waits for no poll.
    public func alertsQueued() {
        alerts.sender.wake()
    }

    /// Whether the change feed is connected (`petspot_change_feed_up`).
    public func changeFeed(connected: Bool) {
        metrics.set("petspot_change_feed_up", to: connected ? 1 : 0)
    }

    /// Stops accepting, finishes in-flight requests, then stops the demo upstream and the client.
    package func stop() async {
        await server.stop()
        await alerts.sender.stop()
        await gateway.shutdown()
        await photos.shutdown()
        await upstream.stopEmbedded?()
    }
}

/// The site as a service of a `ServiceGroup`: listens, serves until the group shuts
/// down gracefully (SIGTERM/SIGINT in the executable), then stops accepting, finishes the requests
/// in flight and stops the embedded upstream and the client.
extension PetSpotApp: Service {
    public func run() async throws {
        try start()
        // Returns at graceful shutdown; throws only when the task is cancelled: stop either way.
        try? await gracefulShutdown()
        await stop()
    }
}

extension PetSpotApp {
    /// Runs the alerts' fan-out on the current snapshot and sends every due mail now, returning how many
    /// mails were handed to the transport: what the background does on its own, awaited (tests).
    @discardableResult
    package func deliverAlerts() async -> Int {
        if let snapshot = try? await gateway.snapshot(requestID: "alerts") {
            await alerts.fanOut.snapshotChanged(snapshot.value.index, now: alerts.sender.now())
        }
        return await alerts.sender.drain()
    }

    /// Answers `GET pathAndQuery` in-process through the whole request pipeline, without sockets:
    /// at once when the server thread would, else after waiting (the domain benchmark measures
    /// pages per second with it). The query must be plain `name=value` pairs.
    package func get(_ pathAndQuery: String) async -> (status: HTTPResponse.Status, body: [UInt8]) {
        switch pipeline.handle(PetSpotApp.request(pathAndQuery)) {
        case .now(let response):
            return (response.status, response.body)
        case .later(let work):
            // The pipeline's work renders its own failures; a throw is the server's 500.
            let response = (try? await work()) ?? Response.text("Something went wrong on our side.\n", status: 500)
            return (response.status, response.body)
        }
    }

    /// Like `get`, but only an answer given at once on the server thread: nil when the request would have to wait.
    package func getNow(_ pathAndQuery: String) -> (status: HTTPResponse.Status, body: [UInt8])? {
        guard case .now(let response) = pipeline.handle(PetSpotApp.request(pathAndQuery)) else { return nil }
        return (response.status, response.body)
    }

    private static func request(_ pathAndQuery: String) -> Request {
        let parts = pathAndQuery.split(separator: "?", maxSplits: 1)
        let pairs = parts.count > 1 ? parts[1].split(separator: "&") : []
        let query: [(name: String, value: String)] = pairs.map { pair in
            let halves = pair.split(separator: "=", maxSplits: 1)
            return (name: String(halves[0]), value: halves.count > 1 ? String(halves[1]) : "")
        }
        return Request(method: .get, path: String(parts.first ?? "/"), query: QueryItems(query))
    }
}

extension Logger {
    /// A copy with another label's metadata marker (swift-log labels are fixed at creation).
    func with(label: String) -> Logger {
        var copy = self
        copy[metadataKey: "component"] = "\(label)"
        return copy
    }
}
