import Foundation
import Logging
import PetDomain

/// Settings of the gateway (product-spec §5, issue 4).
public struct GatewaySettings: Sendable {
    /// Total time for one upstream call.
    public var timeout: Duration = .seconds(5)
    /// How long a validated result is fresh.
    public var ttl: Duration = .seconds(30)
    /// How old a copy may be when served because the upstream fails.
    public var staleMax: Duration = .seconds(600)
    /// Largest JSON body accepted.
    public var maxJSONBytes: Int = 8 * 1024 * 1024
    /// Largest photo accepted by the proxy.
    public var maxImageBytes: Int = 5 * 1024 * 1024
    /// Most cached results, and their total size in bytes of upstream body.
    public var maxEntries: Int = 512
    public var maxCachedBytes: Int = 64 * 1024 * 1024

    /// The defaults.
    public init() {}
}

/// Something the gateway did, for metrics.
public enum GatewayEvent: Sendable {
    case upstreamCall(endpoint: String)
    case upstreamFailure(endpoint: String, reason: String)
    case cache(CacheEvent)
    case skipped(reason: SkipReason)
}

/// The upstream announcements API behind validation and a cache: pages and the JSON API ask
/// here, never the network directly.
public final class AnnouncementGateway: Sendable {
    private let transport: UpstreamTransport
    private let settings: GatewaySettings
    private let logger: Logger
    private let onEvent: @Sendable (GatewayEvent) -> Void
    private let lists: ResultCache<ListOutcome>
    private let details: ResultCache<Announcement>

    /// Creates a gateway over `transport`.
    public init(
        transport: UpstreamTransport,
        settings: GatewaySettings = GatewaySettings(),
        logger: Logger,
        onEvent: @escaping @Sendable (GatewayEvent) -> Void = { _ in }
    ) {
        self.transport = transport
        self.settings = settings
        self.logger = logger
        self.onEvent = onEvent
        let cacheEvent: @Sendable (CacheEvent) -> Void = { onEvent(.cache($0)) }
        lists = ResultCache(ttl: settings.ttl, staleMax: settings.staleMax, maxEntries: settings.maxEntries,
                            maxCost: settings.maxCachedBytes, onEvent: cacheEvent)
        details = ResultCache(ttl: settings.ttl, staleMax: settings.staleMax, maxEntries: settings.maxEntries,
                              maxCost: settings.maxCachedBytes, onEvent: cacheEvent)
    }

    /// The validated list for a location query (coordinates rounded to 4 decimals, the cache key).
    public func list(near origin: Coordinate?, rangeKm: Int?, requestID: String) async throws(UpstreamFailure) -> Fetched<ListOutcome> {
        let path = UpstreamPaths.list(origin: origin, rangeKm: rangeKm)
        return try await lists.value(for: path) { etag throws(UpstreamFailure) in
            let response = try await self.call(path, endpoint: "list", etag: etag, requestID: requestID, maxBytes: self.settings.maxJSONBytes)
            if response.status == 304, etag != nil { return .notModified }
            guard response.status == 200 else {
                throw self.failed("list", .badStatus(response.status, upstreamRequestID: response.headers["request-id"]), requestID: requestID)
            }
            try self.requireJSON(response, endpoint: "list", requestID: requestID)
            let outcome: ListOutcome
            do throws(DecodingFailure) {
                outcome = try AnnouncementDecoder.decodeList(Data(response.body))
            } catch {
                throw self.failed("list", .malformedBody(detail: error.message, upstreamRequestID: response.headers["request-id"]), requestID: requestID)
            }
            self.report(outcome, requestID: requestID)
            return .fresh(outcome, etag: response.headers["etag"], cost: response.body.count)
        }
    }

    /// One validated announcement; `.notFound` for an upstream 404, `.invalidAnnouncement` when it fails validation.
    public func announcement(id: String, requestID: String) async throws(UpstreamFailure) -> Fetched<Announcement> {
        let path = UpstreamPaths.details(id: id)
        return try await details.value(for: path) { etag throws(UpstreamFailure) in
            let response = try await self.call(path, endpoint: "details", etag: etag, requestID: requestID, maxBytes: self.settings.maxJSONBytes)
            if response.status == 304, etag != nil { return .notModified }
            if response.status == 404 { throw UpstreamFailure.notFound }
            guard response.status == 200 else {
                throw self.failed("details", .badStatus(response.status, upstreamRequestID: response.headers["request-id"]), requestID: requestID)
            }
            try self.requireJSON(response, endpoint: "details", requestID: requestID)
            switch AnnouncementDecoder.decodeDetails(Data(response.body)) {
            case .success(let (announcement, warnings)):
                for warning in warnings {
                    self.logger.notice("dropped an optional value", metadata: ["id": "\(warning.id)", "field": "\(warning.field)", "detail": "\(warning.detail)", "request_id": "\(requestID)"])
                }
                return .fresh(announcement, etag: response.headers["etag"], cost: response.body.count)
            case .failure(.body(let failure)):
                throw self.failed("details", .malformedBody(detail: failure.message, upstreamRequestID: response.headers["request-id"]), requestID: requestID)
            case .failure(.invalid(let skipped)):
                self.onEvent(.skipped(reason: skipped.reason))
                throw self.failed("details", .invalidAnnouncement(detail: "\(skipped.reason.rawValue): \(skipped.detail)"), requestID: requestID)
            }
        }
    }

    /// A photo from the upstream's `/images/` folder: only `image/*` content passes, size-capped, not cached here
    /// (the proxy sends cache headers instead).
    public func image(path: String, requestID: String) async throws(UpstreamFailure) -> UpstreamResponse {
        guard let upstreamPath = UpstreamPaths.image(path) else { throw UpstreamFailure.notFound }
        let response = try await call(upstreamPath, endpoint: "image", etag: nil, requestID: requestID, maxBytes: settings.maxImageBytes)
        if response.status == 404 { throw UpstreamFailure.notFound }
        guard response.status == 200 else {
            throw failed("image", .badStatus(response.status, upstreamRequestID: response.headers["request-id"]), requestID: requestID)
        }
        let type = (response.headers["content-type"] ?? "").lowercased()
        guard type.hasPrefix("image/") else {
            throw failed("image", .malformedBody(detail: "content type '\(type)' is not an image", upstreamRequestID: response.headers["request-id"]), requestID: requestID)
        }
        return response
    }

    /// True when the upstream answered within `window` (readiness).
    public func answeredRecently(within window: Duration) -> Bool {
        lists.hasEntry(confirmedWithin: window) || details.hasEntry(confirmedWithin: window)
    }

    /// Releases the transport's connections.
    public func shutdown() async { await transport.shutdown() }

    // MARK: - Plumbing

    private func call(_ path: String, endpoint: String, etag: String?, requestID: String, maxBytes: Int) async throws(UpstreamFailure) -> UpstreamResponse {
        onEvent(.upstreamCall(endpoint: endpoint))
        var headers = ["X-Request-Id": requestID]
        if let etag { headers["If-None-Match"] = etag }
        do {
            return try await transport.get(UpstreamRequest(pathAndQuery: path, headers: headers, timeout: settings.timeout, maxBodyBytes: maxBytes))
        } catch {
            throw failed(endpoint, error, requestID: requestID)
        }
    }

    private func requireJSON(_ response: UpstreamResponse, endpoint: String, requestID: String) throws(UpstreamFailure) {
        let type = (response.headers["content-type"] ?? "").lowercased()
        guard type.contains("json") else {
            throw failed(endpoint, .malformedBody(detail: "content type '\(type)' is not JSON", upstreamRequestID: response.headers["request-id"]), requestID: requestID)
        }
    }

    /// Logs a failure with our and the upstream's request ids, counts it, and returns it for throwing.
    private func failed(_ endpoint: String, _ failure: UpstreamFailure, requestID: String) -> UpstreamFailure {
        if failure != .notFound {
            onEvent(.upstreamFailure(endpoint: endpoint, reason: failure.metricLabel))
            logger.warning("upstream call failed", metadata: [
                "endpoint": "\(endpoint)", "failure": "\(failure)", "request_id": "\(requestID)",
                "upstream_request_id": "\(failure.upstreamRequestID ?? "-")",
            ])
        }
        return failure
    }

    private func report(_ outcome: ListOutcome, requestID: String) {
        for skipped in outcome.skipped {
            onEvent(.skipped(reason: skipped.reason))
            logger.warning("skipped an invalid announcement", metadata: [
                "id": "\(skipped.id ?? "-")", "reason": "\(skipped.reason.rawValue)", "detail": "\(skipped.detail)", "request_id": "\(requestID)",
            ])
        }
        for warning in outcome.warnings {
            logger.notice("dropped an optional value", metadata: ["id": "\(warning.id)", "field": "\(warning.field)", "detail": "\(warning.detail)"])
        }
    }
}
