import Foundation
import HTTPTypes
import Logging
import MicroHTTP
import PetAPIClient
import PetDomain
import ReportStore
import ServiceLifecycle
import Synchronization

/// The whole web front, built from a configuration: the composition root shared by the executable
/// and the integration tests (docs/style.md).
/// Starts an upstream in-process for a server configured without one, and says where it listens
/// and how to stop it. The executable passes the demo backend (`DemoUpstream.embedded`); WebApp
/// itself does not know it (docs/architecture.md).
public typealias EmbeddedUpstream = @Sendable (_ logger: Logger) throws -> (baseURL: URL, stop: @Sendable () async -> Void)

public final class PetSpotApp: Sendable {
    /// The configuration it was built from.
    public let configuration: AppConfiguration
    /// The upstream base URL in use (the embedded demo's when none was configured).
    public let upstreamURL: URL
    let logger: Logger
    let server: HTTPServer
    /// Stops the embedded upstream, when one was started.
    let stopEmbeddedUpstream: (@Sendable () async -> Void)?
    let gateway: AnnouncementGateway
    let tiles: TileProxy
    let metrics: Metrics
    let pipeline: Pipeline
    let keptAnswers: KeptAnswers

    private init(
        configuration: AppConfiguration,
        upstreamURL: URL,
        logger: Logger,
        server: HTTPServer,
        stopEmbeddedUpstream: (@Sendable () async -> Void)?,
        gateway: AnnouncementGateway,
        tiles: TileProxy,
        metrics: Metrics,
        pipeline: Pipeline,
        keptAnswers: KeptAnswers
    ) {
        self.configuration = configuration
        self.upstreamURL = upstreamURL
        self.logger = logger
        self.server = server
        self.stopEmbeddedUpstream = stopEmbeddedUpstream
        self.gateway = gateway
        self.tiles = tiles
        self.metrics = metrics
        self.pipeline = pipeline
        self.keptAnswers = keptAnswers
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
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now },
        startDate: Date = Date()
    ) async throws -> PetSpotApp {
        let staticFiles = try StaticFiles(directory: configuration.publicDirectory)
            .adding(MapLibraries.load(javascriptDirectory: configuration.javascriptDirectory))
        let renderer = try await PageRenderer.load(directory: configuration.templatesDirectory)
        let places = try PetSpotApp.loadPlaces(configuration.placesFile, logger: logger)
        return try compose(
            configuration: configuration,
            logger: logger,
            transport: transport,
            embeddedUpstream: embeddedUpstream,
            writeStore: writeStore,
            now: now,
            days: DayClock(startDate: startDate, now: now),
            places: places,
            staticFiles: staticFiles,
            renderer: renderer
        )
    }

    /// Everything of `build` after its one `await`, kept synchronous: as one async function, the
    /// release build's optimizer crashed (Swift 6.3.1, signal 11 "while splitting coroutine"
    /// `PetSpotApp.build`) once the map and the languages made it this long.
    private static func compose(
        configuration: AppConfiguration,
        logger: Logger,
        transport: UpstreamTransport?,
        embeddedUpstream: EmbeddedUpstream?,
        writeStore: (any WriteStore)?,
        now: @escaping @Sendable () -> ContinuousClock.Instant,
        days: DayClock,
        places: PlaceFinder?,
        staticFiles: StaticFiles,
        renderer: PageRenderer
    ) throws -> PetSpotApp {
        var stopEmbeddedUpstream: (@Sendable () async -> Void)?
        let upstreamURL: URL
        if let configured = configuration.upstreamURL {
            upstreamURL = configured
        } else if let embeddedUpstream {
            let started = try embeddedUpstream(logger.with(label: "demo-upstream"))
            stopEmbeddedUpstream = started.stop
            upstreamURL = started.baseURL
            logger.info("no upstream configured: serving the embedded demo upstream", metadata: ["url": "\(upstreamURL)"])
        } else {
            throw StartupError(setting: "--upstream / PETSPOT_UPSTREAM_URL", problem: "no upstream configured and no embedded upstream to start")
        }
        let metrics = Metrics()
        var settings = GatewaySettings()
        settings.timeout = .milliseconds(Int64(configuration.upstreamTimeoutSeconds * 1000))
        settings.writeTimeout = .milliseconds(Int64(configuration.upstreamTimeoutSeconds * Double(Limits.writeTimeoutFactor * 1000)))
        settings.ttl = .milliseconds(Int64(configuration.cacheTTLSeconds * 1000))
        settings.staleMax = .milliseconds(Int64(configuration.staleMaxSeconds * 1000))
        settings.maxJSONBytes = configuration.upstreamMaxBodyMegabytes * CacheLimits.mebibyte
        settings.maxJSONBytesSetting = AppConfiguration.upstreamMaxBodySetting
        settings.maxDetailsCallsInFlight = configuration.maxDetailsCalls
        let budgets = CacheBudgets(configuration)
        settings.maxEntries = CacheLimits.upstreamDetailsEntries
        settings.maxCachedBytes = budgets.upstreamDetails
        settings.maxRememberedUnknownIDs = CacheLimits.rememberedUnknownIDs
        settings.places = places
        let gateway = AnnouncementGateway(
            transport: transport ?? .live(baseURL: upstreamURL),
            settings: settings,
            logger: logger,
            now: now,
            date: { days.date },
            onEvent: { metrics.record($0) }
        )
        let site = SiteContext(configuration: configuration, renderer: renderer, days: days)
        let tiles = try TileProxy.make(configuration: configuration, metrics: metrics, logger: logger.with(label: "tiles"), clock: days)
        let answers = AnswerRecord(metrics: metrics, logger: logger)
        let keptAnswers = KeptAnswers(
            maxBytes: budgets.keptAnswers,
            threadSlots: configuration.threadCount,
            now: now,
            // Pages follow Accept-Language when the URL has no `lang`: kept per language.
            languages: Language.negotiation,
            requestID: { RequestID.choose(from: $0) },
            onHit: { hit in
                metrics.recordBodyBytes(hit.coding, count: hit.bodyBytes)
                answers.record(
                    route: hit.route,
                    status: hit.status,
                    requestID: hit.requestID,
                    method: hit.method.rawValue,
                    path: hit.path,
                    seconds: hit.seconds
                )
            }
        )
        // The write path's shared state: the store given (PostgreSQL, shared by the replicas) or this
        // process's memory; either way behind a 2 s deadline that feeds the store metrics.
        let baseStore = writeStore ?? MemoryWriteStore(photoBytes: budgets.reportPhotos, maxPhotos: CacheLimits.keptReportPhotos, now: now)
        let store = GuardedWriteStore(baseStore, deadline: Limits.storeDeadline) { operation, failure, seconds in
            metrics.set("petspot_store_up", to: failure == nil ? 1 : 0)
            metrics.recordDuration("petspot_store_duration_seconds", labels: ["operation": operation], seconds: seconds)
            if failure != nil { metrics.increment("petspot_store_failures_total", labels: ["operation": operation]) }
        }
        metrics.set("petspot_store_up", to: 1)
        let reports = ReportHandlers.make(
            configuration: configuration,
            site: site,
            gateway: gateway,
            keptAnswers: keptAnswers,
            store: store,
            logger: logger.with(label: "report")
        )
        let images = try ImageProxy.make(
            configuration: configuration,
            gateway: gateway,
            metrics: metrics,
            logger: logger,
            clock: days,
            placeholder: staticFiles.assets[AnnouncementsAPI.placeholderAsset]?.body
        )
        let api = AnnouncementsAPI(gateway: gateway, site: site)
        // What is kept per snapshot goes when a new snapshot replaces it (docs/performance.md "Memory").
        gateway.whenReplaced { [site, wholeList = api.wholeList] generation in
            site.caches.retire(below: generation)
            wholeList.retire(below: generation)
        }
        let router = Router(
            site: site,
            staticFiles: staticFiles,
            pages: PageHandlers(site: site, gateway: gateway),
            api: api,
            images: images,
            tiles: tiles,
            gateway: gateway,
            metricsEndpoint: MetricsEndpoint(site: site, images: images, tiles: tiles, gateway: gateway, metrics: metrics, keptAnswers: keptAnswers),
            readinessWindow: max(Limits.readinessFloor, .seconds(Int64(configuration.cacheTTLSeconds * 2))),
            reports: reports,
            writes: AnnouncementWrites(reports: reports)
        )
        let pipeline = Pipeline(router: router, metrics: metrics, logger: logger, keptAnswers: keptAnswers)
        var serverConfiguration = ServerConfiguration(
            host: configuration.host,
            port: configuration.port,
            threadCount: configuration.threadCount,
            connectionLimit: configuration.maxConnections,
            perAddressConnectionLimit: configuration.maxConnectionsPerAddress,
            headerTimeout: .milliseconds(Int64(configuration.headerTimeoutSeconds * 1000))
        )
        // The server's own answers (400, 405, 414, 500, 503), rendered once, in the language of the
        // request's headers and in its route's format (docs/architecture.md "Errors").
        let errors = ErrorRenderer(site: site)
        serverConfiguration.errorResponse = { errors.serverAnswer($0) }
        serverConfiguration.onRefusedConnection = { metrics.recordRefusedConnection() }
        // Request bodies: only the report form and the API writes, decided before any byte is read.
        let writePolicy = WritePolicy(site: site, identity: reports.identity) { response, head, route, requestID in
            pipeline.finishEarly(response, head: head, routeName: route, requestID: requestID)
        }
        serverConfiguration.bodyPolicy = { writePolicy.decide($0) }
        serverConfiguration.bodyRefusal = { writePolicy.refusal($0, $1) }
        serverConfiguration.onHeaderDeadline = { metrics.recordCutConnections($0) }
        // The server's own answers get what every answer gets: a request id, the metric (route
        // "server") and the log line.
        serverConfiguration.finishServerAnswer = { response, request in
            // The renderer wrote the id into the API's body and the header; the log line says the same.
            let requestID = response.headers[.xRequestID] ?? RequestID.choose(from: request.requestIDHeader)
            if response.headers[.xRequestID] == nil { response.headers.append(HTTPField(name: .xRequestID, value: requestID)) }
            answers.record(
                route: "server",
                status: response.status,
                requestID: requestID,
                method: request.method,
                path: request.rawPath,
                seconds: 0
            )
        }
        let server = HTTPServer(
            configuration: serverConfiguration,
            logger: logger,
            preparedResponses: keptAnswers,
            handler: { request in pipeline.handle(request) }
        )
        return PetSpotApp(
            configuration: configuration,
            upstreamURL: upstreamURL,
            logger: logger,
            server: server,
            stopEmbeddedUpstream: stopEmbeddedUpstream,
            gateway: gateway,
            tiles: tiles,
            metrics: metrics,
            pipeline: pipeline,
            keptAnswers: keptAnswers
        )
    }

    /// Starts listening (what `run` does first; tests and benchmarks call it directly).
    public func start() throws {
        try server.start()
        logger.info(
            "PetSpot Web listening",
            metadata: ["url": "http://\(configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host):\(server.port)"]
        )
    }

    /// The bound port.
    public var port: Int { server.port }

    /// Another replica published a report (or the change feed reconnected and may have missed some):
    /// the snapshot is fetched again and the kept answers forgotten, as after a publish here.
    public func dataChanged() async {
        await gateway.refreshAfterWrite(requestID: RequestID.choose(from: nil))
        keptAnswers.removeAll()
    }

    /// Whether the change feed is connected (`petspot_change_feed_up`).
    public func changeFeed(connected: Bool) {
        metrics.set("petspot_change_feed_up", to: connected ? 1 : 0)
    }

    /// Stops accepting, finishes in-flight requests, then stops the demo upstream and the client.
    public func stop() async {
        await server.stop()
        await gateway.shutdown()
        await tiles.source.shutdown()
        await stopEmbeddedUpstream?()
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
    /// Answers `GET pathAndQuery` in-process through the whole request pipeline, without sockets:
    /// at once when the server thread would, else after waiting (the domain benchmark measures
    /// pages per second with it). The query must be plain `name=value` pairs.
    public func get(_ pathAndQuery: String) async -> (status: HTTPResponse.Status, body: [UInt8]) {
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
    public func getNow(_ pathAndQuery: String) -> (status: HTTPResponse.Status, body: [UInt8])? {
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

extension PetSpotApp {
    /// Place data already parsed in this process, by path: immutable, so apps built again in one
    /// process (the tests build hundreds) share it instead of parsing 4 MB each time.
    private static let loadedPlaces = Mutex<[String: PlaceFinder]>([:])

    /// The place-name data (docs/place-names.md), read once at startup; nil when the setting is
    /// empty. A missing or malformed file stops startup, naming the setting.
    static func loadPlaces(_ path: String, logger: Logger) throws -> PlaceFinder? {
        guard !path.isEmpty else { return nil }
        if let loaded = loadedPlaces.withLock({ $0[path] }) { return loaded }
        let setting = "--places-file / PETSPOT_PLACES_FILE"
        guard let data = FileManager.default.contents(atPath: path) else {
            throw StartupError(setting: setting, problem: "cannot read '\(path)' (set it empty to run without place names)")
        }
        do {
            let started = ContinuousClock.now
            let finder = try PlaceFinder(tsv: String(decoding: data, as: UTF8.self))
            logger.info("place names loaded", metadata: ["places": "\(finder.count)", "elapsed": "\(ContinuousClock.now - started)"])
            loadedPlaces.withLock { $0[path] = finder }
            return finder
        } catch {
            throw StartupError(setting: setting, problem: "'\(path)': \(error)")
        }
    }
}
