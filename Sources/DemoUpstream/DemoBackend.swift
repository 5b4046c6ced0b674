import Foundation
import HTTPTypes
import MicroHTTP

/// The embedded demo upstream: the built-in data set served with the real backend's routes,
/// shapes and quirks (docs/upstream.md §1, §5). A pure function of the request, so it can be tested
/// without sockets; `DemoUpstream.start` puts it behind a real HTTP server. Announcements created
/// through the write API (`DemoBackend+Writes.swift`) live in a bounded `DemoStore` after the data set.
public struct DemoBackend: Sendable {
    /// The data set, in insertion order.
    let rows: [DemoRow]
    /// Announcements created through the write API, shared by every copy of this backend.
    let store: DemoStore
    /// Placeholder files by name (the part after `/images/`), built from the rows' photo URLs.
    private let images: [String: [UInt8]]
    /// Test hooks (`demo-upstream --test-hooks`), nil everywhere else (DemoTestHooks.swift).
    let hooks: DemoTestHooks?

    /// Creates the backend over the built-in data set, with room for `maxAnnouncements` created
    /// announcements and `maxPhotoBytes` of their photos (docs/demo-upstream-writes.md).
    /// `hooks`, only for multi-replica tests, add the `/__demo/` paths and a delay before creates.
    public init(maxAnnouncements: Int = 500, maxPhotoBytes: Int = 200 * 1024 * 1024, hooks: DemoTestHooks? = nil) {
        self.rows = DemoData.rows
        self.hooks = hooks
        let limits = DemoStore.Limits(maxAnnouncements: maxAnnouncements, maxPhotoBytes: maxPhotoBytes)
        self.store = DemoStore(limits: limits, seededMicrochips: Set(DemoData.rows.compactMap(\.microchipNumber)))
        var images: [String: [UInt8]] = [:]
        for row in rows {
            guard let file = row.photoUrl.flatMap(Self.imageFileName), file.hasSuffix(".svg") else { continue }
            images[file] = Array(PlaceholderImages.svg(forSpecies: row.species).utf8)
        }
        self.images = images
    }

    /// Answers one request the way the backend would.
    public func handle(_ request: Request) async -> Response {
        let requestID = BackendConventions.newRequestID()
        // Express routing is not strict about one trailing slash.
        var path = request.path
        if path.count > 1, path.hasSuffix("/") { path.removeLast() }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        // Only a POST whose body the policy accepted gets here with another method than GET/HEAD.
        if request.method == .post {
            guard let hooks, Self.writeRoute(request.path) == .create else { return write(request, requestID: requestID) }
            await hooks.beforeCreate()
            let response = write(request, requestID: requestID)
            hooks.afterCreate(status: response.status.code)
            return response
        }
        if let hooks, path.hasPrefix("/__demo/"), let answer = hooks.answer(path: path, query: request.query) { return answer }

        switch Array(segments) {
        case ["api", "health"]:
            return health(requestID: requestID, request: request)
        case ["api", "v1", "announcements"]:
            return list(requestID: requestID, request: request)
        case let parts where parts.count == 4 && parts.starts(with: ["api", "v1", "announcements"]):
            return details(id: String(parts[3]), requestID: requestID, request: request)
        case let parts where parts.count == 2 && parts[0] == "images":
            return image(file: String(parts[1]), requestID: requestID, request: request)
        default:
            return notFound(message: "Resource not found", requestID: requestID, request: request)
        }
    }

    /// `GET /api/v1/announcements`: `{"data":[…]}`, insertion order, photo-less rows left out.
    private func list(requestID: String, request: Request) -> Response {
        let location: LocationQuery?
        do {
            location = try LocationQuery.parse(request.query)
        } catch {
            return BackendConventions.error(
                status: 400,
                code: "INVALID_PARAMETER",
                message: error.message,
                field: error.field,
                requestID: requestID,
                for: request
            )
        }
        let items = (rows + store.listedRows())
            .filter { $0.photoUrl != nil }
            .filter { location?.contains($0) ?? true }
            .map(\.json)
        let body = JSONText.object([("data", .raw(JSONText.array(items)))])
        return BackendConventions.json(body, requestID: requestID, for: request)
    }

    /// `GET /api/v1/announcements/{id}`: the bare object; with a duplicated id the first row wins,
    /// as a database lookup would return the earliest row.
    private func details(id: String, requestID: String, request: Request) -> Response {
        guard let row = rows.first(where: { $0.id == id }) ?? store.row(id: id) else {
            return notFound(message: "Announcement not found", requestID: requestID, request: request)
        }
        return BackendConventions.json(row.json, requestID: requestID, for: request)
    }

    /// `GET /images/{file}`: the placeholder picture, or the backend's JSON 404.
    private func image(file: String, requestID: String, request: Request) -> Response {
        let uploaded = store.photo(file: file)
        guard let bytes = images[file] ?? uploaded?.bytes else {
            return notFound(message: "Resource not found", requestID: requestID, request: request)
        }
        let contentType = uploaded?.type.mimeType ?? PlaceholderImages.contentType
        // Static files get a validator too (Express's serve-static does), so proxies can revalidate.
        let etag = BackendConventions.weakETag(for: bytes)
        var response = Response(status: 200, headers: [.contentType: contentType], body: bytes)
        response.headers[.eTag] = etag
        if BackendConventions.isFresh(request, etag: etag) {
            response = Response(status: .notModified, headers: [.eTag: etag])
        }
        return BackendConventions.decorate(response, requestID: requestID)
    }

    /// `GET /api/health`: status and the current time as JavaScript's `toISOString` writes it.
    private func health(requestID: String, request: Request) -> Response {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let body = JSONText.object([
            ("status", .string("ok")),
            ("timestamp", .string(formatter.string(from: Date()))),
        ])
        return BackendConventions.json(body, requestID: requestID, for: request)
    }

    private func notFound(message: String, requestID: String, request: Request) -> Response {
        BackendConventions.error(
            status: 404,
            code: "NOT_FOUND",
            message: message,
            requestID: requestID,
            for: request
        )
    }

    /// The file name of a relative `/images/…` photo URL; nil for absolute URLs.
    private static func imageFileName(_ photoURL: String) -> String? {
        let prefix = "/images/"
        guard photoURL.hasPrefix(prefix) else { return nil }
        return String(photoURL.dropFirst(prefix.count))
    }
}
