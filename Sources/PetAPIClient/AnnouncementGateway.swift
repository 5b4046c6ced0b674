import Caching
import Foundation
import HTTPTypes
import Logging
import PetDomain
import Synchronization

/// Settings of the gateway (docs/upstream.md §5; what they cost upstream: docs/scaling.md).
public struct GatewaySettings: Sendable {
    /// Total time for one upstream call.
    public var timeout: Duration = .seconds(5)
    /// Total time for a write (creating a report, uploading its photo): longer than a read, since
    /// a photo of a few megabytes travels with it.
    public var writeTimeout: Duration = .seconds(30)
    /// How long a validated result is fresh: the snapshot is fetched at most once per TTL.
    public var ttl: Duration = .seconds(30)
    /// How old a copy may be when served because the upstream fails.
    public var staleMax: Duration = .seconds(600)
    /// How long past its TTL the held snapshot still answers at once while one call fetches and indexes the
    /// next in the background; `.zero`: the first request after the TTL waits for that call (and so does
    /// every request meanwhile): docs/performance.md "Steady speed".
    public var refreshWindow: Duration = .zero
    /// Largest JSON body accepted (the whole list arrives in one body: 50,000 items are about 35 MB).
    public var maxJSONBytes: Int = 64 * 1024 * 1024
    /// The setting that sets `maxJSONBytes`, named in the log line when a body is over it.
    public var maxJSONBytesSetting: String = "maxJSONBytes"
    /// Largest photo accepted by the proxy.
    public var maxImageBytes: Int = 5 * 1024 * 1024
    /// Most cached details results, and their total size in bytes of upstream body.
    public var maxEntries: Int = 512
    public var maxCachedBytes: Int = 64 * 1024 * 1024
    /// Most details calls to the upstream at once; more distinct ids at the same moment are
    /// answered `busy` (503) instead of queueing upstream.
    public var maxDetailsCallsInFlight: Int = 8
    /// Most ids remembered as unknown to the upstream (each for one TTL).
    public var maxRememberedUnknownIDs: Int = 10_000
    /// Names the nearest place of every item once, when its snapshot (or details answer) is made;
    /// nil leaves `nearestPlace` empty (docs/place-names.md).
    public var places: PlaceFinder?

    /// The defaults.
    public init() {}
}

/// What the upstream sent to identify one version of a photo, for conditional revalidation.
public struct PhotoValidators: Sendable, Equatable, Codable {
    /// The upstream's `ETag`.
    public var etag: String?
    /// The upstream's `Last-Modified`.
    public var lastModified: String?

    /// The validators of an upstream answer's header fields; nil when it sent none.
    public init?(headers: HTTPFields) {
        etag = headers[.eTag]
        lastModified = headers[.lastModified]
        if etag == nil, lastModified == nil { return nil }
    }
}

/// Something the gateway did, for metrics.
public enum GatewayEvent: Sendable {
    case upstreamCall(endpoint: String)
    case upstreamFailure(endpoint: String, reason: String)
    case cache(CacheEvent)
    case skipped(reason: SkipReason)
    /// A new snapshot was indexed: its number of valid items.
    case snapshot(items: Int)
}

/// The upstream announcements API behind validation and a cache: pages and the JSON API ask
/// here, never the network directly.
///
/// The list is one snapshot for the whole process (docs/scaling.md): fetched without location, at most
/// once per TTL whatever the visitors ask (single flight, `If-None-Match` revalidation, stale-if-
/// error), indexed once; location, range, filters, order and paging are answered from it locally.
public final class AnnouncementGateway: Sendable {
    let transport: UpstreamTransport
    let settings: GatewaySettings
    private let logger: Logger
    let onEvent: @Sendable (GatewayEvent) -> Void
    let snapshots: ResultCache<Snapshot>
    private let details: ResultCache<Announcement>
    /// Ids the upstream answered 404 for, each remembered for one TTL.
    private let unknownIDs: ExpiringMap<String, Bool>
    private let detailsInFlight = Atomic<Int>(0)
    /// The monotonic time: `ContinuousClock.now` in production, a manual clock in tests.
    private let clock: @Sendable () -> ContinuousClock.Instant
    /// Told the generation of each new snapshot as it replaces the one before (`whenReplaced`).
    private let replacedListeners = Mutex<[@Sendable (Int) -> Void]>([])
    private let snapshotListeners = Mutex<[@Sendable (Snapshot) -> Void]>([])
    /// Where the reunited pets come from (`readReunitedPets`), and the version the held snapshot was split by.
    private let reunitedSource = Mutex<(@Sendable () -> ReunitedPets)?>(nil)
    private let heldReunitedVersion = Atomic<Int>(0)
    /// The last snapshot made, whose decoded items the next list reuses (`Snapshot.decoded`).
    private let lastBuilt = Mutex<Snapshot?>(nil)
    /// Called with each new snapshot while it is made (`whenPreparing`).
    private let preparers = Mutex<[@Sendable (Snapshot) -> @Sendable () -> Void]>([])

    /// A snapshot made off the server's threads (`BackgroundWork`): with its decode, what its preparers made
    /// (`whenPreparing`) and the CPU milliseconds of decode, index and preparing (the refresh's log line).
    private struct Built: Sendable {
        var snapshot: Snapshot
        var decoded: DecodedList
        var installs: [@Sendable () -> Void]
        var phases: [String]
    }

    /// The cache key of the one snapshot.
    static let snapshotKey = "list"

    /// Creates a gateway over `transport`; `now` tells the time for its TTLs and `date` the wall-clock
    /// date its data was confirmed at (the app passes its one clock for both; tests a manual one).
    public init(
        transport: UpstreamTransport,
        settings: GatewaySettings = GatewaySettings(),
        logger: Logger,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now },
        date: @escaping @Sendable () -> Date = { Date() },
        onEvent: @escaping @Sendable (GatewayEvent) -> Void = { _ in }
    ) {
        self.clock = now
        unknownIDs = ExpiringMap(maxEntries: settings.maxRememberedUnknownIDs, now: now)
        self.transport = transport
        self.settings = settings
        self.logger = logger
        self.onEvent = onEvent
        let cacheEvent: @Sendable (CacheEvent) -> Void = { onEvent(.cache($0)) }
        snapshots = ResultCache(
            ttl: settings.ttl,
            staleMax: settings.staleMax,
            refreshWindow: settings.refreshWindow,
            maxEntries: 1,
            maxCost: .max,
            now: now,
            date: date,
            onEvent: cacheEvent
        )
        details = ResultCache(
            ttl: settings.ttl,
            staleMax: settings.staleMax,
            maxEntries: settings.maxEntries,
            maxCost: settings.maxCachedBytes,
            now: now,
            date: date,
            onEvent: cacheEvent
        )
    }

    /// Calls `retire` with the generation of every new snapshot, as it is about to replace the one
    /// before (a 304 revalidation keeps the old one and calls nothing): data kept per snapshot
    /// generation (cards, feed entries, the encoded list) is let go then, not when the next request
    /// of its own kind comes, which may be much later (docs/performance.md "Memory").
    public func whenReplaced(_ retire: @escaping @Sendable (_ newGeneration: Int) -> Void) {
        replacedListeners.withLock { $0.append(retire) }
    }

    /// Calls `prepare` with every new snapshot while it is made, on the thread that decodes and indexes it
    /// (`BackgroundWork`, before any request sees it): what pages need of each item is made there, reusing the
    /// predecessor's for unchanged items (`Snapshot.carried`). The closure it returns is called just before the
    /// snapshot replaces the held one (before `whenReplaced`'s), to put what was made in place.
    public func whenPreparing(_ prepare: @escaping @Sendable (Snapshot) -> @Sendable () -> Void) {
        preparers.withLock { $0.append(prepare) }
    }

    /// Calls `listen` with every new snapshot (not a 304 revalidation), after the ones of `whenReplaced`:
    /// the alerts' fan-out compares it with the one before (docs/alerts.md "Once per pet").
    public func whenNewSnapshot(_ listen: @escaping @Sendable (Snapshot) -> Void) {
        snapshotListeners.withLock { $0.append(listen) }
    }

    /// Every snapshot from now on puts the pets `source` names apart (`Snapshot.reunited`); `source` answers from
    /// memory (it is asked on every fetch, and a list must not wait for a database). When its version
    /// differs from the held snapshot's, the next fetch asks for the whole list again (no `If-None-Match`), since
    /// a 304 would keep the old split.
    public func readReunitedPets(from source: @escaping @Sendable () -> ReunitedPets) {
        reunitedSource.withLock { $0 = source }
    }

    /// How long ago the upstream last confirmed the snapshot held (fresh or stale); nil before the first.
    public func snapshotAge() -> Duration? {
        snapshots.age(of: AnnouncementGateway.snapshotKey)
    }

    /// The snapshot when it is fresh, without waiting: the synchronous path of requests answered
    /// from data in hand. Nil when it must be fetched (first request, or the TTL has passed).
    public func freshSnapshot() -> Fetched<Snapshot>? {
        snapshots.freshValue(for: AnnouncementGateway.snapshotKey)
    }

    /// The snapshot: fresh from memory, or from the one shared upstream call (revalidated with the
    /// upstream's ETag), or a stale copy while the upstream fails.
    /// `refreshing`: a new call now, whatever the cache holds (after a write upstream).
    public func snapshot(requestID: String, refreshing: Bool = false) async throws(UpstreamFailure) -> Fetched<Snapshot> {
        try await snapshots.value(for: AnnouncementGateway.snapshotKey, refreshing: refreshing, fetch: listFetch(requestID: requestID))
    }

    /// The snapshot without waiting: fresh, or past its TTL by less than the refresh window while one call
    /// fetches the next in the background (started here unless one runs); nil when the request must wait
    /// (`snapshot(requestID:)`). Requests in that window were answered through the waiting path, on Swift's pool
    /// instead of the server's thread (docs/performance.md "Steady speed").
    public func heldSnapshot(requestID: String) -> Fetched<Snapshot>? {
        snapshots.freshValue(for: AnnouncementGateway.snapshotKey)
            ?? snapshots.heldWhileRefreshing(AnnouncementGateway.snapshotKey, fetch: listFetch(requestID: requestID))
    }

    /// The one upstream call of the list for `requestID`, as the snapshot cache makes it (`held`: its ETag).
    private func listFetch(requestID: String) -> @Sendable (_ held: String?) async throws(UpstreamFailure) -> FetchOutcome<Snapshot> {
        { held throws(UpstreamFailure) in try await self.fetchList(held: held, requestID: requestID) }
    }

    /// The list from the upstream: a 304 for `held`, or a new snapshot decoded and indexed off the server's threads.
    private func fetchList(held: String?, requestID: String) async throws(UpstreamFailure) -> FetchOutcome<Snapshot> {
        let path = UpstreamPaths.list
        let source = self.reunitedSource.withLock { $0 }
        let reunited = source?() ?? .none
        let etag = reunited.version == self.heldReunitedVersion.load(ordering: .acquiring) ? held : nil
        var response = try await self.call(path, endpoint: "list", etag: etag, requestID: requestID, maxBytes: self.settings.maxJSONBytes)
        if response.status == 304, etag != nil { return .notModified }
        guard response.status == 200 else {
            throw self.failed("list", .badStatus(response.status, upstreamRequestID: response.headers[.upstreamRequestID]), requestID: requestID)
        }
        try self.requireJSON(response, endpoint: "list", requestID: requestID)
        // Decoded, indexed and prepared for pages off the server's threads, at a lower priority, reusing what
        // the held snapshot decoded of unchanged items (docs/performance.md "Steady speed").
        // The body is let go as soon as it is decoded, before the index and cards are made (the refresh's peak).
        let bodyCount = response.body.count
        let body = Handoff(response.body)
        response.body = []
        let previous = self.lastBuilt.withLock { $0 }
        let places = self.settings.places
        let preparers = self.preparers.withLock { $0 }
        let (built, work) = await BackgroundWork.run { () -> Result<Built, DecodingFailure> in
            var phases: [Duration] = [BackgroundWork.threadCPUTime()]
            let decoded: DecodedList
            do throws(DecodingFailure) {
                decoded = try AnnouncementGateway.decode(taking: body, places: places, reusing: previous)
            } catch {
                return .failure(error)
            }
            phases.append(BackgroundWork.threadCPUTime())
            let snapshot = Snapshot(decoded, reunited: reunited, predecessor: previous)
            phases.append(BackgroundWork.threadCPUTime())
            let installs = preparers.map { $0(snapshot) }
            phases.append(BackgroundWork.threadCPUTime())
            let spent = zip(phases.dropFirst(), phases).map { "\(($0 - $1).milliseconds)" }
            return .success(Built(snapshot: snapshot, decoded: decoded, installs: installs, phases: spent))
        }
        let snapshot: Snapshot
        let decoded: DecodedList
        let installs: [@Sendable () -> Void]
        let phases: [String]
        switch built {
        case .success(let made): (snapshot, decoded, installs, phases) = (made.snapshot, made.decoded, made.installs, made.phases)
        case .failure(let error):
            throw self.failed(
                "list",
                .malformedBody(detail: error.message, upstreamRequestID: response.headers[.upstreamRequestID]),
                requestID: requestID
            )
        }
        self.report(decoded.outcome, requestID: requestID)
        self.logger.info(
            "indexed a new list",
            metadata: [
                "items": "\(snapshot.index.count)", "reused": "\(decoded.reusedCount)",
                "cpu_ms": "\(work.cpu.milliseconds)", "ms": "\(work.wall.milliseconds)",
                "decode_ms": "\(phases[0])", "index_ms": "\(phases[1])", "prepare_ms": "\(phases[2])", "request_id": "\(requestID)",
            ]
        )
        self.lastBuilt.withLock { $0 = snapshot }
        self.heldReunitedVersion.store(reunited.version, ordering: .releasing)
        self.onEvent(.snapshot(items: snapshot.index.count))
        for install in installs { install() }
        for retire in self.replacedListeners.withLock({ $0 }) { retire(snapshot.generation) }
        for listen in self.snapshotListeners.withLock({ $0 }) { listen(snapshot) }
        return .fresh(snapshot, etag: response.headers[.eTag], cost: bodyCount)
    }

    /// The decode of the list body `body` holds, reusing what `previous` decoded (`DecodedItems`); the body is
    /// taken out of `body` and freed when this returns.
    private static func decode(
        taking body: Handoff<[UInt8]>,
        places: PlaceFinder?,
        reusing previous: Snapshot?
    ) throws(DecodingFailure) -> DecodedList {
        let bytes = body.take() ?? []
        return try AnnouncementDecoder.decodeList(bytes: bytes, places: places, reusing: previous?.decoded ?? .none) { previous?.item(at: $0) }
    }

    /// One validated announcement: from the snapshot when it holds the id (no upstream call),
    /// else from the details endpoint, cached per id. `.notFound` for an upstream 404 (remembered
    /// for one TTL), `.invalidAnnouncement` when it fails validation, `.busy` when too many
    /// details calls are in flight.
    public func announcement(id: String, requestID: String) async throws(UpstreamFailure) -> Fetched<Announcement> {
        if let snapshot = try? await snapshot(requestID: requestID), let item = snapshot.value.announcement(id: id) {
            return Fetched(value: item, fetchedAt: snapshot.fetchedAt, confirmedAt: snapshot.confirmedAt, staleBecause: snapshot.staleBecause)
        }
        if isRememberedUnknown(id) { throw .notFound }
        do {
            // Not listed (the backend lists only reports with a photo): still marked when it is home.
            var fetched = try await fetchDetails(id: id, requestID: requestID)
            if let at = reunitedSource.withLock({ $0 })?().at[id] { fetched.value.reunitedAt = at }
            return fetched
        } catch .notFound {
            remember(unknown: id)
            throw .notFound
        }
    }

    /// The details endpoint for `id`, cached, with the bound on calls in flight.
    private func fetchDetails(id: String, requestID: String) async throws(UpstreamFailure) -> Fetched<Announcement> {
        let path = UpstreamPaths.details(id: id)
        return try await details.value(for: path) { etag throws(UpstreamFailure) in
            guard self.detailsInFlight.add(1, ordering: .acquiringAndReleasing).newValue <= self.settings.maxDetailsCallsInFlight else {
                self.detailsInFlight.subtract(1, ordering: .acquiringAndReleasing)
                throw self.failed("details", .busy, requestID: requestID)
            }
            defer { self.detailsInFlight.subtract(1, ordering: .acquiringAndReleasing) }
            let response = try await self.call(path, endpoint: "details", etag: etag, requestID: requestID, maxBytes: self.settings.maxJSONBytes)
            if response.status == 304, etag != nil { return .notModified }
            if response.status == 404 { throw UpstreamFailure.notFound }
            guard response.status == 200 else {
                throw self.failed(
                    "details",
                    .badStatus(response.status, upstreamRequestID: response.headers[.upstreamRequestID]),
                    requestID: requestID
                )
            }
            try self.requireJSON(response, endpoint: "details", requestID: requestID)
            switch AnnouncementDecoder.decodeDetails(Data(response.body)) {
            case .success(let (announcement, warnings)):
                for warning in warnings {
                    self.logger.notice(
                        "dropped an optional value",
                        metadata: ["id": "\(warning.id)", "field": "\(warning.field)", "detail": "\(warning.detail)", "request_id": "\(requestID)"]
                    )
                }
                return .fresh(announcement.withNearestPlace(self.settings.places), etag: response.headers[.eTag], cost: response.body.count)
            case .failure(.body(let failure)):
                throw self.failed(
                    "details",
                    .malformedBody(detail: failure.message, upstreamRequestID: response.headers[.upstreamRequestID]),
                    requestID: requestID
                )
            case .failure(.invalid(let skipped)):
                self.onEvent(.skipped(reason: skipped.reason))
                throw self.failed("details", .invalidAnnouncement(detail: "\(skipped.reason.rawValue): \(skipped.detail)"), requestID: requestID)
            }
        }
    }

    private func isRememberedUnknown(_ id: String) -> Bool {
        unknownIDs.value(for: id) != nil
    }

    private func remember(unknown id: String) {
        unknownIDs.put(true, for: id, expires: clock() + settings.ttl)
    }

    /// A photo from the upstream's `/images/` folder: only `image/*` content passes, size-capped,
    /// not cached here (the web app's photo cache keeps what it makes of it). With `validators`
    /// (what an earlier answer sent as `ETag` / `Last-Modified`) the call is conditional and may
    /// answer 304 with an empty body: the photo has not changed.
    public func image(path: String, requestID: String, validators: PhotoValidators? = nil) async throws(UpstreamFailure) -> UpstreamResponse {
        guard let upstreamPath = UpstreamPaths.image(path) else { throw UpstreamFailure.notFound }
        var headers = HTTPFields()
        if let etag = validators?.etag { headers[.ifNoneMatch] = etag }
        if let lastModified = validators?.lastModified { headers[.ifModifiedSince] = lastModified }
        let response = try await call(upstreamPath, endpoint: "image", headers: headers, requestID: requestID, maxBytes: settings.maxImageBytes)
        if response.status == 404 { throw UpstreamFailure.notFound }
        if response.status == 304, validators != nil { return response }
        guard response.status == 200 else {
            throw failed("image", .badStatus(response.status, upstreamRequestID: response.headers[.upstreamRequestID]), requestID: requestID)
        }
        let type = (response.headers[.contentType] ?? "").lowercased()
        guard type.hasPrefix("image/") else {
            throw failed(
                "image",
                .malformedBody(detail: "content type '\(type)' is not an image", upstreamRequestID: response.headers[.upstreamRequestID]),
                requestID: requestID
            )
        }
        return response
    }

    /// True when the upstream answered within `window` (readiness).
    public func answeredRecently(within window: Duration) -> Bool {
        snapshots.hasEntry(confirmedWithin: window) || details.hasEntry(confirmedWithin: window)
    }

    /// Releases the transport's connections.
    public func shutdown() async { await transport.shutdown() }

    // MARK: - Plumbing

    private func call(
        _ path: String,
        endpoint: String,
        etag: String?,
        requestID: String,
        maxBytes: Int
    ) async throws(UpstreamFailure) -> UpstreamResponse {
        try await call(path, endpoint: endpoint, headers: etag.map { [.ifNoneMatch: $0] } ?? [:], requestID: requestID, maxBytes: maxBytes)
    }

    private func call(
        _ path: String,
        endpoint: String,
        headers extra: HTTPFields,
        requestID: String,
        maxBytes: Int
    ) async throws(UpstreamFailure) -> UpstreamResponse {
        onEvent(.upstreamCall(endpoint: endpoint))
        var headers = extra
        headers[.forwardedRequestID] = requestID
        do {
            return try await transport.get(UpstreamRequest(pathAndQuery: path, headers: headers, timeout: settings.timeout, maxBodyBytes: maxBytes))
        } catch {
            throw failed(endpoint, error, requestID: requestID)
        }
    }

    private func requireJSON(_ response: UpstreamResponse, endpoint: String, requestID: String) throws(UpstreamFailure) {
        let type = (response.headers[.contentType] ?? "").lowercased()
        guard type.contains("json") else {
            throw failed(
                endpoint,
                .malformedBody(detail: "content type '\(type)' is not JSON", upstreamRequestID: response.headers[.upstreamRequestID]),
                requestID: requestID
            )
        }
    }

    /// Logs a failure with our and the upstream's request ids, counts it, and returns it for throwing.
    func failed(_ endpoint: String, _ failure: UpstreamFailure, requestID: String) -> UpstreamFailure {
        if case .bodyTooLarge(let limit, _) = failure, endpoint != "image" {
            logger.error(
                "upstream body over the size limit: raise the setting if the upstream really holds that much",
                metadata: [
                    "endpoint": "\(endpoint)", "limit_bytes": "\(limit)", "setting": "\(settings.maxJSONBytesSetting)",
                    "request_id": "\(requestID)", "upstream_request_id": "\(failure.upstreamRequestID ?? "-")",
                ]
            )
            onEvent(.upstreamFailure(endpoint: endpoint, reason: failure.metricLabel))
            return failure
        }
        if failure != .notFound {
            onEvent(.upstreamFailure(endpoint: endpoint, reason: failure.metricLabel))
            logger.warning(
                "upstream call failed",
                metadata: [
                    "endpoint": "\(endpoint)", "failure": "\(failure)", "request_id": "\(requestID)",
                    "upstream_request_id": "\(failure.upstreamRequestID ?? "-")",
                ]
            )
        }
        return failure
    }

    private func report(_ outcome: ListOutcome, requestID: String) {
        for skipped in outcome.skipped {
            onEvent(.skipped(reason: skipped.reason))
            logger.warning(
                "skipped an invalid announcement",
                metadata: [
                    "id": "\(skipped.id ?? "-")", "reason": "\(skipped.reason.rawValue)", "detail": "\(skipped.detail)", "request_id": "\(requestID)",
                ]
            )
        }
        for warning in outcome.warnings {
            logger.notice("dropped an optional value", metadata: ["id": "\(warning.id)", "field": "\(warning.field)", "detail": "\(warning.detail)"])
        }
    }
}
