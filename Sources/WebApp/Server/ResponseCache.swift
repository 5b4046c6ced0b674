import Caching
import FastBytes
import Foundation
import HTTPTypes
import MicroHTTP
import Synchronization

/// The response cache (docs/caches.md): whole answers, kept once under one key and given again
/// both by the application (a page's normalized URL over the same snapshot and day) and by the
/// server on the libmicrohttpd thread before any `Request` is built (MicroHTTP's
/// `PreparedResponses` hook), for every request target that led to them.
///
/// - **Entries** (`Entry`) are kept in a `ShardedByteCache` under their key: for a page or API
///   body the normalized URL with its language (`VisitorLocation.pageKey`) in the reuse key's
///   generation (`DayClock.reuseKey`: a new snapshot or day empties a shard at its next insert); for
///   a photo its request target. A page is kept the second time its key is made, not the first
///   (nginx's `proxy_cache_min_uses 2`, `ShardedByteCache.isSecondSighting`): most located pages are
///   asked for once, and keeping each of them only to evict an older page cost more than rendering.
///   A fresh photo variant is kept when it is answered (the photo cache made it once already).
/// - **The raw-target index** (`Target` records in `Shards`) maps the request target as it
///   arrived (raw path and query, the bytes `RawRequest.withTarget` gives) and the language
///   `Accept-Language` chooses to an entry's representations, until the reply's cache policy says
///   (`CachePolicy.keptUntil`). It is filled by `Pipeline.finish` for a reply marked reusable: a
///   page found in or just kept by the cache (its spelling is indexed to that entry), or a photo.
///   The hook hashes the target's bytes without making a `String`; a repeated URL costs that
///   lookup, a few header lookups and the native response. A record goes when its entry goes.
///
/// One byte budget (`--page-cache-mb`, `CacheBudgets.responses`) counts an entry's bytes, forms,
/// representations and targets; least recently used entries go first within a shard. `removeAll`
/// forgets everything (a report was made and must be on every page at once).
///
/// Only `GET`/`HEAD` reach the hook; a matching `If-None-Match` (or, without one, an
/// `If-Modified-Since` no earlier than a kept `Last-Modified`) gets the bodiless 304, and every
/// answer gets its own request id.
final class ResponseCache: PreparedResponses {
    /// What is reported for every answer given by the hook (metrics, the log line).
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

    /// Bytes charged per entry on top of its bodies and key.
    static let entryOverhead = 256
    /// Bytes charged per indexed target on top of its bytes (its record and its place in two lists).
    static let targetOverhead = 128

    /// Entries by key.
    private let entries: ShardedByteCache<String, Entry>
    /// Target records by the hash of the target's bytes and language.
    private let index: Shards<TargetShard>
    /// The byte budget.
    var maxBytes: Int { entries.maxBytes }
    /// A shard's share of the budget: no entry is larger.
    private var shareBytes: Int { entries.maxBytes / entries.shardCount }
    /// The request id for a request that sent `header` as its `X-Request-Id` (nil when absent).
    let requestID: @Sendable (_ header: String?) -> String
    /// How many server threads may each keep their own native responses for an entry.
    let threadSlots: Int
    /// Called after each answer the hook gives.
    let onHit: @Sendable (Hit) -> Void
    /// The monotonic clock the targets' `until` is judged by (tests pass one they move by hand).
    let now: @Sendable () -> ContinuousClock.Instant
    /// The languages the application's answers vary by (`Accept-Language`); nil when they do not.
    let languages: LanguageNegotiation?
    /// Pages made from a reuse key below this one are neither kept nor indexed (`retire(below:)`): a
    /// render still on the snapshot a new one just replaced cannot put the old page back.
    private let floor = Atomic<Int>(Int.min)

    /// `threadSlots` is the number of server threads (more threads still answer, each with a
    /// response made for the one answer).
    init(
        maxBytes: Int,
        threadSlots: Int = 8,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now },
        languages: LanguageNegotiation? = nil,
        requestID: @escaping @Sendable (_ header: String?) -> String = { $0 ?? "" },
        onHit: @escaping @Sendable (Hit) -> Void = { _ in }
    ) {
        self.languages = languages
        self.threadSlots = threadSlots
        self.now = now
        self.requestID = requestID
        self.onHit = onHit
        entries = ShardedByteCache(maxBytes: maxBytes, shardCount: CacheLimits.responseShards, seenSlots: CacheLimits.responseSeenSlots)
        index = Shards(count: CacheLimits.responseShards) { TargetShard() }
    }

    // MARK: - The application's side

    /// The page kept for `key` from reuse key `generation`, if any.
    func cached(_ key: String, generation: Int) -> Entry? {
        guard let entry = entries.value(for: key, generation: generation), entry.response != nil, entry.isLive else { return nil }
        return entry
    }

    /// Keeps a 200 `response` for `key` when it is the second time it was made, with its
    /// compressed forms made now, once (they count in the budget); other statuses are not kept.
    /// Returns the entry; nil when it was not kept.
    func keep(_ response: Response, for key: String, generation: Int) -> Entry? {
        guard response.status == .ok, generation >= floor.load(ordering: .acquiring), entries.isSecondSighting(of: key) else { return nil }
        // Compressed outside the lock: other pages of this shard are served meanwhile.
        let forms =
            BodyCompression.isCompressible(kept: response) ? BodyCompression.forms(of: response.body, level: BodyCompression.policy.kept) : nil
        let entry = Entry(key: key, generation: generation, response: response, forms: forms)
        guard entry.baseCost <= shareBytes else { return nil }
        let went = entries.insertEvicting(entry, for: key, cost: entry.baseCost, generation: generation)
        ResponseCache.retire(went, keeping: entry, from: index)
        guard !isBelowFloor(entry) else { return nil }
        // Not kept when made from an older snapshot than its shard holds (a late render): then
        // nothing may be indexed to it either, as no eviction would take those targets out.
        return cached(key, generation: generation) === entry ? entry : nil
    }

    /// Indexes the target of `request` (and the language its `Accept-Language` chooses) to
    /// `entry` until `until`, so the server's hook gives the entry for it. Nothing when the entry
    /// left the cache.
    func index(_ entry: Entry, for request: Request, route: String, until: ContinuousClock.Instant) {
        guard let response = entry.response else { return }
        index(
            entry,
            response: response,
            target: Array(request.rawTarget.utf8),
            language: language(of: request),
            route: route,
            path: request.rawPath,
            until: until
        )
    }

    /// Keeps `response` (a 200 with its final headers, without any request id) for the target of
    /// `request` (and the language its `Accept-Language` chooses) until `until`, under the route
    /// name `route`: an entry found only through that target (a photo).
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
        guard ResponseCache.mayIndex(response, target: target), until > now() else { return }
        let key = "\(language) " + String(decoding: target, as: UTF8.self)
        let entry = Entry(
            key: key,
            generation: nil,
            response: nil,
            forms: nil,
            prepared: Prepared(response: response, forms: forms, threadSlots: threadSlots)
        )
        let went = entries.insertEvicting(entry, for: key, cost: entry.baseCost)
        ResponseCache.retire(went, keeping: entry, from: index)
        index(entry, response: response, target: target, language: language, route: route, path: path, until: until)
    }

    private func index(
        _ entry: Entry,
        response: Response,
        target: [UInt8],
        language: UInt8,
        route: String,
        path: String,
        until: ContinuousClock.Instant
    ) {
        guard ResponseCache.mayIndex(response, target: target), until > now() else { return }
        let key = TargetKey(target: target, language: language, hash: target.withView { ResponseCache.hash($0, language: language) })
        let index = index
        let added = entry.add(key, maxTargets: CacheLimits.targetsPerResponse) {
            let record = Target(key: key, route: route, path: path, until: until, entry: entry)
            index.withLock(key.hash) { $0.insert(record) }
        }
        if added { charge(entry) }
        _ = isBelowFloor(entry)
    }

    /// True, and `entry` retired with its targets, when the floor rose past its reuse key: checked after
    /// every insert, so an insert that raced `retire(below:)`'s `removeAll` takes itself out.
    private func isBelowFloor(_ entry: Entry) -> Bool {
        guard let generation = entry.generation, generation < floor.load(ordering: .acquiring) else { return false }
        ResponseCache.retire(entry, from: index)
        return true
    }

    /// Forgets every page made from a reuse key below `reuseKey` (`DayClock.reuseKey`), and keeps none from
    /// now on: a new snapshot replaced theirs (`AnnouncementGateway.whenReplaced`, `ServerAssembly`), so a
    /// report published here or on another replica is on every page at once, not after the kept pages' TTL.
    func retire(below reuseKey: Int) {
        var current = floor.load(ordering: .relaxed)
        while current < reuseKey {
            let (exchanged, seen) = floor.compareExchange(expected: current, desired: reuseKey, ordering: .acquiringAndReleasing)
            if exchanged { break }
            current = seen
        }
        removeAll()
    }

    /// Charges `entry` again with its representations and targets (the same entry, now the newest
    /// of its shard); one too large for a shard with them goes, and its targets with it.
    private func charge(_ entry: Entry) {
        guard let cost = entry.cost else { return }
        guard cost <= shareBytes else {
            // The application no longer finds it either (`cached` skips an entry that is gone).
            ResponseCache.retire(entry, from: index)
            return
        }
        let went =
            if let generation = entry.generation {
                entries.insertEvicting(entry, for: entry.key, cost: cost, generation: generation)
            } else {
                entries.insertEvicting(entry, for: entry.key, cost: cost)
            }
        ResponseCache.retire(went, keeping: entry, from: index)
    }

    /// A 200 sent whole, with a target the hook can read, that is not a photo's JPEG form.
    private static func mayIndex(_ response: Response, target: [UInt8]) -> Bool {
        response.status == .ok && response.closeAfterBodyBytes == nil && !target.isEmpty && target.count <= RawRequest.maxTargetBytes
            && (!Prepared.variesByAccept(response) || response.headers[.contentType] == "image/webp")
    }

    /// Takes the entries that went out of the index (all but `kept`, when an entry was charged again).
    private static func retire(
        _ went: (replaced: Entry?, evicted: [(key: String, value: Entry)]),
        keeping kept: Entry,
        from index: Shards<TargetShard>
    ) {
        if let replaced = went.replaced, replaced !== kept { retire(replaced, from: index) }
        for (_, entry) in went.evicted where entry !== kept { retire(entry, from: index) }
    }

    private static func retire(_ entry: Entry, from index: Shards<TargetShard>) {
        for key in entry.retire() {
            index.withLock(key.hash) { $0.remove(key, of: entry) }
        }
    }

    /// The key's language for `request`: its first `Accept-Language` field, as `RawRequest.withHeader`
    /// reads it for the lookup.
    func language(of request: Request) -> UInt8 {
        guard let languages else { return 0 }
        return UInt8(languages.choose(request.headers.first(where: { $0.name == .acceptLanguage })?.value))
    }

    /// Forgets every entry and target: the data they were made from changed before their `until`
    /// (a report was just made, and it must be on every page at once).
    func removeAll() {
        for entry in entries.removeAll() { _ = entry.retire() }
        // swift-format-ignore: ReplaceForEachWithForLoop
        // `Shards.forEach` visits each shard under its lock; it is not a sequence.
        index.forEach { $0.removeAll() }
    }

    /// Entries and bytes held (tests and metrics: `petspot_page_cache_*`).
    var size: (entries: Int, bytes: Int) { entries.size }

    /// Targets indexed for the hook and the bytes of their records (metrics: `petspot_kept_answers_*`).
    var targets: (entries: Int, bytes: Int) {
        var total = (entries: 0, bytes: 0)
        // swift-format-ignore: ReplaceForEachWithForLoop
        // `Shards.forEach` visits each shard under its lock; it is not a sequence.
        index.forEach { shard in
            total.entries += shard.count
            total.bytes += shard.bytes
        }
        return total
    }

    // MARK: - The server's hook

    /// Answers the request from the entry indexed for its target and language while that is live;
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
        let found = request.withTarget { span -> Target? in
            span.withView { target in
                let hash = ResponseCache.hash(target, language: language)
                let now = now()
                return index.withLock(hash) { $0.record(for: target, language: language, hash: hash, now: now) }
            }
        }
        guard let record = found ?? nil else { return nil }
        // Made on the first answer the hook gives for the entry, then one atomic load.
        guard let entry = record.entry.prepared ?? prepare(record.entry) else { return nil }
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
                route: record.route,
                status: notModified ? .notModified : representation.status,
                coding: coding,
                bodyBytes: sentBytes,
                requestID: id,
                method: request.method,
                path: record.path,
                seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            )
        )
        return sent
    }

    /// The entry's representations, made now (once per entry, on the thread of the first answer
    /// the hook gives for it), and the entry charged for them.
    private func prepare(_ entry: Entry) -> Prepared? {
        let prepared = entry.prepare(threadSlots: threadSlots)
        charge(entry)
        return entry.isLive ? prepared : nil
    }

    static func hash(_ target: ByteView, language: UInt8) -> Int {
        var hasher = Hasher()
        target.hash(into: &hasher)
        hasher.combine(language)
        return hasher.finalize()
    }
}
