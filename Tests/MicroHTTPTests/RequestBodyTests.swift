import Foundation
import HTTPTypes
import MicroHTTP
import TestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Request bodies: the application's policy decides from the head; forms are parsed by
/// libmicrohttpd's post processor, files streamed to temporary files.
@Suite struct RequestBodyTests {
    /// A server that accepts bodies up to `maxBytes` on `/upload` and echoes what it read.
    private func configuration(maxBytes: Int = 1024 * 1024, maxFieldBytes: Int = 64 * 1024) -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.bodyPolicy = { head in
            guard head.method == "POST", head.path == "/upload" else {
                var refusal = Response.text("no\n", status: 405)
                refusal.headers[.allow] = "GET, HEAD"
                return .refuse(refusal)
            }
            return .accept(BodyLimits(maxBytes: maxBytes, maxFieldBytes: maxFieldBytes))
        }
        return configuration
    }

    /// Writes what the handler saw: each field as `name=value`, each file as `file:name:fileName:count:firstByte`.
    private let echo: AsyncHandler = { request in
        switch request.body {
        case .none: return .text("none\n")
        case .bytes(let bytes): return .text("bytes:\(bytes.count):\(String(decoding: bytes, as: UTF8.self))\n")
        case .form(let form):
            var lines = form.fields.map { "\($0.name)=\($0.value)" }
            for file in form.files {
                let bytes = file.read() ?? []
                lines.append("file:\(file.fieldName):\(file.fileName):\(file.byteCount):\(bytes.first.map(String.init) ?? "-")")
                lines.append("exists:\(FileManager.default.fileExists(atPath: file.path))")
            }
            return .text(lines.joined(separator: "\n") + "\n")
        }
    }

    @Test func multipart_fields_and_a_file_reach_the_handler_whole() async throws {
        try await withServer(configuration: configuration(), handler: echo) { _, base in
            var form = Multipart()
            form.field("petName", "Burek \"the dog\" <b>")
            form.field("description", "Zażółć gęślą jaźń\nline two")
            let photo = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
            form.file("photo", fileName: "dog.jpg", contentType: "image/jpeg", bytes: photo)
            let answer = try await post(url(base, "/upload"), body: form.body, contentType: form.contentType)
            #expect(answer.status == 200)
            #expect(answer.text.contains("petName=Burek \"the dog\" <b>\n"))
            #expect(answer.text.contains("description=Zażółć gęślą jaźń\nline two\n"))
            #expect(answer.text.contains("file:photo:dog.jpg:300000:3\n"))
            #expect(answer.text.contains("exists:true"))
        }
    }

    @Test func an_empty_file_input_is_left_out_of_the_files() async throws {
        try await withServer(configuration: configuration(), handler: echo) { _, base in
            var form = Multipart()
            form.field("a", "1")
            form.file("photo", fileName: "", bytes: [])
            let answer = try await post(url(base, "/upload"), body: form.body, contentType: form.contentType)
            #expect(answer.status == 200)
            #expect(answer.text == "a=1\n")
        }
    }

    @Test func urlencoded_forms_are_decoded_by_the_post_processor() async throws {
        try await withServer(configuration: configuration(), handler: echo) { _, base in
            let body = Data("name=Z%C5%82ota+Rybka&empty=&sign=%2B1".utf8)
            let answer = try await post(url(base, "/upload"), body: body, contentType: "application/x-www-form-urlencoded")
            #expect(answer.status == 200)
            #expect(answer.text.contains("name=Złota Rybka\n"))
            #expect(answer.text.contains("sign=+1\n"))
        }
    }

    @Test func other_bodies_arrive_as_bytes() async throws {
        try await withServer(configuration: configuration(), handler: echo) { _, base in
            let answer = try await post(url(base, "/upload"), body: Data("{\"a\":1}".utf8), contentType: "application/json")
            #expect(answer.text == "bytes:7:{\"a\":1}\n")
        }
    }

    @Test func a_declared_length_over_the_limit_is_refused_before_the_body_is_read() async throws {
        try await withServer(configuration: configuration(maxBytes: 1000), handler: echo) { server, _ in
            // Only the head is sent: the 413 must come without the body.
            let reply = await rawSend(
                port: server.port,
                text: "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 5000000\r\n\r\n"
            )
            #expect(reply.hasPrefix("HTTP/1.1 413"))
            #expect(reply.lowercased().contains("connection: close"))
        }
    }

    @Test func a_chunked_body_growing_past_the_limit_is_refused() async throws {
        try await withServer(configuration: configuration(maxBytes: 1000), handler: echo) { server, _ in
            let chunk = String(repeating: "x", count: 800)
            let hex = String(chunk.utf8.count, radix: 16)
            let reply = await rawSend(
                port: server.port,
                text: "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\n\(hex)\r\n\(chunk)\r\n\(hex)\r\n\(chunk)\r\n0\r\n\r\n"
            )
            #expect(reply.hasPrefix("HTTP/1.1 413"))
        }
    }

    @Test func form_fields_past_their_own_limit_are_refused() async throws {
        try await withServer(configuration: configuration(maxFieldBytes: 100), handler: echo) { _, base in
            var form = Multipart()
            form.field("description", String(repeating: "a", count: 500))
            let answer = try await post(url(base, "/upload"), body: form.body, contentType: form.contentType)
            #expect(answer.status == 413)
        }
    }

    @Test func a_cut_multipart_body_is_a_400() async throws {
        try await withServer(configuration: configuration(), handler: echo) { _, base in
            let body = Data("--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nvalue".utf8)
            let answer = try await post(url(base, "/upload"), body: body, contentType: "multipart/form-data; boundary=b")
            #expect(answer.status == 400)
        }
    }

    /// RFC 2046 §5.1.1: bytes after the close delimiter are an epilogue, to be ignored. libmicrohttpd's
    /// post processor refused them; swift-openapi-runtime ends every multipart body with a CRLF there
    /// (found by the API's generated client, docs/openapi.md).
    @Test(arguments: ["", "\r\n", "\r\nan epilogue\r\n"])
    func a_multipart_body_with_an_epilogue_is_read(epilogue: String) async throws {
        try await withServer(configuration: configuration(), handler: echo) { _, base in
            let photo = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
            var body = Data("--b0undary\r\ncontent-disposition: form-data; filename=\"cat.jpg\"; name=\"photo\"\r\n".utf8)
            body += Data("content-length: \(photo.count)\r\ncontent-type: application/octet-stream\r\n\r\n".utf8) + Data(photo)
            body += Data("\r\n--b0undary--\(epilogue)".utf8)
            let answer = try await post(url(base, "/upload"), body: body, contentType: "multipart/form-data; boundary=b0undary")
            #expect(answer.status == 200, "\(answer.text)")
            #expect(answer.text.contains("file:photo:cat.jpg:100000:3\n"))
        }
    }

    @Test func the_policy_refuses_other_paths_and_methods_without_reading() async throws {
        try await withServer(configuration: configuration(), handler: echo) { _, base in
            let answer = try await post(url(base, "/elsewhere"), body: Data("x".utf8), contentType: "text/plain")
            #expect(answer.status == 405)
            #expect(answer.header("allow") == "GET, HEAD")
        }
    }

    @Test func without_a_policy_every_post_is_a_405() async throws {
        try await withServer(handler: echo) { _, base in
            let answer = try await post(url(base, "/upload"), body: Data("x".utf8), contentType: "text/plain")
            #expect(answer.status == 405)
        }
    }

    @Test func uploaded_files_are_deleted_once_the_request_completes() async throws {
        let paths = PathBox()
        let remember: AsyncHandler = { request in
            paths.add(request.body.form?.files.map(\.path) ?? [])
            return .text("ok\n")
        }
        try await withServer(configuration: configuration(), handler: remember) { _, base in
            var form = Multipart()
            form.file("photo", fileName: "a.bin", bytes: Array(repeating: 1, count: 4096))
            let answer = try await post(url(base, "/upload"), body: form.body, contentType: form.contentType)
            #expect(answer.status == 200)
            let seen = paths.all
            #expect(seen.count == 1)
            // The completion notice follows the answer: wait for it (bounded), then check.
            for _ in 0..<200 where seen.contains(where: { FileManager.default.fileExists(atPath: $0) }) {
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(!seen.contains { FileManager.default.fileExists(atPath: $0) })
        }
    }
}

extension RequestBodyTests {
    /// At shutdown the server answers a request still running with a 503 and completes it; the
    /// handler's work goes on and must still find its upload: the file belongs to that work.
    @Test func an_upload_outlives_its_request_while_its_work_still_reads_it() async throws {
        let (arrivals, arrival) = AsyncStream.makeStream(of: Void.self)
        let (openings, opening) = AsyncStream.makeStream(of: Void.self)
        let (readings, reading) = AsyncStream.makeStream(of: (path: String, bytes: [UInt8]?).self)
        let slow: AsyncHandler = { request in
            arrival.yield()
            for await _ in openings { break }
            let file = request.body.form?.file("photo")
            reading.yield((path: file?.path ?? "", bytes: file?.read()))
            return .text("too late\n")
        }
        let photo = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) }
        try await withServer(configuration: configuration(), handler: slow) { server, base in
            var form = Multipart()
            form.file("photo", fileName: "dog.jpg", contentType: "image/jpeg", bytes: photo)
            let upload = try url(base, "/upload")
            let client = Task { try? await post(upload, body: form.body, contentType: form.contentType) }
            for await _ in arrivals { break }
            // No grace: the running request is answered 503 and completed before `stop` returns.
            await server.stop(gracePeriod: .zero)
            #expect(await client.value?.status == 503)
            opening.yield()
            var iterator = readings.makeAsyncIterator()
            let read = try #require(await iterator.next())
            // A Bool, so a failure prints a line rather than 200,000 bytes.
            let readWhole = read.bytes == photo
            #expect(read.bytes != nil, "the upload was deleted while its work still read it")
            #expect(readWhole)
            // The work is over: the file goes with it (the deletion is queued: wait for it, bounded).
            for _ in 0..<200 where FileManager.default.fileExists(atPath: read.path) {
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(!FileManager.default.fileExists(atPath: read.path))
        }
    }
}

/// Paths seen by a handler, for a test to look at after the request.
private final class PathBox: @unchecked Sendable {
    private let lock = NSLock()
    private var paths: [String] = []
    func add(_ more: [String]) {
        lock.lock()
        paths += more
        lock.unlock()
    }
    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return paths
    }
}

extension RequestBodyTests {
    @Test func a_body_that_trickles_past_its_deadline_is_cut() async throws {
        var configuration = ServerConfiguration(headerTimeout: .seconds(5))
        configuration.bodyPolicy = { _ in .accept(BodyLimits(maxBytes: 1_000_000, deadline: .seconds(1))) }
        try await withServer(configuration: configuration, handler: { _ in .text("ok\n") }) { server, _ in
            // Headers and 10 of the 1,000 promised bytes, then a byte now and then: the body's
            // deadline is absolute, so the server cuts the connection (bounded wait, no timing asserted).
            let cut = await Task.detached {
                RawHTTP.trickleBody(
                    port: server.port,
                    head: "POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n",
                    interval: .milliseconds(300),
                    limit: .seconds(20)
                )
            }.value
            #expect(cut, "the connection was still open when the test gave up")
        }
    }
}
