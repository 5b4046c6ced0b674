/// Why the server could not start or a libmicrohttpd call failed; names the C function.
public enum ServerError: Error, CustomStringConvertible, Sendable {
    /// The configured host is not an IP address this server can bind.
    case invalidHost(String)
    /// The configured port is outside 0...65535.
    case invalidPort(Int)
    /// `MHD_start_daemon` returned NULL (port in use, no permission, …).
    case startFailed(host: String, port: Int)
    /// The server was started twice.
    case alreadyStarted

    public var description: String {
        switch self {
        case .invalidHost(let host): return "cannot bind host '\(host)': not an IPv4 or IPv6 address"
        case .invalidPort(let port): return "port \(port) is outside 0...65535"
        case .startFailed(let host, let port):
            return "MHD_start_daemon failed for \(host):\(port) (address in use or not permitted?)"
        case .alreadyStarted: return "the server is already started"
        }
    }
}
