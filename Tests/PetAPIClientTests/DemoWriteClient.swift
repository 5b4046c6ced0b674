import DemoUpstream
import Foundation
import Logging
import MicroHTTP
import TestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A demo upstream on a real loopback port, and the write calls the web app makes to it, over
/// URLSession (docs/demo-upstream-writes.md).
struct DemoWriteClient {
    let base: URL

    /// Runs `body` against a fresh demo upstream (optionally with small storage bounds), stopping it whatever happens.
    static func with(_ backend: DemoBackend = DemoBackend(), _ body: (DemoWriteClient) async throws -> Void) async throws {
        let server = try DemoUpstream.start(logger: Logger(label: "demo-write-test"), backend: backend)
        do {
            try await body(DemoWriteClient(base: try #require(URL(string: "http://127.0.0.1:\(server.port)"))))
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    /// A valid report body as (key, raw JSON value) pairs; `changes` replace or add keys (`nil`
    /// values remove them), key order kept.
    static func report(_ changes: [(String, String?)] = []) -> [(String, String)] {
        var fields: [(String, String)] = [
            ("petName", #""Rex""#), ("species", #""DOG""#), ("sex", #""MALE""#), ("locationLatitude", "52.2297"),
            ("locationLongitude", "21.0122"), ("email", #""owner@example.com""#), ("lastSeenDate", #""2025-11-20""#),
            ("status", #""MISSING""#),
        ]
        for (key, value) in changes {
            fields.removeAll { $0.0 == key }
            if let value { fields.append((key, value)) }
        }
        return fields
    }

    /// `fields` as a JSON object in their order (JSONSerialization would reorder them).
    static func json(_ fields: [(String, String)]) -> String {
        "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    /// A string as a JSON literal.
    static func quoted(_ text: String) -> String {
        String(decoding: (try? JSONEncoder().encode(text)) ?? Data(), as: UTF8.self)
    }

    /// Any request with a body.
    func send(_ method: String, _ path: String, body: Data?, headers: [String: String] = [:]) async throws -> Answer {
        var request = URLRequest(url: try url(base, path))
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await TestSessions.plain.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        var lowered: [String: String] = [:]
        for case let (key as String, value as String) in http.allHeaderFields { lowered[key.lowercased()] = value }
        return Answer(status: http.statusCode, headers: lowered, body: data)
    }

    /// `POST /api/v1/announcements` with a JSON text.
    func create(json: String, contentType: String = "application/json") async throws -> Answer {
        try await send("POST", "/api/v1/announcements", body: Data(json.utf8), headers: ["Content-Type": contentType])
    }

    /// `POST /api/v1/announcements` with the valid report changed by `changes`.
    func createReport(_ changes: [(String, String?)]) async throws -> Answer {
        try await create(json: Self.json(Self.report(changes)))
    }

    /// Creates a valid report; its id and management password.
    func createValid(_ changes: [(String, String?)] = []) async throws -> (id: String, password: String) {
        let created = try await create(json: Self.json(Self.report(changes)))
        #expect(created.status == 201)
        let object = try Self.object(created)
        return (try #require(object["id"] as? String), try #require(object["managementPassword"] as? String))
    }

    /// `POST /api/v1/announcements/{id}/photos` with one file part (and HTTP Basic when `password` is given).
    func upload(id: String, password: String?, bytes: [UInt8], field: String = "photo", user: String = "reporter") async throws -> Answer {
        let boundary = "demo-\(UUID().uuidString)"
        var body = Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhello\r\n".utf8)
        body += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(field)\"; filename=\"pet.bin\"\r\n".utf8)
        body += Data("Content-Type: application/octet-stream\r\n\r\n".utf8) + Data(bytes) + Data("\r\n--\(boundary)--\r\n".utf8)
        var headers = ["Content-Type": "multipart/form-data; boundary=\(boundary)"]
        if let password { headers["Authorization"] = "Basic " + Data("\(user):\(password)".utf8).base64EncodedString() }
        return try await send("POST", "/api/v1/announcements/\(id)/photos", body: body, headers: headers)
    }

    /// A GET.
    func get(_ path: String) async throws -> Answer {
        try await send("GET", path, body: nil)
    }

    /// The ids of `GET /api/v1/announcements` (with an optional query).
    func listedIDs(_ query: String = "") async throws -> [String] {
        let list = try Self.object(try await get("/api/v1/announcements" + query))
        return try #require(list["data"] as? [[String: Any]]).compactMap { $0["id"] as? String }
    }

    /// The body as a JSON object.
    static func object(_ fetched: Answer) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: fetched.body) as? [String: Any])
    }

    /// The backend's error body: code, field, message.
    static func error(_ fetched: Answer) throws -> (code: String?, field: String?, message: String?) {
        let error = try #require(try object(fetched)["error"] as? [String: Any])
        return (error["code"] as? String, error["field"] as? String, error["message"] as? String)
    }

    /// Bytes that start like a PNG (the backend reads only the signature), then `count` varied bytes.
    static func png(_ count: Int = 2_000, seed: UInt8 = 7) -> [UInt8] {
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) }
    }
}

/// One answer of the demo upstream.
struct Answer: Sendable {
    let status: Int
    /// Header fields, names lower-cased.
    let headers: [String: String]
    let body: Data

    /// The body as UTF-8 text.
    var text: String { String(decoding: body, as: UTF8.self) }

    /// A header field, by any spelling of its name.
    func header(_ name: String) -> String? { headers[name.lowercased()] }
}
