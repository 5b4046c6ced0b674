import Caching
import Foundation
import HTTPTypes
import MicroHTTP

/// Whole answers kept for exact request targets and given by the server on the libmicrohttpd
/// thread before any `Request` is built (MicroHTTP's `PreparedResponses` hook): a repeated URL
/// costs a key lookup, a few header lookups and the native response, not routing, parsing and
/// header work. A compressible answer is kept with its gzip and br representations
/// (`BodyCompression`), and `Accept-Encoding` chooses one per request.
///
/// This is the application's reuse policy; the server only asks. What may be kept: a 200 whose
/// `CachePolicy.keptUntil` is set (a page made from fresh data, identical for every visitor of that URL,
/// from its second sighting: `RenderedPages`' rule),
/// kept by `keep` until that instant. Only `GET`/`HEAD` reach the lookup; a matching
/// `If-None-Match` (or, without one, an `If-Modified-Since` no earlier than a kept
/// `Last-Modified`) gets the bodiless 304, and every answer gets its own request id.
///
/// The key is the request target as it arrived (`Request.rawTarget`, the bytes
/// `RawRequest.withTarget` gives), so two spellings of one page are two entries of the same bytes;
/// the page cache still joins spellings. When pages follow `Accept-Language` (`languages`), the
/// key also holds the language that header chooses, so a page kept for one language is never given
/// to a visitor of another (the answer says `Vary: Accept-Language`). Bounded by bytes: shards
/// that would go over their share drop what has expired, then everything (pages come back on their
/// next repeat through the application). `removeAll` forgets everything (a report was made).
final class KeptAnswers: PreparedResponses {
    /// What is reported for every answer given here (metrics, the log line).
    struct Hit: Sendable {
        /// The route name the application gave with the kept response.
        let route: String
        /// 200, or 304 for a matching `If-None-Match` / `If-Modified-Since`.
        let status: HTTPResponse.Status
        /// The coding of the representation sent.
        let coding: ContentCoding
        /// Body bytes sent (0 for a 304 or a HEAD).
        let bodyBytes: Int
        let requestID: String
        let method: HTTPRequest.Method
        /// The raw path (without the query), as logged for other requests.
        let path: String
        let seconds: Double
    }

    private static let shardCount = 8

    /// Entries by key hash, split under several locks (Caching's `Shards`), each with its share of the budget.
    private let shards: Shards<Shard>
    /// The byte budget of all shards.
    let maxBytes: Int
    /// The request id for a request that sent `header` as its `X-Request-Id` (nil when absent).
    let requestID: @Sendable (_ header: String?) -> String
    /// How many server threads may each keep their own native responses for an entry.
    let threadSlots: Int
    /// Called after each answer given here.
    let onHit: @Sendable (Hit) -> Void
    /// The monotonic clock the entries' `until` is judged by (tests pass one they move by hand).
    let now: @Sendable () -> ContinuousClock.Instant
    /// The languages the application's answers vary by (`Accept-Language`); nil when they do not.
    let languages: LanguageNegotiation?

    /// `threadSlots` is the number of server threads (more threads still answer, each with a
    /// response made for the one answer).
    init(
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
        let share = maxBytes / KeptAnswers.shardCount
        shards = Shards(count: KeptAnswers.shardCount) { Shard(maxBytes: share) }
    }

    /// Keeps `response` (a 200 with its final headers, without any request id) for the target of
    /// `request` (and the language its `Accept-Language` chooses) until `until`, under the route
    /// name `route`.
    func keep(_ response: Response, forms: CompressedForms? = nil, for request: Request, route: String, until: ContinuousClock.Instant) {
        keep(
            response,
            forms: forms,
            target: Array(request.rawTarget.utf8),
            language: language(of: request),
            route: route,
            path: request.rawPath,
            until: until
        )
    }

    /// `keep` for a target's bytes and a language index (0 when answers do not vary by language).
    func keep(
        _ response: Response,
        forms: CompressedForms? = nil,
        target: [UInt8],
        language: UInt8,
        route: String,
        path: String,
        until: ContinuousClock.Instant
    ) {
        guard response.status == .ok, response.closeAfterBodyBytes == nil, !target.isEmpty, target.count <= RawRequest.maxTargetBytes,
            until > now(),
            !Entry.variesByAccept(response) || response.headers[.contentType] == "image/webp"
        else { return }
        let entry = Entry(
            response: response,
            forms: forms,
            target: target,
            language: language,
            route: route,
            path: path,
            until: until,
            threadSlots: threadSlots
        )
        let hash = target.withUnsafeBytes { KeptAnswers.hash($0, language: language) }
        let now = now()
        shards.withLock(hash) { $0.insert(entry, hash: hash, now: now) }
    }

    /// The key's language for `request`: its first `Accept-Language` field, as `RawRequest.withHeader`
    /// reads it for the lookup.
    func language(of request: Request) -> UInt8 {
        guard let languages else { return 0 }
        return UInt8(languages.choose(request.headers.first(where: { $0.name == .acceptLanguage })?.value))
    }

    /// Forgets every kept answer: the data they were made from changed before their `until`
    /// (a report was just made, and it must be on every page at once).
    func removeAll() {
        // swift-format-ignore: ReplaceForEachWithForLoop
        // `Shards.forEach` visits each shard under its lock; it is not a sequence.
        shards.forEach { $0.removeAll() }
    }

    /// Entries and bytes held (tests and metrics).
    var size: (entries: Int, bytes: Int) {
        var total = (entries: 0, bytes: 0)
        // swift-format-ignore: ReplaceForEachWithForLoop
        // `Shards.forEach` visits each shard under its lock; it is not a sequence.
        shards.forEach { shard in
            total.entries += shard.count
            total.bytes += shard.bytes
        }
        return total
    }

    /// Answers the request from a kept entry when there is a live one for its target and language;
    /// nil when the application must answer.
    func answer(_ request: RawRequest) -> RawRequest.Sent? {
        let started = ContinuousClock.now
        var language: UInt8 = 0
        if let languages {
            language = request.withHeader(.acceptLanguage) { bytes in
                guard let bytes else { return 0 }
                return UInt8(languages.choose(bytes: bytes))
            }
        }
        let found = request.withTarget { target -> Entry? in
            let hash = KeptAnswers.hash(target, language: language)
            let now = now()
            return shards.withLock(hash) { $0.entry(for: target, language: language, hash: hash, now: now) }
        }
        guard let entry = found ?? nil else { return nil }
        // A kept photo is WebP: a client that does not take it goes the long way, to its JPEG.
        if entry.variesByAccept, PhotoFormat.preferred(accept: request.header(.accept)) != .webp { return nil }
        let coding =
            entry.available == 0
            ? ContentCoding.identity
            : request.withHeader(.acceptEncoding) { bytes in
                guard let bytes else { return ContentCoding.identity }
                return ContentCoding.choose(bytes: bytes, available: entry.available)
            }
        let representation = entry.representation(coding)
        // Headers are looked up only for a representation that has a validator.
        var notModified = false
        if representation.etag != nil || representation.lastModified != nil {
            let ifNoneMatch = request.header(.ifNoneMatch)
            let ifModifiedSince = ifNoneMatch == nil && representation.lastModified != nil ? request.header(.ifModifiedSince) : nil
            notModified = HTTPDate.notModified(
                ifNoneMatch: ifNoneMatch,
                ifModifiedSince: ifModifiedSince,
                etag: representation.etag,
                lastModified: representation.lastModified
            )
            // A client holding the quick form of these bytes in this coding (a first visitor): the
            // application answers its 304 with the tag it holds (`BodyCompression.answer`).
            if !notModified, let ifNoneMatch, let quick = entry.quickTag(coding), EntityTag.matches(ifNoneMatch: ifNoneMatch, etag: quick) {
                return nil
            }
        }
        let id = requestID(request.header(.xRequestID))
        guard let sent = request.send(representation, notModified: notModified, requestID: id) else { return nil }
        let elapsed = ContinuousClock.now - started
        let sentBytes = notModified || request.method == .head ? 0 : representation.bodyCount
        onHit(
            Hit(
                route: entry.route,
                status: notModified ? .notModified : representation.status,
                coding: coding,
                bodyBytes: sentBytes,
                requestID: id,
                method: request.method,
                path: entry.path,
                seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            )
        )
        return sent
    }

    private static func hash(_ target: UnsafeRawBufferPointer, language: UInt8) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes: target)
        hasher.combine(language)
        return hasher.finalize()
    }
}

extension KeptAnswers {
    /// One shard's state, under its lock in `Shards`: entries by key hash, with its share of the byte budget.
    struct Shard {
        var entries: [Int: [Entry]] = [:]
        var bytes = 0
        var count = 0
        let maxBytes: Int

        init(maxBytes: Int) { self.maxBytes = maxBytes }

        func entry(for target: UnsafeRawBufferPointer, language: UInt8, hash: Int, now: ContinuousClock.Instant) -> Entry? {
            guard let candidates = entries[hash] else { return nil }
            for entry in candidates where entry.has(target: target, language: language) {
                return entry.until > now ? entry : nil
            }
            return nil
        }

        /// Keeps `entry`, replacing the one of its key; a shard that would go over its share drops what
        /// has expired, then everything.
        mutating func insert(_ entry: Entry, hash: Int, now: ContinuousClock.Instant) {
            if var list = entries[hash], let index = list.firstIndex(where: { $0.target == entry.target && $0.language == entry.language }) {
                bytes -= list[index].cost
                count -= 1
                list.remove(at: index)
                entries[hash] = list
            }
            if bytes + entry.cost > maxBytes {
                for (slot, list) in entries {
                    let live = list.filter { $0.until > now }
                    bytes -= list.filter { $0.until <= now }.reduce(0) { $0 + $1.cost }
                    count -= list.count - live.count
                    entries[slot] = live.isEmpty ? nil : live
                }
                if bytes + entry.cost > maxBytes { removeAll() }
            }
            guard entry.cost <= maxBytes else { return }
            entries[hash, default: []].append(entry)
            bytes += entry.cost
            count += 1
        }

        mutating func removeAll() {
            entries = [:]
            bytes = 0
            count = 0
        }
    }
}
