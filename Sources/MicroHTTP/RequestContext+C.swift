internal import CMicroHTTPD
import HTTPTypes
import Synchronization

/// Per-request state libmicrohttpd keeps for us in `*req_cls` between handler calls.
///
/// Ownership: retained into `*req_cls` on the first handler call (`Unmanaged.passRetained`),
/// released in the request-completed callback.
final class RequestContext: Sendable {
    /// The request method, copied on the first call (C strings are valid only during a call).
    let method: String
    /// The raw path, copied on the first call.
    let rawPath: String
    /// Set once the handler Task has been started (only touched on the connection's MHD thread).
    let started = Atomic<Bool>(false)
    /// The handler's response, set by the Task, read by the MHD thread after resume.
    let response = Mutex<Response?>(nil)
    /// The body being read, for a request the application's `bodyPolicy` accepted a body for.
    /// Set on the first call and used on the connection's thread only (before the handler runs).
    nonisolated(unsafe) var bodyReader: BodyReader?
    /// The head the body policy saw (for the answer to a body that could not be read).
    nonisolated(unsafe) var head: RequestHead?
    /// What the body policy decided from the head, handed to the handler (`Request.decided`); same thread rule.
    nonisolated(unsafe) var decided: (any Sendable)?

    /// The method as swift-http-types has it (GET, HEAD, or one whose body the application accepted).
    var requestMethod: HTTPRequest.Method {
        switch method {
        case "GET": .get
        case "HEAD": .head
        default: HTTPRequest.Method(method) ?? .get
        }
    }

    deinit {
        // The request completed: its uploaded files are no longer anyone's.
        bodyReader?.discard()
    }

    init(method: String, rawPath: String) {
        self.method = method
        self.rawPath = rawPath
    }
}

/// A connection parked with `MHD_suspend_connection` while its handler runs.
struct SuspendedRequest: @unchecked Sendable {
    // Safety: libmicrohttpd allows MHD_resume_connection from any thread; the pointer stays valid
    // while the connection is suspended, and `finish` resumes it exactly once (guarded by the
    // server's `suspended` map, from which the entry is removed first).
    let context: RequestContext
    let connection: OpaquePointer
    let server: HTTPServer
    /// The request's header fields: the 503 of a request still running at shutdown is rendered from them.
    let headers: HTTPFields

    /// Stores the response (unless one is there) and resumes the connection, once.
    func finish(with response: Response) {
        let wasSuspended = server.suspended.withLock { map in
            map.removeValue(forKey: ObjectIdentifier(context)) != nil
        }
        guard wasSuspended else { return }
        context.response.withLock { current in
            if current == nil { current = response }
        }
        MHD_resume_connection(connection)
    }
}
