import DemoUpstream
import Foundation
import Logging
import MicroHTTP
import TestSupport
import Testing
import WebApp

/// A report form as a browser fills it: every required field valid, phone given, a photo.
struct ReportForm {
    var values: [String: String] = [
        "status": "MISSING", "species": "DOG", "sex": "MALE", "petName": "Burek", "breed": "Mongrel", "age": "3",
        "description": "Black with a white chest.", "lastSeenDate": "2025-11-20",
        "locationLatitude": "52.2297", "locationLongitude": "21.0122", "phone": "+48 600 100 200", "email": "", "reward": "",
        "microchipNumber": "",
    ]
    var photo: [UInt8]?
    var photoName = "dog.jpg"
    /// Hidden fields the page carries: submission and kept photo references.
    var hidden: [String: String] = [:]

    /// The multipart body (field order as the page's).
    var multipart: Multipart {
        var form = Multipart()
        for (name, value) in hidden.sorted(by: { $0.key < $1.key }) { form.field(name, value) }
        for (name, value) in values.sorted(by: { $0.key < $1.key }) { form.field(name, value) }
        form.file("photo", fileName: photo == nil ? "" : photoName, contentType: "image/jpeg", bytes: photo ?? [])
        return form
    }
}

extension TestApp {
    /// POSTs `form` to `/report` (from our own origin, as a browser would say).
    func submit(_ form: ReportForm, path: String = "/report", headers: [String: String] = [:]) async throws -> Fetched {
        let body = form.multipart
        var all = ["Origin": base.absoluteString.hasSuffix("/") ? String(base.absoluteString.dropLast()) : base.absoluteString]
        all.merge(headers) { $1 }
        return try await post(try url(path), body: body.body, contentType: body.contentType, headers: all)
    }
}

/// The value of `<input … name="NAME" value="…">` in a page (our templates write `name` before `value`).
func inputValue(_ html: String, name: String) -> String? {
    guard let start = html.range(of: "name=\"\(name)\"") else { return nil }
    let rest = html[start.upperBound...]
    guard let tagEnd = rest.firstIndex(of: ">"), let value = rest[..<tagEnd].range(of: "value=\"") else { return nil }
    let after = rest[value.upperBound...]
    guard let close = after.firstIndex(of: "\"") else { return nil }
    return String(after[..<close])
}

/// The `data-field` of every field error on a page.
func fieldErrors(_ html: String) -> [String] {
    html.components(separatedBy: "data-testid=\"field-error\" data-field=\"").dropFirst()
        .compactMap { $0.split(separator: "\"").first.map(String.init) }
}

/// The text of the element with `data-testid="management-password"`.
func managementCode(_ html: String) -> String? {
    guard let start = html.range(of: "data-testid=\"management-password\"") else { return nil }
    let rest = html[start.upperBound...]
    guard let open = rest.firstIndex(of: ">"), let close = rest.range(of: "</output>") else { return nil }
    return String(rest[rest.index(after: open)..<close.lowerBound])
}

/// The `data-pet-id` of the result page.
func resultPetID(_ html: String) -> String? {
    guard let start = html.range(of: "data-testid=\"report-result\" data-pet-id=\"") else { return nil }
    return html[start.upperBound...].split(separator: "\"").first.map(String.init)
}

/// A created announcement as the backend answers a create (all keys; `photoUrl` null).
func createdBody(id: String, password: String = "123456") -> String {
    #"{"id":"\#(id)","petName":"Burek","species":"DOG","breed":null,"sex":"MALE","age":3,"description":null,"#
        + #""microchipNumber":null,"locationLatitude":52.2297,"locationLongitude":21.0122,"email":null,"phone":"600100200","#
        + #""photoUrl":null,"status":"MISSING","reward":null,"lastSeenDate":"2025-11-20","#
        + #""createdAt":"2025-11-21T10:00:00.000Z","updatedAt":"2025-11-21T10:00:00.000Z","managementPassword":"\#(password)"}"#
}
