import HTTPTypes
import Logging
import MicroHTTP
import PetAPIClient

/// The server (docs/architecture.md): the routes over every part, the pipeline, and libmicrohttpd's
/// settings and hooks (the server's own answers, request bodies, refused and cut connections).
struct ServerAssembly: Sendable {
    /// Every request's way through routing, plans and handlers.
    let pipeline: Pipeline
    /// The libmicrohttpd server, prepared but not started.
    let server: HTTPServer

    init(
        configuration: AppConfiguration,
        files: SiteFiles,
        site: SiteContext,
        upstream: UpstreamAssembly,
        photos: PhotoAssembly,
        reports: ReportAssembly,
        alerts: AlertAssembly,
        sightings: SightingAssembly,
        responses: ResponseCache,
        answers: AnswerRecord,
        metrics: Metrics,
        logger: Logger
    ) {
        let gateway = upstream.gateway
        let api = AnnouncementsAPI(gateway: gateway, site: site)
        // What is kept per snapshot goes when a new snapshot replaces it (docs/performance.md "Memory"),
        // and so do the kept answers the server gives itself: a report published here or on another
        // replica (`ReportService.publish`, `PetSpotApp.dataChanged`) shows at once, not after their TTL.
        // The cards of a new list are made with it, off the server's threads (docs/performance.md "Steady speed").
        gateway.whenPreparing { [site] snapshot in
            site.caches.prepare(snapshot, renderer: site.renderer, languages: [PageLanguage.standard.language])
        }
        gateway.whenReplaced { [site, wholeList = api.wholeList, responses] generation in
            site.caches.retire(below: generation)
            wholeList.retire(below: generation)
            responses.retire(below: DayClock.reuseKey(generation: generation, day: 0))
        }
        let router = Router(
            site: site,
            staticFiles: files.staticFiles,
            pages: PageHandlers(site: site, gateway: gateway),
            api: api,
            images: photos.images,
            tiles: photos.tiles,
            gateway: gateway,
            metricsEndpoint: MetricsEndpoint(
                site: site,
                images: photos.images,
                tiles: photos.tiles,
                gateway: gateway,
                metrics: metrics,
                responses: responses
            ),
            readinessWindow: configuration.readinessWindow,
            reports: reports.handlers,
            writes: reports.writes,
            alerts: alerts.handlers,
            sightings: sightings.handlers
        )
        let pipeline = Pipeline(router: router, metrics: metrics, logger: logger, responses: responses)
        var serverConfiguration = ServerConfiguration(configuration)
        // The server's own answers (400, 405, 414, 500, 503), rendered once, in the language of the
        // request's headers and in its route's format (docs/architecture.md "Errors").
        let errors = ErrorRenderer(site: site)
        serverConfiguration.errorResponse = { errors.serverAnswer($0) }
        serverConfiguration.finishServerAnswer = { answers.finishServerAnswer(&$0, request: $1) }
        serverConfiguration.onRefusedConnection = { metrics.recordRefusedConnection() }
        serverConfiguration.onHeaderDeadline = { metrics.recordCutConnections($0) }
        // Request bodies: only the report form and the API writes, decided before any byte is read.
        let writePolicy = WritePolicy(site: site, identity: reports.handlers.identity) { response, head, route, requestID in
            pipeline.finishEarly(response, head: head, routeName: route, requestID: requestID)
        }
        serverConfiguration.bodyPolicy = { writePolicy.decide($0) }
        serverConfiguration.bodyRefusal = { writePolicy.refusal($0, $1) }
        self.pipeline = pipeline
        server = HTTPServer(
            configuration: serverConfiguration,
            logger: logger,
            preparedResponses: responses,
            handler: { request in pipeline.handle(request) }
        )
    }
}

extension ServerConfiguration {
    /// Address, threads, connection limits and the header deadline from the configuration.
    init(_ configuration: AppConfiguration) {
        self.init(
            host: configuration.host,
            port: configuration.port,
            threadCount: configuration.threadCount,
            connectionLimit: configuration.maxConnections,
            perAddressConnectionLimit: configuration.maxConnectionsPerAddress,
            headerTimeout: .milliseconds(Int64(configuration.headerTimeoutSeconds * 1000))
        )
    }
}

extension AppConfiguration {
    /// How long `/readyz` accepts the last good snapshot: two TTLs, at least `Limits.readinessFloor`.
    var readinessWindow: Duration { max(Limits.readinessFloor, .seconds(Int64(cacheTTLSeconds * 2))) }
}

extension ResponseCache {
    /// The response cache in the page memory (`--page-cache-mb`); a hit of the server's hook is
    /// counted and logged like any answer. Pages follow Accept-Language when the URL has no `lang`,
    /// so targets are indexed per language.
    static func make(
        configuration: AppConfiguration,
        answers: AnswerRecord,
        now: @escaping @Sendable () -> ContinuousClock.Instant
    ) -> ResponseCache {
        ResponseCache(
            maxBytes: CacheBudgets(configuration).responses,
            threadSlots: configuration.threadCount,
            now: now,
            languages: Language.negotiation,
            requestID: { RequestID.choose(from: $0) },
            onHit: { answers.record($0) }
        )
    }
}

extension AnswerRecord {
    /// A kept answer served by the server's hook: its body bytes, the request metric and log line.
    func record(_ hit: ResponseCache.Hit) {
        metrics.recordBodyBytes(hit.coding, count: hit.bodyBytes)
        record(route: hit.route, status: hit.status, requestID: hit.requestID, method: hit.method.rawValue, path: hit.path, seconds: hit.seconds)
    }

    /// The server's own answers get what every answer gets: a request id, the metric (route
    /// "server") and the log line. The renderer wrote the id into the API's body and the header;
    /// the log line says the same.
    func finishServerAnswer(_ response: inout Response, request: ServerMadeAnswer) {
        let requestID = response.headers[.xRequestID] ?? RequestID.choose(from: request.requestIDHeader)
        if response.headers[.xRequestID] == nil { response.headers.append(HTTPField(name: .xRequestID, value: requestID)) }
        record(route: "server", status: response.status, requestID: requestID, method: request.method, path: request.rawPath, seconds: 0)
    }
}
