import Foundation
import HTTPTypes

/// The body of a request, as the server read it: nothing (GET, HEAD), the bytes of a body that is
/// not a form (JSON), or a form parsed by libmicrohttpd's own post processor (`multipart/form-data`
/// and `application/x-www-form-urlencoded`), whose files were streamed to temporary files.
public enum RequestBody: Sendable {
    /// No body (or one the server discarded: a GET with a body).
    case none
    /// A body of another type, whole, within the limit the application gave.
    case bytes([UInt8])
    /// A form: its text fields in order, and its files.
    case form(FormBody)

    /// The form, when the body is one.
    public var form: FormBody? {
        if case .form(let form) = self { return form }
        return nil
    }

    /// The bytes, when the body is not a form.
    public var bytes: [UInt8]? {
        if case .bytes(let bytes) = self { return bytes }
        return nil
    }
}

/// A parsed form body.
public struct FormBody: Sendable {
    /// Text fields in the order sent, repeated names kept (values are decoded as UTF-8; invalid
    /// sequences become U+FFFD).
    public var fields: [(name: String, value: String)]
    /// File parts in the order sent. A file input left empty arrives as a part with an empty file
    /// name and no bytes: it is left out here.
    public var files: [UploadedFile]

    /// Creates a form body (the server makes these; tests and fuzzing may too).
    public init(fields: [(name: String, value: String)] = [], files: [UploadedFile] = []) {
        self.fields = fields
        self.files = files
    }

    /// The first value of the text field `name`.
    public subscript(name: String) -> String? {
        fields.first { $0.name == name }?.value
    }

    /// The first file sent in the field `name`.
    public func file(_ name: String) -> UploadedFile? {
        files.first { $0.fieldName == name }
    }
}

/// One file of a form, streamed to a temporary file as it arrived (never held whole in memory by
/// the server). The file lives as long as some `UploadedFile` for it does: the work that reads it
/// owns it, even past the request's completion (an answer sent at shutdown), and it is deleted once
/// the last copy is gone (`UploadStorage`).
public struct UploadedFile: Sendable {
    /// The form field's name.
    public let fieldName: String
    /// The file name the client gave (not to be trusted for anything but display).
    public let fileName: String
    /// The content type the client gave (not to be trusted: read the type from the bytes).
    public let contentType: String?
    /// Where the bytes are, while this file (or a copy of it) exists.
    public let path: String
    /// The number of bytes.
    public let byteCount: Int
    /// The temporary file's owner; nil for a file described by `init(fieldName:fileName:contentType:path:byteCount:)`.
    private let storage: UploadStorage?

    /// Describes a file someone else owns (tests and fuzzing; the server's own uploads own theirs).
    public init(fieldName: String, fileName: String, contentType: String?, path: String, byteCount: Int) {
        self.fieldName = fieldName
        self.fileName = fileName
        self.contentType = contentType
        self.path = path
        self.byteCount = byteCount
        storage = nil
    }

    /// A file the server received, owned through `storage`.
    init(fieldName: String, fileName: String, contentType: String?, storage: UploadStorage, byteCount: Int) {
        self.fieldName = fieldName
        self.fileName = fileName
        self.contentType = contentType
        self.path = storage.path
        self.byteCount = byteCount
        self.storage = storage
    }

    /// The file's bytes (read from its temporary file); nil when it cannot be read, or could not be
    /// written whole. Waits for the last writes to reach the file: call it where blocking is allowed
    /// (the photo pool), not on a server thread.
    public func read() -> [UInt8]? {
        if let storage, !storage.waitUntilWritten() { return nil }
        return UploadedFile.contents(of: path)
    }
}

/// What the server knows of a request before its body: enough for the application to decide
/// whether to read the body at all (`ServerConfiguration.bodyPolicy`).
public struct RequestHead: Sendable {
    /// The method as sent (any token: the policy answers the ones it does not take with a 405).
    public let method: String
    /// The percent-decoded path (nil when it does not decode).
    public let path: String?
    /// The request's header fields (`Host` is `authority`).
    public let headers: HTTPFields
    /// The `Host` the client sent.
    public let authority: String?
    /// The declared `Content-Length`, when there is one (a chunked body has none).
    public let contentLength: Int?
    /// The peer's IP address as text.
    public let clientAddress: String?
}

/// How much of a body the server reads, and for how long.
public struct BodyLimits: Sendable {
    /// The most bytes of body (as sent, multipart framing included). A larger declared
    /// `Content-Length` is refused before any byte is read; a chunked body that grows past it is
    /// discarded from then on and refused once it ends.
    public var maxBytes: Int
    /// The most bytes of a form's text fields together (files do not count here).
    public var maxFieldBytes: Int
    /// The whole body must arrive within this time from the end of the headers, however slowly
    /// it trickles; past it the connection is cut (like the header deadline).
    public var deadline: Duration

    /// Creates limits.
    public init(maxBytes: Int, maxFieldBytes: Int = 64 * 1024, deadline: Duration = .seconds(120)) {
        self.maxBytes = maxBytes
        self.maxFieldBytes = maxFieldBytes
        self.deadline = deadline
    }
}

/// The application's answer for a request that may carry a body.
public enum BodyDecision: Sendable {
    /// Answer at once, without reading the body (405, 403, 413, 415…); the connection is closed
    /// after the answer, since its body was not read.
    case refuse(Response)
    /// Read the body within these limits, then call the handler with it; `decided` is what the
    /// policy found from the head (a route, a request id), handed to the handler as `Request.decided`
    /// so that nothing is worked out twice.
    case accept(BodyLimits, decided: (any Sendable)? = nil)
}

/// Why a body was not handed over whole; the server answers these itself (through the
/// configuration's `bodyRefusal`), without calling the handler.
public enum BodyProblem: Error, Sendable, Equatable {
    /// More bytes than `BodyLimits.maxBytes` (or the form's fields past `maxFieldBytes`).
    case tooLarge
    /// A form body libmicrohttpd's post processor could not parse to its end.
    case malformed
    /// A temporary file could not be written.
    case storageFailed
}
