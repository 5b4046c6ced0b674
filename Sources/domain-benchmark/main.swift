import Foundation
import HTTPTypes
import Logging
import PetAPIClient
import PetDomain
import WebApp

// Release-build benchmark of the domain layer: decode + validate + sort of a generated
// 5,000-item dialect-A list body, then indexing and pages per second rendered
// in-process through the whole request pipeline (no sockets). Prints figures; asserts nothing.
// Run from the repository root (it reads Templates/):
//   swift run -c release --scratch-path .build-release domain-benchmark

/// CPU time of this thread in milliseconds: unlike wall time, unaffected by other processes on a
/// busy machine (the figure to compare between runs; wall time is what a request would see).
func threadCPUMilliseconds() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return Double(spec.tv_sec) * 1000 + Double(spec.tv_nsec) / 1_000_000
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}

let itemCount = 5_000
let runs = 21
let body = makeDialectABody(count: itemCount)
let query = AnnouncementQuery(sort: .newest)
var wallTimes: [Double] = []
var cpuTimes: [Double] = []
var kept = 0
for _ in 0..<runs {
    let wallStart = DispatchTime.now().uptimeNanoseconds
    let cpuStart = threadCPUMilliseconds()
    do {
        let outcome = try AnnouncementDecoder.decodeList(body)
        kept = outcome.items.applying(query).count
    } catch {
        print("decode failed: \(error.message)")
        exit(1)
    }
    cpuTimes.append(threadCPUMilliseconds() - cpuStart)
    wallTimes.append(Double(DispatchTime.now().uptimeNanoseconds - wallStart) / 1_000_000)
}
// Our JSON API output of the same list (docs/upstream.md §4), for comparison.
var encodeTimes: [Double] = []
let decodedItems = (try? AnnouncementDecoder.decodeList(body).items) ?? []
var encodedBytes = 0
for _ in 0..<runs {
    let start = threadCPUMilliseconds()
    encodedBytes = AnnouncementJSON.encodeList(decodedItems, origin: nil).count
    encodeTimes.append(threadCPUMilliseconds() - start)
}

let wall = median(wallTimes)
let cpu = median(cpuTimes)
print("body: \(body.count) bytes, \(itemCount) items, \(kept) valid after decode+validate+sort (newest first)")
print(
    String(
        format: "wall: median %.2f ms (min %.2f, max %.2f) over %d runs -> %.0f items/s",
        wall,
        wallTimes.min() ?? 0,
        wallTimes.max() ?? 0,
        runs,
        Double(itemCount) / (wall / 1000)
    )
)
print(String(format: "cpu:  median %.2f ms -> %.0f items/s", cpu, Double(itemCount) / (cpu / 1000)))
print(String(format: "encode (AnnouncementJSON.encodeList, %d bytes): cpu median %.2f ms", encodedBytes, median(encodeTimes)))

// MARK: - JSON parsers on the same body (is the hand-written parser still worth keeping?)

/// Any JSON value through `Codable`, the way a `JSONDecoder` reads a document of unknown shape
/// (the dialects differ in field names and types, so the decoder starts from a generic tree).
enum AnyJSON: Decodable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([AnyJSON])
    case object([String: AnyJSON])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([AnyJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: AnyJSON].self))
        }
    }
}

func medianCPU(_ work: () -> Bool) -> (Double, Bool) {
    var times: [Double] = []
    var ok = true
    for _ in 0..<runs {
        let start = threadCPUMilliseconds()
        ok = work() && ok
        times.append(threadCPUMilliseconds() - start)
    }
    return (median(times), ok)
}

let ours = medianCPU { JSONParsing.parses(body) }
let serialization = medianCPU { (try? JSONSerialization.jsonObject(with: body)) != nil }
let decoder = medianCPU { (try? JSONDecoder().decode(AnyJSON.self, from: body)) != nil }
func milliseconds(_ value: Double) -> String { String(format: "%.2f ms", value) }
func ratio(_ value: Double) -> String { String(format: "%.2fx", value / ours.0) }
print(
    "json parse of the body, cpu median: ours \(milliseconds(ours.0)) (ok \(ours.1)), "
        + "JSONSerialization \(milliseconds(serialization.0)) (\(ratio(serialization.0)) ours, ok \(serialization.1)), "
        + "JSONDecoder into a generic tree \(milliseconds(decoder.0)) (\(ratio(decoder.0)) ours, ok \(decoder.1))"
)

// MARK: - Index and pages

var indexTimes: [Double] = []
for _ in 0..<runs {
    let start = threadCPUMilliseconds()
    _ = AnnouncementIndex(items: decodedItems)
    indexTimes.append(threadCPUMilliseconds() - start)
}
print(String(format: "index (orders, subsets, grid) of %d items: cpu median %.2f ms", decodedItems.count, median(indexTimes)))

// A located page's index lookup at 5,000 and 50,000 items (docs/performance.md "Located pages"):
// the grid's cells and merge (`page`) against visiting and sorting every item in range (`scanPage`),
// 20,000 random points of the generated area at the pages' 15 km, newest and nearest, page 1.
for count in [5_000, 50_000] {
    let items = (try? AnnouncementDecoder.decodeList(makeDialectABody(count: count)).items) ?? []
    let index = AnnouncementIndex(items: items)
    var generator = SplitMix64(seed: 7)
    let queries: [AnnouncementQuery] = (0..<20_000).map { round in
        let latitude = 49.0 + Double(generator.next() % 40_000) / 10_000
        let longitude = 16.0 + Double(generator.next() % 70_000) / 10_000
        return AnnouncementQuery(sort: round % 2 == 0 ? .newest : .nearest, origin: Coordinate(latitude: latitude, longitude: longitude), rangeKm: 15)
    }
    var checksum = 0
    let cellsStart = threadCPUMilliseconds()
    for query in queries { checksum &+= index.page(query, offset: 0, limit: 20).total }
    let cells = threadCPUMilliseconds() - cellsStart
    let scanStart = threadCPUMilliseconds()
    for query in queries { checksum &-= index.scanPage(query, offset: 0, limit: 20).total }
    let scan = threadCPUMilliseconds() - scanStart
    print(
        String(
            format: "located index page at %d items, 15 km: cells %.2f µs, scan %.2f µs per query (checksum %d)",
            count,
            cells * 1000 / Double(queries.count),
            scan * 1000 / Double(queries.count),
            checksum
        )
    )
}

/// Pages per second through `PetSpotApp.get` over a transport that serves `body` as the list.
func measurePages(body: Data) async throws {
    let bytes = [UInt8](body)
    let transport = UpstreamTransport(get: { request in
        guard request.pathAndQuery == "/api/v1/announcements" else {
            return UpstreamResponse(status: .notFound, headers: [.contentType: "application/json"], body: Array(#"{"error":{}}"#.utf8))
        }
        return UpstreamResponse(status: .ok, headers: [.contentType: "application/json"], body: bytes)
    })
    var configuration = AppConfiguration()
    configuration.upstreamURL = URL(string: "http://127.0.0.1:9")
    configuration.port = 0
    configuration.cacheTTLSeconds = 3600
    var logger = Logger(label: "domain-benchmark")
    logger.logLevel = .critical
    let app = try await PetSpotApp.build(configuration: configuration, logger: logger, transport: transport)
    _ = await app.get("/pets")  // fetch, decode and index the snapshot once

    var generator = SplitMix64(seed: 7)
    func randomLocation() -> String {
        let lat = 49.0 + Double(generator.next() % 58_000) / 10_000
        let lng = 14.1 + Double(generator.next() % 100_000) / 10_000
        return String(format: "/pets?lat=%.4f&lng=%.4f", lat, lng)
    }
    let cases: [(String, [String])] = [
        ("warm /pets (kept page)", Array(repeating: "/pets", count: 20_000)),
        ("cold /pets?page=N (new cards)", (1...125).map { "/pets?page=\($0)" }),
        // Same cards, new pages: the banner variant of each page is a page of its own.
        ("cold /pets?page=N (kept cards)", (1...125).map { "/pets?page=\($0)&location=denied" }),
        ("cold /pets at a random location (new cards)", (0..<5_000).map { _ in randomLocation() }),
        ("cold /pets at a random location (kept cards)", (0..<5_000).map { _ in randomLocation() }),
        ("warm /pets/{id}", Array(repeating: "/pets/" + (decodedItems.first?.id ?? "x"), count: 20_000)),
        // Pages rendered whole per request (no shell): the template engine's share (docs/templates.md).
        ("cold /map at a random location", (0..<300).map { _ in "/map" + randomLocation().dropFirst(5) }),
        ("cold / at a random location", (0..<2_000).map { _ in "/" + randomLocation().dropFirst(5) }),
        ("cold /pets/{id} at a random location", (0..<2_000).map { _ in "/pets/" + (decodedItems.first?.id ?? "x") + randomLocation().dropFirst(5) }),
    ]
    for (name, paths) in cases {
        var statuses: [Int: Int] = [:]
        let start = threadCPUMilliseconds()
        for path in paths {
            let answer = app.getNow(path)
            statuses[answer?.status.code ?? -1, default: 0] += 1
        }
        let elapsed = threadCPUMilliseconds() - start
        print(
            String(
                format: "pages: %-42@ %8.0f pages/s (%.1f µs/page, cpu) statuses %@",
                name as NSString,
                Double(paths.count) / (elapsed / 1000),
                elapsed * 1000 / Double(paths.count),
                "\(statuses.sorted { $0.key < $1.key })" as NSString
            )
        )
    }
}

measureMatches(sizes: [5_000, 50_000], cpuMilliseconds: threadCPUMilliseconds)

measurePlaceNames(placesFile: "Data/places.tsv", body: makeDialectABody(count:), cpuMilliseconds: threadCPUMilliseconds)

do {
    try await measurePages(body: body)
} catch {
    print("pages: could not build the app: \(error)")
    exit(1)
}
