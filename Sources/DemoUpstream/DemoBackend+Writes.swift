import Foundation
import HTTPTypes
import MicroHTTP

/// The backend's write API (docs/upstream.md §6, docs/demo-upstream-writes.md): `POST /api/v1/announcements`
/// (JSON) and `POST /api/v1/announcements/{id}/photos` (multipart, HTTP Basic), in memory.
extension DemoBackend {
    /// express.json's `limit: '100kb'`.
    static let maxJSONBytes = 100 * 1024
    /// multer's `fileSize` limit for the photo.
    static let maxPhotoBytes = 20 * 1024 * 1024

    /// The write routes a path names.
    enum WriteRoute: Equatable {
        case create
        case photo(id: String)
    }

    /// The write route of a path (one trailing slash allowed, as Express routes).
    static func writeRoute(_ rawPath: String) -> WriteRoute? {
        var path = rawPath
        if path.count > 1, path.hasSuffix("/") { path.removeLast() }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        guard parts.count >= 3, parts[0...2] == ["api", "v1", "announcements"] else { return nil }
        if parts.count == 3 { return .create }
        if parts.count == 5, parts[4] == "photos", !parts[3].isEmpty { return .photo(id: parts[3]) }
        return nil
    }

    /// Decides from the head whether to read a body: JSON for a new announcement (100 KB), a form
    /// for a photo once its credentials hold (the backend checks them before multer reads a byte).
    /// Everything else is answered at once, as Express's router and error handler would.
    public func bodyPolicy(_ head: RequestHead) -> BodyDecision {
        let requestID = BackendConventions.newRequestID()
        if head.method == "OPTIONS" { return .refuse(Self.preflight(head)) }
        guard head.method == "POST", let path = head.path, let route = Self.writeRoute(path) else {
            return .refuse(Self.failure(WriteError(status: 404, code: "NOT_FOUND", message: "Resource not found"), requestID))
        }
        switch route {
        case .create:
            let type = head.headers[.contentType]?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            // body-parser leaves other types unread: the schema then sees `undefined`.
            guard type == "application/json" else {
                return .refuse(Self.failure(WriteError(code: "MISSING_VALUE", message: "Required"), requestID))
            }
            return .accept(BodyLimits(maxBytes: Self.maxJSONBytes))
        case .photo(let id):
            hooks?.photoRequest()
            if let refusal = authorize(id: id, authorization: head.headers[.authorization]) {
                return .refuse(Self.failure(refusal, requestID))
            }
            // Room for the multipart framing and a few text fields around a 20 MB file; multer lets
            // text fields reach 1 MB (its `fieldSize`), so the form's fields may too.
            return .accept(BodyLimits(maxBytes: Self.maxPhotoBytes + 1024 * 1024, maxFieldBytes: 1024 * 1024))
        }
    }

    /// The answer to a body that could not be read: Express's 413 (its message names 100KB for
    /// both routes), or a 500 for a form busboy could not parse.
    public static func bodyRefusal(_ problem: BodyProblem, _ head: RequestHead) -> Response {
        refusal(for: problem)
    }

    /// The answer to `problem`, whatever the request.
    static func refusal(for problem: BodyProblem) -> Response {
        let error =
            switch problem {
            case .tooLarge: WriteError(status: 413, code: "PAYLOAD_TOO_LARGE", message: "Request payload exceeds maximum size limit (100KB)")
            case .malformed, .storageFailed: WriteError(status: 500, code: "INTERNAL_SERVER_ERROR", message: "Internal server error")
            }
        return failure(error, BackendConventions.newRequestID())
    }

    /// A POST whose body was read.
    func write(_ request: Request, requestID: String) -> Response {
        switch Self.writeRoute(request.path) {
        case .create: create(request, requestID: requestID)
        case .photo(let id): photo(request, id: id, requestID: requestID)
        case nil: Self.failure(WriteError(status: 404, code: "NOT_FOUND", message: "Resource not found"), requestID)
        }
    }

    /// `POST /api/v1/announcements`.
    private func create(_ request: Request, requestID: String) -> Response {
        let bytes = request.body.bytes ?? []
        var parsed: DemoJSON?
        if !bytes.isEmpty {
            // body-parser's strict mode takes only objects and arrays; its SyntaxError becomes a 500.
            let first = bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
            guard first == UInt8(ascii: "{") || first == UInt8(ascii: "["), let json = DemoJSON.parse(bytes) else {
                return Self.failure(WriteError(status: 500, code: "INTERNAL_SERVER_ERROR", message: "Internal server error"), requestID)
            }
            parsed = json
        } else if request.body.bytes != nil {
            parsed = .object([])  // body-parser reads an empty JSON body as {}
        }
        let fields: NewAnnouncement
        switch DemoWriteValidation.validate(parsed) {
        case .success(let valid): fields = valid
        case .failure(let error): return Self.failure(error, requestID)
        }
        let now = Self.isoTimestamp(Date())
        let row = DemoRow(
            id: UUID().uuidString.lowercased(),
            petName: fields.petName,
            species: fields.species,
            breed: fields.breed,
            sex: fields.sex,
            age: fields.age.map { Int(exactly: $0) ?? Int.max },
            description: fields.description,
            microchipNumber: fields.microchipNumber,
            latitude: fields.latitude,
            longitude: fields.longitude,
            lastSeenDate: fields.lastSeenDate,
            email: fields.email,
            phone: fields.phone,
            photoUrl: nil,
            status: fields.status,
            reward: fields.reward,
            createdAt: now,
            updatedAt: now
        )
        let password = ManagementPassword.generate()
        guard store.insert(row, password: ManagementPassword(hashing: password)) else {
            let conflict = WriteError(status: 409, code: "CONFLICT", message: "An entity with this value already exists", field: "microchipNumber")
            return Self.failure(conflict, requestID)
        }
        let body = String(row.json.dropLast()) + #","managementPassword":"\#(password)"}"#
        return BackendConventions.json(body, status: .created, requestID: requestID, for: nil)
    }

    /// `POST /api/v1/announcements/{id}/photos`, in the order of the backend's middlewares.
    private func photo(_ request: Request, id: String, requestID: String) -> Response {
        if let refusal = authorize(id: id, authorization: request.headers[.authorization]) {
            return Self.failure(refusal, requestID)
        }
        let files = (request.body.form?.files ?? []).filter { !$0.fileName.isEmpty }  // multer skips nameless files
        let photos = files.filter { $0.fieldName == "photo" }
        // multer's "Unexpected field" (another name, or a second photo) ends in the error handler's 500.
        guard photos.count == files.count, photos.count <= 1 else {
            return Self.failure(WriteError(status: 500, code: "INTERNAL_SERVER_ERROR", message: "Internal server error"), requestID)
        }
        guard let file = photos.first else {
            return Self.failure(WriteError(code: "MISSING_FILE", message: "Photo field is required", field: "photo"), requestID)
        }
        guard file.byteCount <= Self.maxPhotoBytes else { return Self.refusal(for: .tooLarge) }
        guard let bytes = file.read(), let type = ImageSignature.detect(bytes) else {
            let message = "File is not a valid image format (JPEG, PNG, GIF, WebP, BMP, TIFF, HEIC, HEIF)"
            return Self.failure(WriteError(code: "INVALID_FILE_FORMAT", message: message, field: "file"), requestID)
        }
        guard store.setPhoto(id: id, DemoStore.Photo(bytes: bytes, type: type), updatedAt: Self.isoTimestamp(Date())) else {
            return Self.failure(WriteError(status: 404, code: "NOT_FOUND", message: "Announcement with ID \(id) not found"), requestID)
        }
        return BackendConventions.json("{}", status: .created, requestID: requestID, for: nil)
    }

    /// The backend's error body for `error`, with its headers.
    static func failure(_ error: WriteError, _ requestID: String) -> Response {
        BackendConventions.error(
            status: error.status,
            code: error.code,
            message: error.message,
            field: error.field,
            requestID: requestID,
            for: nil
        )
    }

    /// `new Date().toISOString()`: UTC with milliseconds and `Z`.
    static func isoTimestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt))
    }
}
