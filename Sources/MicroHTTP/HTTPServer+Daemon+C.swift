internal import CMicroHTTPD
import Foundation
import HTTPTypes
import Logging
import Synchronization

// Starting and stopping the libmicrohttpd daemon: the options array, the retains the daemon
// holds, and the order `stop` must keep (docs/transport.md "Traps: shutdown").

extension HTTPServer {
    /// Binds and starts serving. Throws `ServerError` naming what failed.
    public func start() throws {
        try daemon.withLock { current in
            guard current == nil else { throw ServerError.alreadyStarted }
            guard (0...65535).contains(configuration.port) else {
                throw ServerError.invalidPort(configuration.port)
            }
            let address = try SocketAddress(host: configuration.host, port: configuration.port)
            let descriptors = FileDescriptorLimit.raiseToHard()
            let limit = max(16, min(configuration.connectionLimit, descriptors - configuration.reservedDescriptors))
            connectionLimitInUse.store(limit, ordering: .relaxed)
            // Ownership: the daemon holds one retain of `self` from here until `stop` releases it.
            let selfPointer = Unmanaged.passRetained(self).toOpaque()
            // Ownership: freed in `stop` after the daemon (the only reader) has stopped.
            let logTarget = UnsafeMutablePointer<petspot_log_target>.allocate(capacity: 1)
            logTarget.initialize(to: petspot_log_target(sink: libraryLogSink, cls: selfPointer))
            guard
                let started = address.withSockaddrPointer({ sockaddrPointer in
                    startDaemon(address: sockaddrPointer, isIPv6: address.isIPv6, context: selfPointer, logTarget: logTarget, connectionLimit: limit)
                })
            else {
                logTarget.deallocate()
                Unmanaged<HTTPServer>.fromOpaque(selfPointer).release()
                throw ServerError.startFailed(host: configuration.host, port: configuration.port)
            }
            current = DaemonHandle(raw: started, retainedSelf: selfPointer, logTarget: logTarget)
            boundPort.store(Int(petspot_mhd_bound_port(started)), ordering: .releasing)
            watch?.startSweeping()
        }
        if preparedResponses != nil { HTTPServer.warnOnceWithoutReuse(logger) }
        logger.debug(
            "http server listening",
            metadata: ["host": "\(configuration.host)", "port": "\(port)", "connection_limit": "\(effectiveConnectionLimit)"]
        )
    }

    private func startDaemon(
        address: UnsafePointer<sockaddr>,
        isIPv6: Bool,
        context: UnsafeMutableRawPointer,
        logTarget: UnsafeMutablePointer<petspot_log_target>,
        connectionLimit: Int
    ) -> OpaquePointer? {
        var flags =
            MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue
            | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_ERROR_LOG.rawValue
        if isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        var options: [MHD_OptionItem] = [
            // First: libmicrohttpd logs through the standard logger until it meets this option.
            MHD_OptionItem(option: .EXTERNAL_LOGGER, value: petspot_mhd_logger_address(), ptr_value: UnsafeMutableRawPointer(logTarget)),
            MHD_OptionItem(option: .THREAD_POOL_SIZE, value: configuration.threadCount, ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_LIMIT, value: connectionLimit, ptr_value: nil),
            MHD_OptionItem(option: .NOTIFY_CONNECTION, value: unsafeBitCast(notifyConnectionCallback, to: Int.self), ptr_value: context),
            MHD_OptionItem(option: .PER_IP_CONNECTION_LIMIT, value: max(0, configuration.perAddressConnectionLimit), ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: configuration.idleTimeoutSeconds, ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_MEMORY_LIMIT, value: configuration.connectionMemoryLimit, ptr_value: nil),
            MHD_OptionItem(option: .LISTENING_ADDRESS_REUSE, value: 1, ptr_value: nil),
            MHD_OptionItem(option: .SOCK_ADDR, value: 0, ptr_value: UnsafeMutableRawPointer(mutating: address)),
            MHD_OptionItem(option: .NOTIFY_COMPLETED, value: unsafeBitCast(requestCompletedCallback, to: Int.self), ptr_value: context),
            MHD_OptionItem(option: .UNESCAPE_CALLBACK, value: unsafeBitCast(identityUnescapeCallback, to: Int.self), ptr_value: nil),
            MHD_OptionItem(option: .END, value: 0, ptr_value: nil),
        ]
        return options.withUnsafeMutableBufferPointer { buffer in
            withVaList([Int32(MHD_OPTION.ARRAY.rawValue), buffer.baseAddress!, Int32(MHD_OPTION.END.rawValue)]) { arguments in
                MHD_start_daemon_va(flags, 0, nil, nil, accessHandlerCallback, context, arguments)
            }
        }
    }

    /// Stops accepting, lets in-flight requests finish (up to `gracePeriod`), then stops.
    ///
    /// libmicrohttpd aborts the process when stopped with suspended connections, so requests still
    /// running when the grace period ends are answered 503 and resumed before the daemon stops.
    ///
    /// "Stops accepting" is ours, not `MHD_quiesce_daemon`'s: a request that arrives while the
    /// others finish gets a 503 with `Connection: close` (the access handler checks `accepting`),
    /// and the listening socket closes with the daemon. libmicrohttpd 0.9.75's quiesce races its own
    /// epoll threads: a worker that wakes between quiesce's flag and its `epoll_ctl(DEL)` removes
    /// the listening socket first, and quiesce then aborts the process ("Failed to remove listen
    /// FD from epoll set", seen once in a full test run; the worker's own path tolerates ENOENT,
    /// quiesce's does not).
    public func stop(gracePeriod: Duration = .seconds(10)) async {
        guard
            let handle = daemon.withLock({ current -> DaemonHandle? in
                defer { current = nil }
                return current
            })
        else { return }
        accepting.store(false, ordering: .sequentiallyConsistent)
        let clock = ContinuousClock()
        let deadline = clock.now + gracePeriod
        while inFlight.load(ordering: .sequentiallyConsistent) > 0 && clock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        if inFlight.load(ordering: .sequentiallyConsistent) > 0 {
            let abandoned = suspended.withLock { $0.values.map { $0 } }
            logger.warning("stopping with requests still running", metadata: ["count": "\(abandoned.count)"])
            for request in abandoned {
                let made = ServerMadeAnswer(
                    status: 503,
                    message: "The server is shutting down.",
                    method: request.context.method,
                    rawPath: request.context.rawPath,
                    headers: request.headers
                )
                var response = configuration.errorResponse(made)
                configuration.finishServerAnswer(&response, made)
                request.finish(with: response)
            }
            let extra = clock.now + .seconds(2)
            // Resumed connections count until their 503 is sent (completion callback).
            while inFlight.load(ordering: .sequentiallyConsistent) > 0 && clock.now < extra {
                try? await Task.sleep(for: .milliseconds(5))
            }
        }
        MHD_stop_daemon(handle.raw)
        watch?.stopSweeping()
        handle.logTarget.deallocate()
        Unmanaged<HTTPServer>.fromOpaque(handle.retainedSelf).release()
        logger.debug("http server stopped", metadata: ["port": "\(port)"])
    }
}

/// The running daemon and the retain the daemon holds on its server.
struct DaemonHandle: @unchecked Sendable {
    // Safety: used only under the server's `daemon` mutex or after being taken out of it.
    let raw: OpaquePointer
    let retainedSelf: UnsafeMutableRawPointer
    /// The formatting logger's target (`petspot_mhd_logger`).
    let logTarget: UnsafeMutablePointer<petspot_log_target>
}

/// `petspot_log_sink`: the text of one libmicrohttpd log message, for the server in `cls`.
private let libraryLogSink: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Void = { cls, line in
    guard let cls, let line else { return }
    Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue().libraryMessage(String(cString: line))
}
