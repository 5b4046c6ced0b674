import Foundation
import PetAPIClient
import Synchronization

/// Counters and a latency histogram, exposed as Prometheus text at `/metrics` (product-spec §4).
final class Metrics: Sendable {
    /// Upper bounds of the latency histogram buckets, in seconds.
    static let latencyBuckets: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    /// Request counts and latencies, kept in a few stripes by thread (`ThreadSpread`) and summed
    /// when rendered: every answer records here, and one lock for all server threads was contended.
    private struct RequestState {
        var requests: [RouteStatus: Int] = [:]
        var latencyCounts: [String: [Int]] = [:]     // route → cumulative-ready bucket counts (+Inf last)
        var latencySum: [String: Double] = [:]
    }

    private final class RequestStripe: Sendable {
        let state = Mutex(RequestState())
    }

    private let requestStripes: [RequestStripe] = (0..<ThreadSpread.slotCount).map { _ in RequestStripe() }

    private struct State {
        var counters: [String: Int] = [:]            // full metric line key → value
        var gauges: [String: Int] = [:]              // full metric line key → value
    }

    /// The key of a request count (a struct: formatting a "route|status" text per request cost
    /// more than the count itself).
    private struct RouteStatus: Hashable {
        let route: String
        let status: Int
    }

    private let state = Mutex(State())
    /// Cache lookups happen on nearly every request: counted without the lock and the label
    /// formatting of `increment`, and rendered as `petspot_cache_lookups_total{result=…}`.
    private let cacheHits = Atomic<Int>(0)
    private let cacheMisses = Atomic<Int>(0)
    private let cacheRevalidations = Atomic<Int>(0)
    private let cacheStaleAnswers = Atomic<Int>(0)

    /// Counts one cache lookup by how it was answered.
    func recordCacheLookup(_ result: String) {
        switch result {
        case "hit": cacheHits.add(1, ordering: .relaxed)
        case "miss": cacheMisses.add(1, ordering: .relaxed)
        case "revalidated": cacheRevalidations.add(1, ordering: .relaxed)
        default: cacheStaleAnswers.add(1, ordering: .relaxed)
        }
    }

    /// Counts one answered request and its duration.
    func recordRequest(route: String, status: Int, seconds: Double) {
        requestStripes[ThreadSpread.slot()].state.withLock { state in
            state.requests[RouteStatus(route: route, status: status), default: 0] += 1
            let index = Metrics.latencyBuckets.firstIndex(where: { seconds <= $0 }) ?? Metrics.latencyBuckets.count
            // In place: taking the array out and storing it back copied it on every request.
            state.latencyCounts[route, default: Array(repeating: 0, count: Metrics.latencyBuckets.count + 1)][index] += 1
            state.latencySum[route, default: 0] += seconds
        }
    }

    /// Adds `amount` to a counter, e.g. `increment("petspot_upstream_calls_total", labels: ["endpoint": "list"])`.
    func increment(_ name: String, labels: [String: String] = [:], by amount: Int = 1) {
        let key = Metrics.series(name, labels)
        state.withLock { $0.counters[key, default: 0] += amount }
    }

    /// Sets a gauge, e.g. `set("petspot_snapshot_items", to: 5000)`.
    func set(_ name: String, labels: [String: String] = [:], to value: Int) {
        let key = Metrics.series(name, labels)
        state.withLock { $0.gauges[key] = value }
    }

    /// The current value of a counter (for tests and readiness).
    func value(_ name: String, labels: [String: String] = [:]) -> Int {
        let key = Metrics.series(name, labels)
        return state.withLock { $0.counters[key] ?? 0 }
    }

    /// Prometheus text exposition format 0.0.4.
    func render() -> String {
        var snapshot = state.withLock { $0 }
        var requests = RequestState()
        for stripe in requestStripes {
            let part = stripe.state.withLock { $0 }
            requests.requests.merge(part.requests, uniquingKeysWith: +)
            requests.latencySum.merge(part.latencySum, uniquingKeysWith: +)
            requests.latencyCounts.merge(part.latencyCounts) { zip($0, $1).map(+) }
        }
        let lookups = [
            ("hit", cacheHits.load(ordering: .relaxed)), ("miss", cacheMisses.load(ordering: .relaxed)),
            ("revalidated", cacheRevalidations.load(ordering: .relaxed)), ("stale", cacheStaleAnswers.load(ordering: .relaxed)),
        ]
        for (result, count) in lookups {
            if count > 0 { snapshot.counters[Metrics.series("petspot_cache_lookups_total", ["result": result])] = count }
        }
        var lines: [String] = []
        lines.append("# HELP petspot_http_requests_total Requests answered, by route and status.")
        lines.append("# TYPE petspot_http_requests_total counter")
        for key in requests.requests.keys.sorted(by: { ($0.route, String($0.status)) < ($1.route, String($1.status)) }) {
            lines.append(Metrics.series("petspot_http_requests_total", ["route": key.route, "status": String(key.status)]) + " \(requests.requests[key] ?? 0)")
        }
        lines.append("# HELP petspot_http_request_duration_seconds Time to answer a request, by route.")
        lines.append("# TYPE petspot_http_request_duration_seconds histogram")
        for route in requests.latencyCounts.keys.sorted() {
            let counts = requests.latencyCounts[route] ?? []
            var cumulative = 0
            for (index, bound) in Metrics.latencyBuckets.enumerated() {
                cumulative += counts[index]
                lines.append(Metrics.series("petspot_http_request_duration_seconds_bucket", ["route": route, "le": String(bound)]) + " \(cumulative)")
            }
            cumulative += counts.last ?? 0
            lines.append(Metrics.series("petspot_http_request_duration_seconds_bucket", ["route": route, "le": "+Inf"]) + " \(cumulative)")
            lines.append(Metrics.series("petspot_http_request_duration_seconds_sum", ["route": route]) + " \(requests.latencySum[route] ?? 0)")
            lines.append(Metrics.series("petspot_http_request_duration_seconds_count", ["route": route]) + " \(cumulative)")
        }
        var typed = Set<String>()
        for key in snapshot.counters.keys.sorted() {
            let name = String(key.prefix { $0 != "{" && $0 != " " })
            if typed.insert(name).inserted { lines.append("# TYPE \(name) counter") }
            lines.append("\(key) \(snapshot.counters[key] ?? 0)")
        }
        typed.removeAll()
        for key in snapshot.gauges.keys.sorted() {
            let name = String(key.prefix { $0 != "{" && $0 != " " })
            if typed.insert(name).inserted { lines.append("# TYPE \(name) gauge") }
            lines.append("\(key) \(snapshot.gauges[key] ?? 0)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `name{a="1",b="2"}` with escaped label values, labels sorted.
    static func series(_ name: String, _ labels: [String: String]) -> String {
        guard !labels.isEmpty else { return name }
        let body = labels.keys.sorted().map { key in
            let value = (labels[key] ?? "").replacingOccurrences(of: "\\", with: "\\\\")
                .replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "\n", with: "\\n")
            return "\(key)=\"\(value)\""
        }.joined(separator: ",")
        return "\(name){\(body)}"
    }
}
