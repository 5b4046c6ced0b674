import Foundation
import HTTPTypes
import MicroHTTP
import TestSupport
import Testing

@testable import WebApp

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Errors as one value written by one renderer (docs/architecture.md "Errors"): the route's format
/// decides page or JSON, the server's own answers are written once in the visitor's language, and
/// every error carries the renderer's `Cache-Control` and nothing else's.
@Suite("Errors written by one renderer")
struct ErrorRenderingTests {
    /// The `lang` of the page's `<html>`.
    private static func htmlLang(_ html: String) -> String? {
        PageHTML.captures(#"<html lang="([a-z]+)">"#, in: html).first
    }

    /// The API's error body: code, message, requestId, field.
    private static func apiError(_ body: some Sequence<UInt8>) throws -> [String: String] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(Array(body))) as? [String: Any])
        let error = try #require(object["error"] as? [String: Any])
        return error.compactMapValues { $0 as? String }
    }

    @Test func one_error_value_is_a_page_or_the_api_json_by_the_format_alone() async throws {
        try await withApp { app in
            let errors = app.app.pipeline.router.errors
            var error = HTTPError(
                503,
                .errorMethod,
                ("method", "BREW"),
                api: .init(code: "SERVICE_BUSY", message: "Busy brewing.", field: "pot")
            )
            error.retryAfter = 7
            let request = Request(path: "/pets", headers: [.acceptLanguage: "pl"])

            let page = errors.response(error, format: .page, for: request, requestID: "req-1")
            let html = String(decoding: page.body, as: UTF8.self)
            #expect(page.status == 503)
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            #expect(page.headers[.contentLanguage] == "pl")
            #expect(Self.htmlLang(html) == "pl")
            #expect(html.contains("Metoda BREW jest niedozwolona."))
            #expect(!html.contains("Busy brewing."))

            let json = errors.response(error, format: .api, for: request, requestID: "req-1")
            let body = try Self.apiError(json.body)
            #expect(json.status == 503)
            #expect(json.headers[.contentType] == "application/json; charset=utf-8")
            #expect(json.headers[.contentLanguage] == nil)
            #expect(body == ["code": "SERVICE_BUSY", "message": "Busy brewing.", "requestId": "req-1", "field": "pot"])

            for response in [page, json] {
                #expect(response.headers[.retryAfter] == "7")
                #expect(response.headers[values: .cacheControl] == ["no-store"])
                #expect(response.headers[.xFrameOptions] == "DENY")
            }
        }
    }

    @Test func a_bad_parameter_is_a_page_on_a_page_route_and_json_on_an_api_route() async throws {
        try await withApp { app in
            let page = try await app.get("/pets?lat=95&lng=0", headers: ["Accept-Language": "pl"])
            #expect(page.status == 400)
            #expect(page.header("Content-Type") == "text/html; charset=utf-8")
            #expect(page.text.contains("Parametr „lat” jest nieprawidłowy: lat musi być liczbą od -90 do 90."))

            let api = try await app.get("/api/v1/announcements?lat=95&lng=0", headers: ["Accept-Language": "pl"])
            let body = try Self.apiError(api.body)
            #expect(api.status == 400)
            #expect(api.header("Content-Type") == "application/json; charset=utf-8")
            #expect(body["code"] == "INVALID_PARAMETER")
            #expect(body["field"] == "lat")
            #expect(body["message"] == "lat must be a number from -90 to 90.")
            #expect(body["requestId"] == api.header("X-Request-Id"))
        }
    }

    @Test func the_route_tables_405_is_json_on_the_api_and_a_page_elsewhere() async throws {
        try await withApp { app in
            // The photo upload takes POST only: its GET is refused by the router, in the API's form.
            let api = try await app.get("/api/v1/announcements/p-1/photos")
            #expect(api.status == 405)
            #expect(api.header("Allow") == "POST")
            #expect(try Self.apiError(api.body)["code"] == "METHOD_NOT_ALLOWED")
            #expect(api.header("Cache-Control") == "no-store")

            let page = try await app.get("/pets", method: "DELETE", headers: ["Accept-Language": "pl"])
            #expect(page.status == 405)
            #expect(page.header("Allow") == "GET, HEAD")
            #expect(page.text.contains("Metoda DELETE jest niedozwolona."))
            #expect(page.header("Cache-Control") == "no-store")
        }
    }

    @Test func a_malformed_url_is_answered_once_in_the_language_its_headers_ask_for() async throws {
        try await withApp { app in
            let polish = await rawRequest(port: app.app.port, "/pets/%FF%FE", headers: ["Accept-Language": "pl-PL,pl;q=0.9"])
            let html = String(decoding: polish.body, as: UTF8.self)
            #expect(polish.status == 400)
            #expect(Self.htmlLang(html) == "pl")
            #expect(html.contains("Adres żądania jest nieprawidłowy."))
            #expect(html.components(separatedBy: "<html").count == 2)
            // One renderer wrote it: one of each header, not a page written over another.
            #expect(polish.header("Cache-Control") == "no-store")
            #expect(polish.header("Content-Language") == "pl")
            #expect(polish.header("Content-Length") == String(polish.body.count))
            let requestID = try #require(polish.header("X-Request-Id"))
            #expect(!requestID.contains(","))

            let api = await rawRequest(port: app.app.port, "/api/v1/announcements/%FF", headers: ["Accept-Language": "pl"])
            let body = try Self.apiError(api.body)
            #expect(api.status == 400)
            #expect(body["code"] == "INVALID_REQUEST")
            #expect(body["requestId"] == api.header("X-Request-Id"))
            #expect(api.header("Cache-Control") == "no-store")
        }
    }

    @Test func a_body_too_large_is_refused_in_polish_before_it_is_read() async throws {
        try await withApp { app in
            let headers = [
                "Content-Type": "multipart/form-data; boundary=b",
                "Content-Length": "40000000",
                "Accept-Language": "pl",
            ]
            let page = await rawRequest(port: app.app.port, "/report", method: "POST", headers: headers)
            let html = String(decoding: page.body, as: UTF8.self)
            #expect(page.status == 413)
            #expect(Self.htmlLang(html) == "pl")
            #expect(html.contains("Przesyłany plik jest za duży"))
            #expect(page.header("Cache-Control") == "no-store")
            #expect(!(page.header("X-Request-Id") ?? ",").contains(","))

            let api = await rawRequest(port: app.app.port, "/api/v1/announcements", method: "POST", headers: headers)
            let body = try Self.apiError(api.body)
            #expect(api.status == 413)
            #expect(body["code"] == "PAYLOAD_TOO_LARGE")
            #expect(body["requestId"] == api.header("X-Request-Id"))
            #expect(api.header("Cache-Control") == "no-store")
        }
    }

    @Test(arguments: [
        "/nowhere", "/pets?page=9", "/pets?lat=95&lng=0", "/images/pets/a.jpg?w=13", "/static/none.css",
        "/api/v1/announcements?lat=95&lng=0", "/api/v1/announcements/p-1/photos",
    ])
    func every_error_carries_the_renderers_cache_control_and_no_other(target: String) async throws {
        try await withApp { app in
            // Raw, so that two `Cache-Control` fields would show joined, not one hiding the other.
            let reply = await rawRequest(port: app.app.port, target)
            #expect(reply.status >= 400)
            #expect(reply.header("Cache-Control") == "no-store")
            #expect(reply.header("ETag") == nil)
        }
    }
}
