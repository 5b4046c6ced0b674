import HTTPTypes
import MicroHTTP
import Synchronization

/// The stub's mutable state, shared between the test (programming it) and the server's handler
/// threads (reading it); every access goes through one mutex.
final class StubState: Sendable {
    /// A programmed image.
    struct Image: Sendable {
        var bytes: [UInt8]
        var contentType: String
        /// More header fields to send with it (say, a tile server's `Cache-Control`).
        var headers: HTTPFields = [:]
    }

    /// Everything programmable or observed.
    struct Values: Sendable {
        var list = #"{"data":[]}"#
        var details: [String: String] = [:]
        var images: [String: Image] = [:]
        var fault: StubUpstream.Fault = .none
        var etagsEnabled = true
        var totalCount = 0
        var countsByPath: [String: Int] = [:]
        var lastRequest: Request?
        /// Programmed answers to POSTs by path (status and JSON body); absent paths answer 404.
        var writes: [String: (status: Int, body: String)] = [:]
        /// The body of the last POST to each path: JSON bytes, or a form's file bytes by field.
        var postedJSON: [String: [UInt8]] = [:]
        var postedFiles: [String: [UInt8]] = [:]
    }

    private let values = Mutex(Values())

    /// Changes the state under the lock.
    func mutate(_ body: (inout Values) -> Void) {
        values.withLock { body(&$0) }
    }

    /// Reads the state under the lock.
    func read<T: Sendable>(_ body: (Values) -> T) -> T {
        values.withLock { body($0) }
    }

    /// Records a request and returns a snapshot to answer it from, in one critical section, so a
    /// concurrent `setFault` cannot give one request half of each setting.
    func record(_ request: Request) -> Values {
        values.withLock { state in
            state.totalCount += 1
            // Writes count apart from reads of the same path: `POST /api/v1/announcements`.
            state.countsByPath[(request.method == .post ? "POST " : "") + request.path, default: 0] += 1
            state.lastRequest = request
            switch request.body {
            case .bytes(let bytes): state.postedJSON[request.path] = bytes
            case .form(let form): for file in form.files { state.postedFiles[request.path + "#" + file.fieldName] = file.read() ?? [] }
            case .none: break
            }
            return state
        }
    }
}
