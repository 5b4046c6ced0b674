internal import CMicroHTTPD
import Foundation
import Synchronization

/// The header deadline, against slow-header connection abuse (docs/hardening.md): a connection must deliver a request's
/// headers within `headerTimeout` of its start, and the next request's within `idleTimeout` +
/// `headerTimeout` of the previous answer. libmicrohttpd's own timeout counts inactivity, so a
/// client sending one byte every few seconds (slowloris) could hold a connection for ever; this
/// deadline is absolute, and no trickle moves it.
///
/// How: libmicrohttpd tells us when a connection starts and closes (`MHD_OPTION_NOTIFY_CONNECTION`);
/// each gets an `Entry` (its socket and deadline) kept in its socket context, so the request
/// callbacks reach it without a lookup. Once a second a sweeper thread shuts down (`shutdown(2)`,
/// never `close`) the socket of every connection past its deadline; libmicrohttpd then sees the
/// end of the stream and closes the connection itself.
///
/// Safety of touching a socket libmicrohttpd owns: `shutdown` runs under `entries`' lock, and an
/// entry leaves the map (in the CLOSED notice, under the same lock) before libmicrohttpd closes the
/// socket, so the descriptor shut down is never one reused by a newer connection.
final class ConnectionWatch: Sendable {
    /// One watched connection.
    final class Entry: Sendable {
        let socket: Int32
        /// Nanoseconds on the watch's clock after which the connection is cut; `Int64.max` while
        /// a request is being answered (the deadline is for headers, not for slow answers).
        let deadline: Atomic<Int64>

        init(socket: Int32, deadline: Int64) {
            self.socket = socket
            self.deadline = Atomic(deadline)
        }
    }

    let headerTimeout: Duration
    let idleTimeout: Duration
    private let epoch = ContinuousClock.now
    private let entries = Mutex<[UInt: Entry]>([:])
    /// Called with the number of connections cut by one sweep (when there were some).
    private let onCut: @Sendable (Int) -> Void
    private let running = Atomic<Bool>(false)

    init(headerTimeout: Duration, idleTimeout: Duration, onCut: @escaping @Sendable (Int) -> Void) {
        self.headerTimeout = headerTimeout
        self.idleTimeout = idleTimeout
        self.onCut = onCut
    }

    private var nowNanoseconds: Int64 { Self.nanoseconds(ContinuousClock.now - epoch) }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
    }

    /// A connection started: watch it from now.
    func started(_ connection: OpaquePointer, socket: Int32) -> Entry {
        let entry = Entry(socket: socket, deadline: nowNanoseconds + Self.nanoseconds(headerTimeout))
        entries.withLock { $0[UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection)))] = entry }
        return entry
    }

    /// A connection closed (before libmicrohttpd closes its socket): forget it.
    func closed(_ connection: OpaquePointer) {
        _ = entries.withLock { $0.removeValue(forKey: UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection)))) }
    }

    /// A request's headers arrived: no deadline while it is answered.
    static func headersArrived(_ entry: Entry) {
        entry.deadline.store(.max, ordering: .relaxed)
    }

    /// A request's headers arrived and its body is expected: all of it within `timeout`, however
    /// slowly it trickles (libmicrohttpd's own timeout counts only silence between pieces).
    func bodyExpected(_ entry: Entry, within timeout: Duration) {
        entry.deadline.store(nowNanoseconds + Self.nanoseconds(timeout), ordering: .relaxed)
    }

    /// A request was answered: the next one's headers are due within the idle and header timeouts.
    func requestFinished(_ entry: Entry) {
        entry.deadline.store(nowNanoseconds + Self.nanoseconds(idleTimeout + headerTimeout), ordering: .relaxed)
    }

    /// Shuts down every connection past its deadline; returns how many. The count is reported
    /// (`onCut`) before the sockets are shut down, so whoever sees a connection end also sees it
    /// counted.
    @discardableResult
    func sweep() -> Int {
        let now = nowNanoseconds
        let due = entries.withLock { entries -> [(key: UInt, entry: Entry)] in
            entries.filter { $0.value.deadline.load(ordering: .relaxed) < now }.map { (key: $0.key, entry: $0.value) }
        }
        guard !due.isEmpty else { return 0 }
        for item in due {
            // Once: the entry stays until libmicrohttpd notices and closes the connection.
            item.entry.deadline.store(.max, ordering: .relaxed)
        }
        onCut(due.count)
        entries.withLock { entries in
            // Only connections still open: a closed one's socket may already belong to another.
            for item in due where entries[item.key] === item.entry {
                shutdown(item.entry.socket, Int32(SHUT_RDWR))
            }
        }
        return due.count
    }

    /// Starts the sweeper thread (once a second until `stopSweeping`).
    func startSweeping() {
        guard running.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged else { return }
        let thread = Thread { [self] in
            while running.load(ordering: .sequentiallyConsistent) {
                Thread.sleep(forTimeInterval: 1)
                sweep()
            }
        }
        thread.name = "petspot-header-deadline"
        thread.start()
    }

    /// Stops the sweeper thread (it ends within a second).
    func stopSweeping() {
        running.store(false, ordering: .sequentiallyConsistent)
    }
}

/// `MHD_NotifyConnectionCallback`: starts and ends the watch of each connection. The entry is
/// retained into the connection's socket context and released when it closes.
let notifyConnectionCallback:
    @convention(c) (
        UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?, MHD_ConnectionNotificationCode
    ) -> Void = { cls, connection, socketContext, code in
        guard let cls, let connection, let socketContext else { return }
        let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
        guard let watch = server.watch else { return }
        if code.rawValue == 0 {  // MHD_CONNECTION_NOTIFY_STARTED (1 is CLOSED)
            let entry = watch.started(connection, socket: petspot_mhd_connection_socket(connection))
            // Ownership: released below, at CLOSED.
            socketContext.pointee = Unmanaged.passRetained(entry).toOpaque()
        } else {
            watch.closed(connection)
            if let raw = socketContext.pointee {
                socketContext.pointee = nil
                Unmanaged<ConnectionWatch.Entry>.fromOpaque(raw).release()
            }
        }
    }

extension ConnectionWatch {
    /// The entry libmicrohttpd keeps for `connection` (nil when the watch is off).
    static func entry(of connection: OpaquePointer) -> Entry? {
        guard let raw = petspot_mhd_socket_context(connection) else { return nil }
        return Unmanaged<Entry>.fromOpaque(raw).takeUnretainedValue()
    }
}
