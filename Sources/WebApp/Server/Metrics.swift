import Caching
import CoreMetrics
import Foundation
import HTTPTypes
import MicroHTTP
import PetAPIClient
import Prometheus
import Synchronization

/// The site's metrics through the swift-metrics API, exported as Prometheus text at `/metrics` by
/// swift-prometheus (docs/upstream.md §4). Each app has its own registry and factory (not
/// the process-wide `MetricsSystem`), so several apps in one process (the tests) count apart.
///
/// Series: `petspot_http_requests_total{route,status}`, `petspot_http_request_duration_seconds`
/// (histogram by route), `petspot_upstream_calls_total{endpoint}`,
/// `petspot_upstream_failures_total{endpoint,reason}`, `petspot_cache_lookups_total{result}`,
/// `petspot_items_skipped_total{reason}`, `petspot_snapshots_total`, `petspot_snapshot_items`,
/// `petspot_connections_refused_total`, `petspot_connections_cut_total`,
/// `petspot_response_body_bytes_total{encoding}` (body bytes sent as br, gzip or identity), and the gauges the router sets before each scrape (the
/// page caches, `petspot_snapshot_age_seconds`). Labels are written in name order.
final class Metrics: Sendable {
    /// Upper bounds of the latency histogram buckets, in seconds.
    static let latencyBuckets: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    private let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory

    /// The handles of one route and status, made once: making a metric looks it up in the
    /// registry under its lock, which every request would otherwise take.
    private struct RequestHandles {
        let count: CoreMetrics.Counter
        let duration: CoreMetrics.Timer
    }

    private struct RouteStatus: Hashable {
        let route: String
        let status: Int
    }

    /// Handles by route and status, in stripes by thread (`ThreadSpread`): every answer records here.
    private let stripes = Shards<[RouteStatus: RequestHandles]>(count: ThreadSpread.slotCount) { [:] }
    /// Cache lookups happen on nearly every request: four handles made once.
    private let cacheLookups: [String: CoreMetrics.Counter]
    /// Connections refused at the connection limit: counted on a server thread, a flood at a time.
    private let refusedConnections: CoreMetrics.Counter
    /// Connections closed at the header deadline.
    private let cutConnections: CoreMetrics.Counter
    /// Body bytes sent, by `ContentCoding.rawValue` (every answer adds to one).
    private let bodyBytes: [CoreMetrics.Counter]

    init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = Metrics.latencyBuckets.map { .nanoseconds(Int64($0 * 1e9)) }
        self.factory = factory
        var lookups: [String: CoreMetrics.Counter] = [:]
        for result in ["hit", "miss", "revalidated", "stale"] {
            lookups[result] = CoreMetrics.Counter(label: "petspot_cache_lookups_total", dimensions: [("result", result)], factory: factory)
        }
        cacheLookups = lookups
        // Made now, so the series reads 0 before the first refusal.
        refusedConnections = CoreMetrics.Counter(label: "petspot_connections_refused_total", factory: factory)
        cutConnections = CoreMetrics.Counter(label: "petspot_connections_cut_total", factory: factory)
        bodyBytes = ContentCoding.allCases.map { coding in
            CoreMetrics.Counter(label: "petspot_response_body_bytes_total", dimensions: [("encoding", coding.token ?? "identity")], factory: factory)
        }
    }

    /// Counts the body bytes of one answer sent in `coding` (0 for a 304 or a HEAD adds nothing).
    func recordBodyBytes(_ coding: ContentCoding, count: Int) {
        if count > 0 { bodyBytes[coding.rawValue].increment(by: count) }
    }

    /// Counts connections closed because their headers did not arrive in time.
    func recordCutConnections(_ count: Int) {
        cutConnections.increment(by: count)
    }

    /// Counts one connection refused at the server's connection limit.
    func recordRefusedConnection() {
        refusedConnections.increment()
    }

    /// Counts one cache lookup by how it was answered (`hit`, `miss`, `revalidated`, `stale`).
    func recordCacheLookup(_ result: String) {
        (cacheLookups[result] ?? cacheLookups["stale"])?.increment()
    }

    /// Counts one answered request and its duration.
    func recordRequest(route: String, status: HTTPResponse.Status, seconds: Double) {
        let key = RouteStatus(route: route, status: status.code)
        let handles = stripes.withLock(ThreadSpread.slot()) { handles in
            if let made = handles[key] { return made }
            let made = RequestHandles(
                count: CoreMetrics.Counter(
                    label: "petspot_http_requests_total",
                    dimensions: [("route", route), ("status", String(status.code))],
                    factory: factory
                ),
                duration: CoreMetrics.Timer(label: "petspot_http_request_duration_seconds", dimensions: [("route", route)], factory: factory)
            )
            handles[key] = made
            return made
        }
        handles.count.increment()
        handles.duration.recordNanoseconds(Int64(seconds * 1e9))
    }

    /// Adds `amount` to a counter, e.g. `increment("petspot_upstream_calls_total", labels: ["endpoint": "list"])`.
    func increment(_ name: String, labels: [String: String] = [:], by amount: Int = 1) {
        CoreMetrics.Counter(label: name, dimensions: Metrics.dimensions(labels), factory: factory).increment(by: amount)
    }

    /// Records one duration in a histogram, e.g. `petspot_store_duration_seconds{operation="claim"}`.
    func recordDuration(_ name: String, labels: [String: String] = [:], seconds: Double) {
        CoreMetrics.Timer(label: name, dimensions: Metrics.dimensions(labels), factory: factory).recordNanoseconds(Int64(seconds * 1e9))
    }

    /// Sets a gauge, e.g. `set("petspot_snapshot_items", to: 5000)`.
    func set(_ name: String, labels: [String: String] = [:], to value: Int) {
        Gauge(label: name, dimensions: Metrics.dimensions(labels), factory: factory).record(value)
    }

    /// Prometheus text exposition format 0.0.4, as swift-prometheus writes it.
    func render() -> String {
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }

    /// Labels in name order (the order the series were always written in).
    private static func dimensions(_ labels: [String: String]) -> [(String, String)] {
        labels.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}
