import HTTPTypes
import Logging
import MicroHTTP
import Synchronization

/// A controllable fake of the upstream backend for integration tests: serves programmed bodies
/// on 127.0.0.1 with the backend's headers, switches between fault modes at runtime, and records
/// what it was asked. Always `await stop()` it, even when a test fails.
public final class StubUpstream: Sendable {
    /// A way to misbehave, applied to every request until changed.
    public enum Fault: Sendable, Equatable {
        /// Behave normally.
        case none
        /// Answer with this status and the backend's error JSON (e.g. 500 INTERNAL_SERVER_ERROR).
        case status(Int)
        /// Sleep this long, then answer normally (for timeout tests).
        case slow(Duration)
        /// Answer 200 `application/json` with a body that is not JSON.
        case malformedJSON
        /// Announce the whole body's length but close the connection halfway through it.
        case truncatedBody
        /// Answer 200 with a syntactically valid JSON list of exactly this many bytes.
        case hugeBody(Int)
        /// Answer 200 with an HTML page, as a captive portal or misrouted proxy would.
        case wrongContentType
        /// Answer 200 `{"data":null}`: JSON, but the wrapper holds no array.
        case nullData
    }

    private let state: StubState
    private let server: HTTPServer

    private init(state: StubState, server: HTTPServer) {
        self.state = state
        self.server = server
    }

    /// Starts a stub on 127.0.0.1 on a free port, serving an empty list until programmed.
    public static func start() throws -> StubUpstream {
        let state = StubState()
        var logger = Logger(label: "upstream-stub")
        // Quiet by default: the stub's access log would drown the test output.
        logger.logLevel = .warning
        var configuration = ServerConfiguration(host: "127.0.0.1", port: 0, threadCount: 2)
        // POSTs of any size are read, so tests can program the write API's answers (`setWrite`).
        configuration.bodyPolicy = { _ in .accept(BodyLimits(maxBytes: 64 * 1024 * 1024)) }
        let server = HTTPServer(configuration: configuration, logger: logger) { request in
            await StubResponder(state: state).respond(to: request)
        }
        try server.start()
        return StubUpstream(state: state, server: server)
    }

    /// The base URL to give the client under test, e.g. `http://127.0.0.1:50123`.
    public var baseURL: String { "http://127.0.0.1:\(server.port)" }

    /// The bound port.
    public var port: Int { server.port }

    /// Stops the server. In-flight requests (say, a `slow` fault) get one second to finish, so a
    /// test that stops the stub mid-request does not wait out the whole delay.
    public func stop() async {
        await server.stop(gracePeriod: .seconds(1))
    }

    // MARK: Content

    /// Sets the raw body of `GET /api/v1/announcements` (any query), sent as `application/json`.
    public func setList(_ json: String) {
        state.mutate { $0.list = json }
    }

    /// Sets the raw body of `GET /api/v1/announcements/{id}`; unknown ids get the backend's JSON 404.
    public func setDetails(id: String, json: String) {
        state.mutate { $0.details[id] = json }
    }

    /// Removes programmed details, so that id answers 404 again.
    public func removeDetails(id: String) {
        state.mutate { $0.details[id] = nil }
    }

    /// Serves `bytes` at `path` with `contentType` and `headers`. `path` is the request path
    /// (`/images/a.jpg`, or any other path such as a tile's); a bare file name (`a.jpg`) is taken to
    /// live under `/images/`.
    public func setImage(path: String, bytes: [UInt8], contentType: String, headers: HTTPFields = [:]) {
        let fullPath = path.hasPrefix("/") ? path : "/images/" + path
        state.mutate { $0.images[fullPath] = StubState.Image(bytes: bytes, contentType: contentType, headers: headers) }
    }

    /// Switches the fault mode for every following request.
    /// Answers POSTs to `path` with `status` and the JSON `body` (the write API: create, photo upload).
    public func setWrite(path: String, status: Int, body: String) {
        state.mutate { $0.writes[path] = (status, body) }
    }

    /// The JSON body of the last POST to `path`.
    public func postedJSON(path: String) -> [UInt8]? {
        state.read { $0.postedJSON[path] }
    }

    /// The bytes of the file in form field `field` of the last POST to `path`.
    public func postedFile(path: String, field: String) -> [UInt8]? {
        state.read { $0.postedFiles[path + "#" + field] }
    }

    public func setFault(_ fault: Fault) {
        state.mutate { $0.fault = fault }
    }

    /// Turns ETag sending and `If-None-Match` → 304 on (the default, like the backend) or off.
    public func setETagsEnabled(_ enabled: Bool) {
        state.mutate { $0.etagsEnabled = enabled }
    }

    // MARK: Observations

    /// Requests received since the last reset: all of them, or those whose decoded path equals `path`.
    public func requestCount(path: String? = nil) -> Int {
        state.read { state in
            guard let path else { return state.totalCount }
            return state.countsByPath[path, default: 0]
        }
    }

    /// Forgets the counts and the last request.
    public func resetCounts() {
        state.mutate { state in
            state.totalCount = 0
            state.countsByPath = [:]
            state.lastRequest = nil
        }
    }

    /// Headers of the most recent request (e.g. to check the forwarded request id), nil before any.
    public var lastRequestHeaders: HTTPFields? {
        state.read { $0.lastRequest?.headers }
    }

    /// Query of the most recent request (e.g. to check forwarded lat/lng/range), nil before any.
    public var lastRequestQuery: QueryItems? {
        state.read { $0.lastRequest?.query }
    }
}
