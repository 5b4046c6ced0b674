import Foundation
import HTTPTypes
import MicroHTTP
import Synchronization

/// Test hooks of the demo upstream, off unless `petspot-web demo-upstream --test-hooks` (docs/demo-upstream-writes.md
/// "Test hooks"): counts of the write calls the backend received, and a delay before each create, so a
/// multi-replica test (scripts/scale-out.sh) can hold a report "in flight" and count what reached the
/// backend. The embedded demo never has them, and the real backend has no such paths.
public final class DemoTestHooks: Sendable {
    /// The longest create delay accepted (a test that asks for more is mistaken).
    public static let maxCreateDelayMilliseconds = 30_000

    private struct State {
        var createDelayMilliseconds: Int
        var createRequests = 0
        var created = 0
        var photoRequests = 0
    }

    private let state: Mutex<State>

    /// Hooks whose creates wait `createDelayMilliseconds` (clamped to 0…30,000) before they are handled.
    public init(createDelayMilliseconds: Int = 0) {
        state = Mutex(State(createDelayMilliseconds: Self.clamp(createDelayMilliseconds)))
    }

    private static func clamp(_ milliseconds: Int) -> Int {
        min(max(milliseconds, 0), maxCreateDelayMilliseconds)
    }

    /// Before a create is handled: counts it, then waits the delay in force when it arrived.
    func beforeCreate() async {
        let delay = state.withLock { state in
            state.createRequests += 1
            return state.createDelayMilliseconds
        }
        if delay > 0 { try? await Task.sleep(for: .milliseconds(delay)) }
    }

    /// After a create: counts a `201`.
    func afterCreate(status: Int) {
        guard status == 201 else { return }
        state.withLock { $0.created += 1 }
    }

    /// A photo upload's head arrived (counted before its credentials are checked: every code check).
    func photoRequest() {
        state.withLock { $0.photoRequests += 1 }
    }

    /// `GET /__demo/counts` and `GET /__demo/create-delay?ms=N`; nil for other paths.
    func answer(path: String, query: QueryItems) -> Response? {
        switch path {
        case "/__demo/counts":
            let body = state.withLock { state in
                JSONText.object([
                    ("createRequests", .raw(String(state.createRequests))),
                    ("created", .raw(String(state.created))),
                    ("photoRequests", .raw(String(state.photoRequests))),
                    ("createDelayMs", .raw(String(state.createDelayMilliseconds))),
                ])
            }
            return Self.json(body)
        case "/__demo/create-delay":
            guard let text = query["ms"], let milliseconds = Int(text) else {
                return Response(status: 400, headers: [.contentType: "text/plain; charset=utf-8"], body: Array("ms=<milliseconds>\n".utf8))
            }
            let applied = Self.clamp(milliseconds)
            state.withLock { $0.createDelayMilliseconds = applied }
            return Self.json(JSONText.object([("createDelayMs", .raw(String(applied)))]))
        default:
            return nil
        }
    }

    private static func json(_ body: String) -> Response {
        Response(status: 200, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"], body: Array(body.utf8))
    }
}
