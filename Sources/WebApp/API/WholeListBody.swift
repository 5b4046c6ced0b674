import Caching
import Dispatch
import Foundation
import HTTPTypes
import MicroHTTP
import Synchronization

/// The encoded whole list of one snapshot generation (docs/performance.md "Memory"), held in a
/// per-snapshot memo (`SnapshotMemo`). Encoding holds the memo's lock, so requests that arrive meanwhile wait for that one encoding instead of each
/// making their own. Its gzip and br forms are made once per generation on the background
/// compression thread (30 MB at 50,000 items takes seconds); answers go uncompressed until they
/// are ready.
///
/// Once the forms are made, a client that accepts one of them gets it without the plain form, and
/// the plain form (30 MB, three times the two forms together) is let go when no client has asked
/// for it for `keepPlainFor`: the apps send `Accept-Encoding`, so it is rarely asked. A client
/// that takes no coding then has it encoded again from the same snapshot, the same bytes, and kept
/// again while it is asked.
final class WholeListBody: Sendable {
    private struct Kept: Sendable {
        /// The answer with its headers; its body is empty while `plainReleased`.
        var response: Response
        /// The compressed forms, once made on the background compression thread.
        var forms: CompressedForms?
        var plainReleased = false
        /// When a client last got the plain form (or it was made).
        var lastPlainUse: ContinuousClock.Instant
        /// True while a release check is scheduled (one at a time).
        var releaseScheduled = false
    }

    /// The list of the current generation; one made for an older or replaced one is not kept.
    private let kept = SnapshotMemo<Kept>()
    /// How long the plain form stays after a client last asked for it.
    let keepPlainFor: Duration
    private let now: @Sendable () -> ContinuousClock.Instant
    /// Runs `check` after about `delay` (a dispatch timer; tests pass one that never runs).
    private let schedule: @Sendable (_ delay: Duration, _ check: @escaping @Sendable () -> Void) -> Void
    /// Times the plain form was made (tests: a form made again, not kept).
    private let plainMade = Atomic<Int>(0)

    /// A kept list whose plain form goes `keepPlainFor` after its last use; `now` is the
    /// monotonic clock, `schedule` runs the release check later.
    init(
        keepPlainFor: Duration = .seconds(10),
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now },
        schedule: @escaping @Sendable (_ delay: Duration, _ check: @escaping @Sendable () -> Void) -> Void = WholeListBody.dispatchAfter
    ) {
        self.keepPlainFor = keepPlainFor
        self.now = now
        self.schedule = schedule
    }

    /// Runs `check` on a global queue after `delay`.
    static func dispatchAfter(_ delay: Duration, _ check: @escaping @Sendable () -> Void) {
        let nanoseconds = max(0, delay.components.seconds * 1_000_000_000 + delay.components.attoseconds / 1_000_000_000)
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds)), execute: check)
    }

    /// The answer for `generation` and a request whose `Accept-Encoding` is `acceptEncoding`:
    /// a kept compressed form as its representation (`BodyCompression.representation`, so the
    /// pipeline sends it as it is), or the plain answer, made by `make` when none is kept.
    func response(generation: Int, acceptEncoding: String?, make: () -> Response) -> Response {
        var isNew = false
        let makeKept = {
            isNew = true
            self.plainMade.add(1, ordering: .relaxed)
            return Kept(response: make(), lastPlainUse: self.now())
        }
        let (response, made) = kept.withValue(for: generation, make: makeKept) { state, isKept -> (Response, Bool) in
            // Just made: kept, unless the request is still on a replaced snapshot (or one older than
            // the kept list), which gets its own.
            if isNew { return (state.response, isKept) }
            if let forms = state.forms {
                let coding = ContentCoding.choose(acceptEncoding, available: forms.available)
                if coding != .identity { return (BodyCompression.representation(state.response, coding: coding, forms: forms), false) }
            }
            if state.plainReleased {
                let again = make()
                plainMade.add(1, ordering: .relaxed)
                guard again.status == state.response.status, again.headers[.eTag] == state.response.headers[.eTag] else {
                    // Not the bytes the forms were made of: start over with this answer.
                    state = Kept(response: again, lastPlainUse: now())
                    return (again, true)
                }
                state.response.body = again.body
                state.plainReleased = false
            }
            state.lastPlainUse = now()
            let answer = state.response
            if state.forms != nil { scheduleRelease(&state) }
            return (answer, false)
        }
        if made, BodyCompression.isCompressible(kept: response) {
            BodyCompression.inBackground(response.body, level: BodyCompression.policy.large) { [self] forms in
                kept.ifKept(generation: generation) { current in
                    guard current.response.headers[.eTag] == response.headers[.eTag] else { return }
                    current.forms = forms
                    scheduleRelease(&current)
                }
            }
        }
        return response
    }

    /// Lets go of the list of generations before `generation` (a new snapshot replaces theirs) and
    /// keeps none for them from now on: without this, a replaced snapshot's list (30 MB plain at
    /// 50,000 items, with its forms) stayed until the next request for the whole list.
    func retire(below generation: Int) {
        kept.retire(below: generation)
    }

    /// Schedules one release check for when the plain form will have been idle `keepPlainFor`.
    private func scheduleRelease(_ state: inout Kept) {
        guard !state.releaseScheduled, !state.plainReleased else { return }
        state.releaseScheduled = true
        let delay = max(.zero, state.lastPlainUse + keepPlainFor - now())
        // Weak: a list let go (a new snapshot) needs no check, and a scheduler that keeps its checks
        // (the tests') must not keep the list alive through them.
        schedule(delay) { [weak self] in
            guard let self else { return }
            let later = kept.withKept { _, current -> Bool in
                current.releaseScheduled = false
                return !releasePlainIfIdle(&current)
            }
            if later == true { kept.withKept { _, current in scheduleRelease(&current) } }
        }
    }

    /// Lets the plain form go when its compressed forms are kept and no client has asked for it
    /// for `keepPlainFor`; true when it is gone (or there is none to keep).
    @discardableResult
    func releasePlainIfIdle() -> Bool {
        kept.withKept { _, current in releasePlainIfIdle(&current) } ?? true
    }

    private func releasePlainIfIdle(_ state: inout Kept) -> Bool {
        guard !state.plainReleased else { return true }
        guard let forms = state.forms, forms.gzip != nil, forms.brotli != nil else { return false }
        guard now() - state.lastPlainUse >= keepPlainFor else { return false }
        state.response.body = []
        state.plainReleased = true
        return true
    }

    /// Bytes kept: the plain form (when kept) and the compressed forms.
    var keptBytes: Int {
        kept.withKept { _, state in state.response.body.count + (state.forms?.byteCount ?? 0) } ?? 0
    }

    /// Whether the compressed forms of the kept list are made.
    var hasForms: Bool { kept.withKept { _, state in state.forms != nil } ?? false }

    /// Times the plain form was encoded (tests).
    var plainMadeCount: Int { plainMade.load(ordering: .relaxed) }
}
