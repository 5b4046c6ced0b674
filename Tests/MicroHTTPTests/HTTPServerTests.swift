import Foundation
import HTTPTypes
import Logging
import MicroHTTP
import Synchronization
import TestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("HTTP server over libmicrohttpd")
struct HTTPServerTests {
    @Test func port_zero_binds_a_free_port_and_reports_it() async throws {
        try await withServer(handler: { _ in .text("ok") }) { server, base in
            #expect(server.port > 0)
            let (status, _, body) = try await fetch(base).parts
            #expect(status == 200)
            #expect(String(decoding: body, as: UTF8.self) == "ok")
        }
    }

    @Test func two_hundred_concurrent_slow_requests_overlap_far_beyond_the_thread_count() async throws {
        // Server-side view: how many handlers were waiting at the same time. With 4 server
        // threads, handlers that blocked a thread could never exceed 4; this does not depend on
        // how fast the machine is. (A wall-time bound that stood here failed a CI run on a busy
        // machine, and the house rule is that no test decides on wall-clock time.)
        let running = Atomic<Int>(0)
        let peak = Atomic<Int>(0)
        try await withServer(handler: { request in
            let now = running.add(1, ordering: .sequentiallyConsistent).newValue
            _ = peak.max(now, ordering: .sequentiallyConsistent)
            try await Task.sleep(for: .milliseconds(50))
            running.subtract(1, ordering: .sequentiallyConsistent)
            return .text(request.query["n"] ?? "")
        }) { _, base in
            let bodies = try await withThrowingTaskGroup(of: (Int, Int, String).self) { group in
                for index in 0..<200 {
                    group.addTask {
                        let (status, _, body) = try await fetch(try url(base, "/slow?n=\(index)")).parts
                        return (index, status, String(decoding: body, as: UTF8.self))
                    }
                }
                return try await group.reduce(into: [(Int, Int, String)]()) { $0.append($1) }
            }
            #expect(bodies.count == 200)
            #expect(bodies.allSatisfy { $0.1 == 200 && $0.2 == String($0.0) })
            #expect(peak.load(ordering: .sequentiallyConsistent) > 16, "at most \(peak.load(ordering: .sequentiallyConsistent)) handlers overlapped")
        }
    }

    @Test func keep_alive_connections_are_reused() async throws {
        let ports = Mutex<[Int]>([])
        try await withServer(handler: { request in
            ports.withLock { $0.append(request.clientPort ?? -1) }
            return .text("ok")
        }) { _, base in
            let configuration = URLSessionConfiguration.ephemeral
            configuration.httpMaximumConnectionsPerHost = 1
            let session = URLSession(configuration: configuration)
            for _ in 0..<5 {
                let (status, headers, _) = try await fetch(try url(base, "/k"), session: session).parts
                #expect(status == 200)
                #expect(header("Connection", in: headers)?.lowercased() != "close")
            }
            session.finishTasksAndInvalidate()
        }
        let seen = ports.withLock { $0 }
        #expect(seen.count == 5)
        #expect(Set(seen).count == 1, "client ports: \(seen)")
    }

    @Test func a_one_megabyte_body_arrives_intact() async throws {
        let payload = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        try await withServer(handler: { _ in
            Response(status: 200, headers: [.contentType: "application/octet-stream"], body: payload)
        }) { _, base in
            let (status, headers, body) = try await fetch(try url(base, "/big")).parts
            #expect(status == 200)
            #expect(header("Content-Length", in: headers) == String(payload.count))
            #expect(Array(body) == payload)
        }
    }

    @Test func utf8_path_and_repeated_query_parameters_decode() async throws {
        let seen = Mutex<Request?>(nil)
        try await withServer(handler: { request in
            seen.withLock { $0 = request }
            return .text("ok")
        }) { _, base in
            let target = try url(base, "/pets/%C5%81atka?tag=a&tag=b%20c&city=Krak%C3%B3w&q=1%2B1&plus=a+b&empty=")
            let (status, _, _) = try await fetch(target).parts
            #expect(status == 200)
        }
        let request = try #require(seen.withLock { $0 })
        #expect(request.path == "/pets/Łatka")
        #expect(request.rawPath == "/pets/%C5%81atka")
        #expect(request.query.all("tag") == ["a", "b c"])
        #expect(request.query["city"] == "Kraków")
        #expect(request.query["q"] == "1+1")
        #expect(request.query["plus"] == "a b")
        #expect(request.query["empty"] == "")
        #expect(request.clientAddress == "127.0.0.1")
    }

    @Test func request_headers_reach_the_handler() async throws {
        try await withServer(handler: { request in
            .text(request.headers[.xRequestID] ?? "none")
        }) { _, base in
            let (_, _, body) = try await fetch(base, headers: ["X-Request-Id": "abc123"]).parts
            #expect(String(decoding: body, as: UTF8.self) == "abc123")
        }
    }

    @Test func the_handler_sees_the_request_as_a_swift_http_types_head() async throws {
        try await withServer(handler: { request in
            let head = request.head
            let line = [
                head.method.rawValue, head.scheme ?? "-", head.authority ?? "-", head.path ?? "-",
                head.headerFields[.accept] ?? "-", String(request.headers.contains { $0.name.canonicalName == "host" }),
            ]
            return .text(line.joined(separator: "|"))
        }) { _, base in
            let (_, _, body) = try await fetch(try url(base, "/a%20b?q=x%26y&r=1"), headers: ["Accept": "text/html"]).parts
            let host = "\(base.host ?? "?"):\(base.port ?? 0)"
            // Host is the authority (not a field); the target keeps its encoding.
            #expect(String(decoding: body, as: UTF8.self) == "GET|http|\(host)|/a%20b?q=x%26y&r=1|text/html|false")
        }
    }

    @Test func a_header_value_with_a_line_break_cannot_split_the_response() async throws {
        try await withServer(handler: { request in
            var response = Response.text("fine")
            // Text a handler might copy from hostile data: HTTPField turns CR and LF into spaces.
            response.headers[.contentLanguage] = "en\r\nSet-Cookie: stolen=1"
            return response
        }) { _, base in
            let (status, headers, body) = try await fetch(base).parts
            #expect(status == 200)
            #expect(String(decoding: body, as: UTF8.self) == "fine")
            #expect(header("Set-Cookie", in: headers) == nil)
            #expect(header("Content-Language", in: headers) == "en  Set-Cookie: stolen=1")
        }
    }

    @Test func head_has_headers_but_no_body() async throws {
        try await withServer(handler: { _ in .text("twelve bytes") }) { _, base in
            let (status, headers, body) = try await fetch(base, method: "HEAD").parts
            #expect(status == 200)
            #expect(body.isEmpty)
            #expect(header("Content-Length", in: headers) == "12")
            #expect(header("Content-Type", in: headers) == "text/plain; charset=utf-8")
        }
    }

    @Test func methods_other_than_get_and_head_get_405_with_allow() async throws {
        let calls = Atomic<Int>(0)
        try await withServer(handler: { _ in
            calls.add(1, ordering: .relaxed)
            return .text("ok")
        }) { _, base in
            for method in ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"] {
                let (status, headers, _) = try await fetch(base, method: method).parts
                #expect(status == 405, "\(method)")
                #expect(header("Allow", in: headers) == "GET, HEAD")
            }
            let (status, _, _) = try await fetch(base).parts
            #expect(status == 200)
        }
        #expect(calls.load(ordering: .relaxed) == 1)
    }

    @Test func an_over_long_url_gets_414_and_the_server_keeps_serving() async throws {
        try await withServer(handler: { _ in .text("ok") }) { _, base in
            let long = String(repeating: "a", count: 64 * 1024)
            let (status, _, _) = try await fetch(try url(base, "/\(long)")).parts
            #expect(status == 414)
            let (after, _, _) = try await fetch(base).parts
            #expect(after == 200)
        }
    }

    @Test func over_large_headers_get_431_and_the_server_keeps_serving() async throws {
        try await withServer(handler: { _ in .text("ok") }) { _, base in
            let big = String(repeating: "b", count: 40 * 1024)
            let (status, _, _) = try await fetch(base, headers: ["X-Big": big]).parts
            #expect(status == 431)
            let (after, _, _) = try await fetch(base).parts
            #expect(after == 200)
        }
    }

    @Test func an_encoded_nul_or_bad_escape_in_the_url_is_a_400() async throws {
        let calls = Atomic<Int>(0)
        try await withServer(handler: { _ in
            calls.add(1, ordering: .relaxed)
            return .text("ok")
        }) { server, _ in
            for bad in ["/static/a.css%00.png", "/x?q=%00", "/%zz", "/%C3%28", "/x?q=%E2%82"] {
                let status = await rawStatus(port: server.port, target: bad)
                #expect(status == 400, "\(bad)")
            }
            let fine = await rawStatus(port: server.port, target: "/fine")
            #expect(fine == 200)
        }
        #expect(calls.load(ordering: .relaxed) == 1)
    }

    @Test func a_throwing_handler_gives_500_and_the_server_keeps_serving() async throws {
        struct Boom: Error {}
        try await withServer(handler: { request in
            if request.path == "/boom" { throw Boom() }
            return .text("ok")
        }) { _, base in
            let (status, _, body) = try await fetch(try url(base, "/boom")).parts
            #expect(status == 500)
            #expect(!String(decoding: body, as: UTF8.self).contains("Boom"))
            let (after, _, _) = try await fetch(base).parts
            #expect(after == 200)
        }
    }

    @Test func server_generated_errors_use_the_configured_renderer() async throws {
        let configuration = ServerConfiguration(errorResponse: { status, message in
            .html("<p>custom \(status.code)</p>", status: status)
        })
        try await withServer(configuration: configuration, handler: { _ in .text("ok") }) { _, base in
            let (status, headers, body) = try await fetch(base, method: "DELETE").parts
            #expect(status == 405)
            #expect(String(decoding: body, as: UTF8.self) == "<p>custom 405</p>")
            #expect(header("Allow", in: headers) == "GET, HEAD")
        }
    }

    @Test func a_server_made_answer_is_rendered_once_from_the_requests_headers() async throws {
        let rendered = Mutex<[String]>([])
        var configuration = ServerConfiguration(maxTargetBytes: 100)
        // The application's renderer: it, not the server, reads what it needs from the headers.
        configuration.errorResponse = { answer in
            rendered.withLock { $0.append("\(answer.status.code) \(answer.method) \(answer.headers[.acceptLanguage] ?? "-")") }
            return .html("<p>\(answer.headers[.acceptLanguage] ?? "-") \(answer.status.code)</p>", status: answer.status)
        }
        try await withServer(configuration: configuration, handler: { _ in .text("ok") }) { server, _ in
            let malformed = await rawRequest(port: server.port, "/p/%FF", headers: ["Accept-Language": "pl"])
            let long = await rawRequest(port: server.port, "/" + String(repeating: "b", count: 101), headers: ["Accept-Language": "de"])
            let refused = await rawRequest(port: server.port, "/p", method: "DELETE", headers: ["Accept-Language": "pl"])

            #expect(malformed.status == 400)
            #expect(String(decoding: malformed.body, as: UTF8.self) == "<p>pl 400</p>")
            #expect(long.status == 414)
            #expect(String(decoding: long.body, as: UTF8.self) == "<p>de 414</p>")
            #expect(refused.status == 405)
            #expect(refused.header("Allow") == "GET, HEAD")
            #expect(rendered.withLock { $0 } == ["400 GET pl", "414 GET de", "405 DELETE pl"])
        }
    }

    @Test func a_trickle_of_header_lines_cannot_hold_a_connection_past_the_header_deadline() async throws {
        let cut = Atomic<Int>(0)
        var configuration = ServerConfiguration(headerTimeout: .seconds(1))
        configuration.onHeaderDeadline = { cut.add($0, ordering: .relaxed) }
        try await withServer(configuration: configuration, handler: { _ in .text("ok") }) { server, base in
            // A header line every 200 ms keeps libmicrohttpd's inactivity timeout (30 s) from ever
            // firing; the deadline cuts it anyway (1 s, swept once a second). 30 s is only a bound.
            let lines = await rawTrickle(port: server.port, interval: .milliseconds(200), limit: .seconds(30))
            let sent = try #require(lines, "the connection was still open after 30 s of trickling")
            #expect(sent >= 3)
            #expect(cut.load(ordering: .relaxed) >= 1)
            // Everyone else is served as before.
            let (status, _, _) = try await fetch(base).parts
            #expect(status == 200)
        }
    }

    @Test func the_header_deadline_does_not_cut_a_slow_answer_or_an_idle_keep_alive_connection() async throws {
        var configuration = ServerConfiguration(headerTimeout: .seconds(1))
        let cut = Atomic<Int>(0)
        configuration.onHeaderDeadline = { cut.add($0, ordering: .relaxed) }
        try await withServer(
            configuration: configuration,
            handler: { request in
                if request.path == "/slow" { try await Task.sleep(for: .milliseconds(2_500)) }
                return .text("done")
            }
        ) { _, base in
            let session = URLSession(configuration: .ephemeral)
            // Headers arrive at once; the answer takes 2.5 s, longer than the deadline.
            let (slowBody, _) = try await session.data(from: try url(base, "/slow"))
            #expect(String(decoding: slowBody, as: UTF8.self) == "done")
            // The same keep-alive connection, idle 2.5 s (under the 30 s idle timeout), still answers.
            try await Task.sleep(for: .milliseconds(2_500))
            let (againBody, _) = try await session.data(from: base)
            #expect(String(decoding: againBody, as: UTF8.self) == "done")
            #expect(cut.load(ordering: .relaxed) == 0)
        }
    }

    @Test func connections_over_the_per_address_limit_are_refused_counted_and_reported() async throws {
        let reported = Atomic<Int>(0)
        var configuration = ServerConfiguration(perAddressConnectionLimit: 2)
        configuration.onRefusedConnection = { reported.add(1, ordering: .relaxed) }
        try await withServer(configuration: configuration, handler: { _ in .text("ok") }) { server, _ in
            // The kernel completes every handshake; libmicrohttpd keeps two from this address and closes the rest.
            let sockets = (0..<5).compactMap { _ in RawHTTP.openIdle(port: server.port) }
            defer { for socket in sockets { close(socket) } }
            #expect(sockets.count == 5)
            let clock = ContinuousClock()
            let bound = clock.now + .seconds(10)
            while server.refusedConnections < 3 && clock.now < bound { try await Task.sleep(for: .milliseconds(10)) }

            #expect(server.refusedConnections == 3)
            #expect(reported.load(ordering: .relaxed) == 3)
        }
    }

    @Test func one_address_at_its_limit_does_not_keep_another_address_out() async throws {
        let configuration = ServerConfiguration(perAddressConnectionLimit: 3)
        try await withServer(configuration: configuration, handler: { _ in .text("ok") }) { server, _ in
            let held = (0..<3).compactMap { _ in RawHTTP.openIdle(port: server.port, from: "127.0.0.1") }
            defer { for socket in held { close(socket) } }
            #expect(held.count == 3)
            // A fourth connection from 127.0.0.1 is closed unanswered; 127.0.0.2 is served.
            let sameAddress = await rawStatus(port: server.port, target: "/", from: "127.0.0.1")
            let otherAddress = await rawStatus(port: server.port, target: "/", from: "127.0.0.2")
            #expect(sameAddress == nil)
            #expect(otherAddress == 200)
        }
    }

    @Test func a_target_over_max_target_bytes_is_a_414_the_application_finishes() async throws {
        let finished = Mutex<[String]>([])
        var configuration = ServerConfiguration(
            maxTargetBytes: 100,
            errorResponse: { status, message in
                .html("<p>custom \(status.code)</p>", status: status)
            }
        )
        configuration.finishServerAnswer = { response, request in
            response.headers[.xRequestID] = "server-made"
            finished.withLock { $0.append("\(response.status.code) \(request.rawPath)") }
        }
        try await withServer(configuration: configuration, handler: { _ in .text("ok") }) { _, base in
            // 100 bytes of target pass; 101 (long query) do not, nor does a long path.
            let fits = "/p?q=" + String(repeating: "a", count: 95)
            let (fitting, _, _) = try await fetch(try url(base, fits)).parts
            let (longQuery, headers, body) = try await fetch(try url(base, fits + "a")).parts
            let (longPath, _, _) = try await fetch(try url(base, "/" + String(repeating: "b", count: 100))).parts

            #expect(fitting == 200)
            #expect(longQuery == 414)
            #expect(String(decoding: body, as: UTF8.self) == "<p>custom 414</p>")
            #expect(header("X-Request-Id", in: headers) == "server-made")
            #expect(longPath == 414)
            #expect(finished.withLock { $0 } == ["414 /p", "414 /" + String(repeating: "b", count: 100)])
        }
    }

    @Test func stopping_lets_in_flight_requests_finish() async throws {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let entered = Atomic<Int>(0)
        let server = HTTPServer(configuration: ServerConfiguration(), logger: logger) { _ in
            entered.add(1, ordering: .sequentiallyConsistent)
            try await Task.sleep(for: .milliseconds(400))
            return .text("finished")
        }
        try server.start()
        let base = try #require(URL(string: "http://127.0.0.1:\(server.port)"))
        let requests = Task {
            try await withThrowingTaskGroup(of: (Int, String).self) { group in
                for _ in 0..<10 {
                    group.addTask {
                        let (status, _, body) = try await fetch(try url(base, "/work")).parts
                        return (status, String(decoding: body, as: UTF8.self))
                    }
                }
                return try await group.reduce(into: [(Int, String)]()) { $0.append($1) }
            }
        }
        let clock = ContinuousClock()
        let allIn = clock.now + .seconds(10)
        while entered.load(ordering: .sequentiallyConsistent) < 10 && clock.now < allIn {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(entered.load(ordering: .sequentiallyConsistent) == 10)
        await server.stop()
        let results = try await requests.value
        // Every request in flight finished with its own answer, none with the 503 of a grace
        // period run out (no wall-clock bound: house rule).
        #expect(results.count == 10)
        #expect(results.allSatisfy { $0.0 == 200 && $0.1 == "finished" })
        await #expect(throws: (any Error).self) { _ = try await fetch(base).parts }
    }

    @Test func stop_answers_503_to_requests_still_running_after_the_grace_period() async throws {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let entered = Atomic<Int>(0)
        let server = HTTPServer(configuration: ServerConfiguration(), logger: logger) { _ in
            entered.add(1, ordering: .sequentiallyConsistent)
            try? await Task.sleep(for: .seconds(5))
            return .text("late")
        }
        try server.start()
        let base = try #require(URL(string: "http://127.0.0.1:\(server.port)"))
        let request = Task { try await fetch(try url(base, "/stuck")) }
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(10)
        while entered.load(ordering: .sequentiallyConsistent) == 0 && clock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        await server.stop(gracePeriod: .milliseconds(200))
        let (status, _, _) = try await request.value.parts
        #expect(status == 503)
    }

    @Test func a_truncated_response_closes_the_connection_early() async throws {
        try await withServer(handler: { _ in
            var response = Response.text(String(repeating: "x", count: 10_000))
            response.closeAfterBodyBytes = 100
            return response
        }) { _, base in
            await #expect(throws: (any Error).self) { _ = try await fetch(try url(base, "/cut")).parts }
        }
    }

    @Test func a_bad_host_or_busy_port_fails_to_start_with_a_named_error() throws {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let bad = HTTPServer(configuration: ServerConfiguration(host: "not-an-ip"), logger: logger) { _ in .text("") }
        #expect(throws: ServerError.self) { try bad.start() }
    }
}
