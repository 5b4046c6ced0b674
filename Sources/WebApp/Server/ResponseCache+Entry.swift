import FastBytes
import Foundation
import HTTPTypes
import MicroHTTP
import Synchronization

extension ResponseCache {
    /// One whole answer of the response cache, under its key (a page's normalized URL and language,
    /// or a photo's target): the plain bytes with their compressed forms (what the application
    /// answers a new spelling of the URL with), and its representations as the server's hook sends
    /// them (`Prepared`), made the first time the hook gives it (a page asked for twice and never
    /// again costs no native response). The raw targets indexed to it are listed here, so that they
    /// go from the index when the entry goes (`retire`).
    final class Entry: Sendable {
        /// The key in the cache.
        let key: String
        /// The snapshot generation and day it was made for (`DayClock.reuseKey`); nil for an entry
        /// kept in its shard's generation (a photo, found only through its target).
        let generation: Int?
        /// The 200 as kept, with every header it has for all requests; nil for an entry the
        /// application never looks up (a photo: only its `Prepared` is kept).
        let response: Response?
        /// The compressed forms of `response`'s body (`BodyCompression.forms`, at the kept level).
        let forms: CompressedForms?
        /// Bytes charged for the plain bytes, the forms and the key.
        let baseCost: Int
        /// Its representations for the hook once made: the address of a `Prepared` retained here
        /// (released in `deinit`), 0 until then, read with one atomic load on every hit. Not
        /// `AtomicLazyReference`: its `load` is called unspecialized, and looked up generic metadata
        /// on every answer (callgrind).
        private let kept = AtomicReference<Prepared>()
        private let state = Mutex(State())

        struct State {
            /// True once the entry left the cache: no target is indexed to it any more.
            var gone = false
            /// The targets indexed to it (with the hash that picks their index shard).
            var targets: [TargetKey] = []
        }

        init(key: String, generation: Int?, response: Response?, forms: CompressedForms?, prepared: Prepared? = nil) {
            self.key = key
            self.generation = generation
            self.response = response
            self.forms = forms
            baseCost = (response?.body.count ?? 0) + (forms?.byteCount ?? 0) + key.utf8.count + ResponseCache.entryOverhead
            if let prepared { kept.storeIfNil(prepared) }
        }

        /// Its representations for the hook; nil until made (one atomic load: `AtomicReference`).
        var prepared: Prepared? { kept.value }

        /// False once the entry left the cache.
        var isLive: Bool { state.withLock { !$0.gone } }

        /// Bytes charged for the entry with its representations and indexed targets; nil once it is gone.
        var cost: Int? {
            state.withLock { state -> Int? in
                guard !state.gone else { return nil }
                return state.targets.reduce(baseCost + (prepared?.cost ?? 0)) { $0 + $1.target.count + ResponseCache.targetOverhead }
            }
        }

        /// Its representations, made now from `response` the first time (nil for an entry without one).
        func prepare(threadSlots: Int) -> Prepared? {
            if let made = prepared { return made }
            // Every kept response was finished by the header step before it was kept (`AnswerHeaders`).
            guard let response else { return nil }
            return kept.storeIfNil(Prepared(response: response, forms: forms, threadSlots: threadSlots))
        }

        /// Adds `target` to the entry's targets and runs `index` (which puts the target's record in
        /// the index) under the entry's lock, so that a `retire` either comes first (nothing is
        /// indexed) or finds the target in the list. False when the entry is gone or has its most targets.
        func add(_ target: TargetKey, maxTargets: Int, index: () -> Void) -> Bool {
            state.withLock { state -> Bool in
                guard !state.gone else { return false }
                if !state.targets.contains(target) {
                    guard state.targets.count < maxTargets else { return false }
                    state.targets.append(target)
                }
                index()
                return true
            }
        }

        /// Marks the entry gone; returns the targets to take out of the index.
        func retire() -> [TargetKey] {
            state.withLock { state in
                state.gone = true
                defer { state.targets = [] }
                return state.targets
            }
        }
    }

    /// A request target as the hook sees it: its bytes and the language `Accept-Language` chose.
    struct TargetKey: Sendable, Equatable {
        let target: [UInt8]
        let language: UInt8
        /// `ResponseCache.hash` of both: picks the index shard and the slot in it.
        let hash: Int
    }

    /// A request target indexed to an entry: what the hook finds, under the index shard's lock.
    final class Target: Sendable {
        let key: TargetKey
        /// The route name the application gave with the kept response.
        let route: String
        /// The raw path (without the query), as logged for other requests.
        let path: String
        /// Until when the hook may give it for this target (the cache policy's `until`).
        let until: ContinuousClock.Instant
        /// The entry it belongs to: only that entry's `retire` takes it out.
        let entry: Entry

        init(key: TargetKey, route: String, path: String, until: ContinuousClock.Instant, entry: Entry) {
            self.key = key
            self.route = route
            self.path = path
            self.until = until
            self.entry = entry
        }

        /// True for the record of `other` (a target's bytes) in `language`.
        func has(target other: ByteView, language: UInt8) -> Bool {
            key.language == language && key.target.count == other.count && key.target.withView { $0.elementsEqual(other) }
        }
    }

    /// An entry's representations as the hook sends them (identity, and the gzip and br forms when
    /// it is compressible), each a `PreparedResponse` with its native responses per server thread.
    /// The coding is chosen per request on the bytes of `Accept-Encoding`, after the target is found:
    /// one lookup whatever the coding.
    final class Prepared: Sendable {
        let cost: Int
        /// The codings of the compressed representations (`ContentCoding.bit`s); 0 when the answer
        /// is never compressed.
        let available: UInt8
        /// The answer says `Vary: Accept` (a photo variant, `PhotoFormat`): only the WebP form is kept,
        /// and it is given only to a request whose `Accept` takes WebP.
        let variesByAccept: Bool
        /// The identity representation, always there.
        private let identity: PreparedResponse
        /// By `ContentCoding.rawValue`: the compressed ones whose forms were made (identity's slot is nil: `identity`).
        private let representations: [PreparedResponse?]
        /// By `ContentCoding.rawValue`: the tag the quick form of the body in that coding has
        /// (`CompressedForms.tag`), which a first visitor may hold; nil for identity.
        private let quickTags: [String?]

        init(response: Response, forms: CompressedForms?, threadSlots: Int) {
            variesByAccept = Prepared.variesByAccept(response)
            let forms = BodyCompression.isCompressible(kept: response) ? forms : nil
            available = forms?.available ?? 0
            identity = PreparedResponse(
                forms.map { BodyCompression.representation(response, coding: .identity, forms: $0) } ?? response,
                threadSlots: threadSlots
            )
            representations = ContentCoding.allCases.map { coding in
                guard let forms, coding != .identity, forms[coding] != nil else { return nil }
                return PreparedResponse(BodyCompression.representation(response, coding: coding, forms: forms), threadSlots: threadSlots)
            }
            quickTags = ContentCoding.allCases.map { coding in
                guard let forms, !forms.quick, coding != .identity, forms[coding] != nil, let tag = response.headers[.eTag] else { return nil }
                return CompressedForms.tag(tag, coding: coding, quick: true)
            }
            cost = representations.reduce(identity.cost) { $0 + ($1?.cost ?? 0) }
        }

        /// Whether `response` says `Vary: Accept`.
        static func variesByAccept(_ response: Response) -> Bool {
            response.headers[.vary]?.lowercased().split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == "accept" } ?? false
        }

        /// The quick form's tag in `coding` (see `quickTags`).
        func quickTag(_ coding: ContentCoding) -> String? { quickTags[coding.rawValue] }

        /// The representation to send in `coding` (identity when that form is missing).
        func representation(_ coding: ContentCoding) -> PreparedResponse {
            representations[coding.rawValue] ?? identity
        }
    }
}
