internal import CMicroHTTPD
import Foundation
import HTTPTypes
import Synchronization

/// Whole answers kept for exact request targets and served on the libmicrohttpd thread before any
/// `Request` is built (docs/scaling.md): a repeated URL costs a key lookup, a few header
/// lookups and the native response, not the application's routing, parsing and header work.
/// A compressible answer is kept with its gzip and br representations (`BodyCompression`), and
/// `Accept-Encoding` chooses one per request.
///
/// The application decides what may be kept: a response whose `reusableUntil` is set (a page made
/// from fresh data, identical for every visitor of that URL) is kept by `keep` for the request's
/// `targetKey`, and served here until that instant. Only `GET`/`HEAD` reach this path; a matching
/// `If-None-Match` (or, without one, an `If-Modified-Since` no earlier than a kept `Last-Modified`)
/// gets the bodiless 304, and every answer gets its own request id.
///
/// The key is the request target as it arrived (raw path, then the raw query items in order), so
/// two spellings of one page are two entries of the same bytes; the application's own page cache
/// still joins spellings. When the application's pages follow `Accept-Language` (`languages`), the
/// key ends with the language that header chooses, so a page kept for one language is never given
/// to a visitor of another (the answer says `Vary: Accept-Language`). Bounded by bytes: shards that would go over their share drop what has
/// expired, then everything (pages come back on their next repeat through the application).
public final class KeptAnswers: Sendable {
    /// What the server reports for every answer given here (metrics, the log line).
    public struct Hit: Sendable {
        /// The route name the application gave with the kept response.
        public let route: String
        /// 200, or 304 for a matching `If-None-Match` / `If-Modified-Since`.
        public let status: HTTPResponse.Status
        /// The coding of the representation sent.
        public let coding: ContentCoding
        /// Body bytes sent (0 for a 304 or a HEAD).
        public let bodyBytes: Int
        public let requestID: String
        public let method: HTTPRequest.Method
        /// The raw path (without the query), as logged for other requests.
        public let path: String
        public let seconds: Double
    }

    /// The request id field's name as libmicrohttpd is asked for it and as it is sent.
    static let requestIDName = HTTPField.Name.xRequestID.rawName

    /// The longest target kept (longer ones take the application's path).
    static let maxKeyBytes = 1024
    private static let shardCount = 8

    private let shards: [Shard]
    /// The byte budget of all shards.
    public let maxBytes: Int
    /// The request id for a request that sent `header` as its `X-Request-Id` (nil when absent).
    let requestID: @Sendable (_ header: String?) -> String
    /// How many server threads may each keep their own native responses for an entry (see `Entry`).
    let threadSlots: Int
    /// Called after each answer given here.
    let onHit: @Sendable (Hit) -> Void
    /// The monotonic clock the entries' `until` is judged by (tests pass one they move by hand).
    let now: @Sendable () -> ContinuousClock.Instant
    /// The languages the application's answers vary by (`Accept-Language`); nil when they do not.
    public let languages: LanguageNegotiation?

    /// `threadSlots` is the number of server threads (more threads still answer, each with a
    /// response made for the one answer).
    public init(
        maxBytes: Int,
        threadSlots: Int = 8,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now },
        languages: LanguageNegotiation? = nil,
        requestID: @escaping @Sendable (_ header: String?) -> String,
        onHit: @escaping @Sendable (Hit) -> Void
    ) {
        self.maxBytes = maxBytes
        self.languages = languages
        self.threadSlots = threadSlots
        self.now = now
        self.requestID = requestID
        self.onHit = onHit
        shards = (0..<KeptAnswers.shardCount).map { _ in Shard(maxBytes: maxBytes / KeptAnswers.shardCount) }
    }

    /// Keeps `response` (a 200 with its final headers, without any request id) for `key` until
    /// `until`, under the route name `route` and the raw `path` for the log.
    public func keep(_ response: Response, key: [UInt8], route: String, path: String, until: ContinuousClock.Instant) {
        guard response.status == .ok, response.closeAfterBodyBytes == nil, !key.isEmpty, key.count <= KeptAnswers.maxKeyBytes,
              until > now() else { return }
        let entry = Entry(response: response, key: key, route: route, path: path, until: until, threadSlots: threadSlots)
        let hash = key.withUnsafeBytes { KeptAnswers.hash($0) }
        shards[KeptAnswers.shardIndex(hash)].insert(entry, hash: hash, now: now())
    }

    /// Forgets every kept answer: the data they were made from changed before their `until`
    /// (a report was just made, and it must be on every page at once).
    public func removeAll() {
        for shard in shards { shard.removeAll() }
    }

    /// Entries and bytes held (tests and metrics).
    public var size: (entries: Int, bytes: Int) {
        shards.reduce((0, 0)) { total, shard in
            let (entries, bytes) = shard.size
            return (total.0 + entries, total.1 + bytes)
        }
    }

    /// Answers the request from a kept entry when there is a live one for its target: queues the
    /// response and returns the result of `MHD_queue_response`; nil when the application must answer.
    func answer(connection: OpaquePointer, url: UnsafePointer<CChar>, method: HTTPRequest.Method) -> MHD_Result? {
        let started = ContinuousClock.now
        return withUnsafeTemporaryAllocation(byteCount: KeptAnswers.maxKeyBytes, alignment: 8) { buffer -> MHD_Result? in
            guard let length = TargetKey.write(connection: connection, url: url, languages: languages, into: buffer) else { return nil }
            let key = UnsafeRawBufferPointer(rebasing: buffer[..<length])
            let hash = KeptAnswers.hash(key)
            guard let entry = shards[KeptAnswers.shardIndex(hash)].entry(for: key, hash: hash, now: now()) else { return nil }
            let coding = entry.available == 0 ? ContentCoding.identity : KeptAnswers.coding(connection: connection, available: entry.available)
            let representation = entry.representation(coding)
            // Headers are looked up only for a representation that has a validator.
            var notModified = false
            if representation.etag != nil || representation.lastModified != nil {
                let header = { (name: HTTPField.Name) in
                    MHD_lookup_connection_value(connection, .HEADER_KIND, name.rawName).map { String(cString: $0) }
                }
                let ifNoneMatch = header(.ifNoneMatch)
                let ifModifiedSince = ifNoneMatch == nil && representation.lastModified != nil ? header(.ifModifiedSince) : nil
                notModified = HTTPDate.notModified(ifNoneMatch: ifNoneMatch, ifModifiedSince: ifModifiedSince,
                                                   etag: representation.etag, lastModified: representation.lastModified)
            }
            let id = requestID(MHD_lookup_connection_value(connection, .HEADER_KIND, KeptAnswers.requestIDName).map { String(cString: $0) })
            let status: HTTPResponse.Status = notModified ? .notModified : representation.status
            guard let result = representation.queue(on: connection, status: status, notModified: notModified, requestID: id) else { return nil }
            let elapsed = ContinuousClock.now - started
            let sent = notModified || method == .head ? 0 : representation.bodyCount
            onHit(Hit(route: entry.route, status: status, coding: coding, bodyBytes: sent, requestID: id, method: method, path: entry.path,
                      seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18))
            return result
        }
    }

    /// The coding the request's `Accept-Encoding` chooses among `available`, read on its bytes.
    private static func coding(connection: OpaquePointer, available: UInt8) -> ContentCoding {
        guard let header = MHD_lookup_connection_value(connection, .HEADER_KIND, HTTPField.Name.acceptEncoding.rawName) else { return .identity }
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(header).assumingMemoryBound(to: UInt8.self), count: strlen(header))
        return ContentCoding.choose(bytes: bytes,
                                    available: available)
    }

    private static func hash(_ key: UnsafeRawBufferPointer) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes: key)
        return hasher.finalize()
    }

    private static func shardIndex(_ hash: Int) -> Int {
        Int(UInt(bitPattern: hash) % UInt(shardCount))
    }
}

extension KeptAnswers {
    /// One shard: entries by key hash under a mutex, with its share of the byte budget.
    final class Shard: Sendable {
        private struct State {
            var entries: [Int: [Entry]] = [:]
            var bytes = 0
            var count = 0
        }
        private let state = Mutex(State())
        let maxBytes: Int

        init(maxBytes: Int) { self.maxBytes = maxBytes }

        func entry(for key: UnsafeRawBufferPointer, hash: Int, now: ContinuousClock.Instant) -> Entry? {
            state.withLock { state -> Entry? in
                guard let candidates = state.entries[hash] else { return nil }
                for entry in candidates where entry.has(key: key) {
                    return entry.until > now ? entry : nil
                }
                return nil
            }
        }

        func insert(_ entry: Entry, hash: Int, now: ContinuousClock.Instant) {
            state.withLock { state in
                if let index = state.entries[hash]?.firstIndex(where: { $0.key == entry.key }) {
                    state.bytes -= state.entries[hash]![index].cost
                    state.count -= 1
                    state.entries[hash]!.remove(at: index)
                }
                if state.bytes + entry.cost > maxBytes {
                    for (slot, list) in state.entries {
                        let live = list.filter { $0.until > now }
                        state.bytes -= list.filter { $0.until <= now }.reduce(0) { $0 + $1.cost }
                        state.count -= list.count - live.count
                        state.entries[slot] = live.isEmpty ? nil : live
                    }
                    if state.bytes + entry.cost > maxBytes {
                        state = State()
                    }
                }
                guard entry.cost <= maxBytes else { return }
                state.entries[hash, default: []].append(entry)
                state.bytes += entry.cost
                state.count += 1
            }
        }

        var size: (entries: Int, bytes: Int) { state.withLock { ($0.count, $0.bytes) } }

        func removeAll() { state.withLock { $0 = State() } }
    }
}
