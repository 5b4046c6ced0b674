internal import CMicroHTTPD
import Foundation
import HTTPTypes
import Synchronization

/// One answer made ready to be sent many times (`PreparedResponses`): its body and header strings
/// copied once into memory it owns, and, for each server thread that sends it, that thread's own
/// native responses (the full one and the bodiless 304), made once and queued again for every
/// repeat with only the `X-Request-Id` changed.
///
/// Why one native response per thread: a response made per answer cost libmicrohttpd a response
/// object and three allocations per header (eleven headers on a photo), the largest part of a warm
/// answer's user time after the kernel's (perf). libmicrohttpd lets one response be queued on many
/// connections (reference counted), but its header list is read while the reply is built, so
/// changing the `X-Request-Id` of a response another thread is queueing would race. A thread's own
/// response is changed only by that thread, and libmicrohttpd 0.9.75 copies the headers into the
/// connection's write buffer on the thread and in the very call that queued the response
/// (`MHD_connection_handle_idle`: `FULL_REQ_RECEIVED` → `START_REPLY` → `build_header_response`),
/// so the next answer on that thread finds the previous one's headers already written out. That
/// ordering is libmicrohttpd's internal behaviour: the reuse is on only for the versions it was
/// verified on (`verifiedLibraryVersions`); with another, every answer gets a native response
/// made for it alone (docs/transport.md "Version check").
public final class PreparedResponse: @unchecked Sendable {
    // Safety: every stored property is immutable after init except the slots' native responses,
    // each touched only by the thread that claimed the slot (see `NativeSlot`); deinit runs after
    // the last reference is gone (the owner's and the sending threads' local ones), so no thread
    // uses a slot then. Native responses still queued on connections keep the body alive through
    // their own reference to `PreparedBody`.
    /// The status sent (unless the 304 is).
    public let status: HTTPResponse.Status
    /// The `ETag` header's value, for `If-None-Match`.
    public let etag: String?
    /// The `Last-Modified` in seconds since 1970, for `If-Modified-Since` (nil when absent).
    public let lastModified: Int64?
    /// Bytes held: the body, the headers, and their copies in the native responses.
    public let cost: Int
    /// The body's length (what a GET of this answer sends).
    public var bodyCount: Int { body.count }
    private let body: PreparedBody
    /// Every header as `name NUL value NUL`, in order.
    private let headerText: UnsafeMutableBufferPointer<CChar>
    /// (name offset, value offset, is Content-Type) of each header in `headerText`.
    private let headerOffsets: [(name: Int, value: Int, isContentType: Bool)]
    /// One per server thread, claimed by the first answer given on that thread.
    private let slots: [NativeSlot]

    /// Prepares `response` (its final headers, without any request id) to be sent by up to
    /// `threadSlots` server threads from native responses of their own (more threads still send
    /// it, each with a response made for the one answer).
    public convenience init(_ response: Response, threadSlots: Int) {
        self.init(response, threadSlots: threadSlots, libraryVersion: PreparedResponse.libraryVersion)
    }

    /// `init(_:threadSlots:)` as if the running libmicrohttpd were `libraryVersion` (tests).
    init(_ response: Response, threadSlots: Int, libraryVersion: String) {
        self.status = response.status
        etag = response.headers[.eTag]
        lastModified = response.headers[.lastModified].flatMap(HTTPDate.parse)
        body = PreparedBody(copying: response.body)
        var text: [CChar] = []
        var offsets: [(name: Int, value: Int, isContentType: Bool)] = []
        for field in response.headers where !NativeResponse.isReserved(field.name) {
            // `HTTPField` names are tokens and its values hold no CR, LF or NUL: each can be
            // copied as a C string as it is.
            let name = field.name.rawName
            let value = field.value
            let nameOffset = text.count
            text.append(contentsOf: name.utf8.map { CChar(bitPattern: $0) })
            text.append(0)
            let valueOffset = text.count
            text.append(contentsOf: value.utf8.map { CChar(bitPattern: $0) })
            text.append(0)
            offsets.append((nameOffset, valueOffset, field.name == .contentType))
        }
        headerText = .allocate(capacity: max(1, text.count))
        _ = headerText.initialize(from: text)
        headerOffsets = offsets
        slots = (0..<PreparedResponse.slotCount(threadSlots, libraryVersion: libraryVersion)).map { _ in NativeSlot() }
        // The headers are held once here and, copied by libmicrohttpd, in up to two native
        // responses (200 and 304) per thread.
        cost = response.body.count + text.count * (1 + 2 * slots.count)
    }

    deinit {
        for slot in slots { slot.destroyResponses() }
        headerText.deallocate()
    }

    /// Native responses kept per thread (0: one made per answer).
    var slotCount: Int { slots.count }

    /// Queues this answer on `connection` with `requestID` as its `X-Request-Id`: the calling
    /// thread's own native response when it has or can claim a slot, else one made for this
    /// answer alone. Nil when libmicrohttpd refused to make a response.
    func queue(on connection: OpaquePointer, status: HTTPResponse.Status, notModified: Bool, requestID: String) -> MHD_Result? {
        if let slot = slot(for: ServerThread.token) {
            guard let native = slot.response(notModified: notModified, requestID: requestID, make: { makeNativeResponse(notModified: notModified) })
            else {
                return nil
            }
            // The slot keeps its own reference: nothing to destroy here.
            return MHD_queue_response(connection, UInt32(status.code), native)
        }
        guard let native = makeNativeResponse(notModified: notModified) else { return nil }
        _ = MHD_add_response_header(native, NativeSlot.requestIDName, requestID)
        let result = MHD_queue_response(connection, UInt32(status.code), native)
        MHD_destroy_response(native)
        return result
    }

    /// The slot owned by the thread with `token`, claiming a free one on its first answer;
    /// nil when every slot belongs to another thread.
    private func slot(for token: Int) -> NativeSlot? {
        for slot in slots {
            let owner = slot.owner.load(ordering: .acquiring)
            if owner == token { return slot }
            if owner == 0, slot.owner.compareExchange(expected: 0, desired: token, ordering: .acquiringAndReleasing).exchanged {
                return slot
            }
        }
        return nil
    }

    /// A native response with every prepared header; the body shared (retained until libmicrohttpd
    /// frees the response), or none for the 304.
    private func makeNativeResponse(notModified: Bool) -> OpaquePointer? {
        let native: OpaquePointer?
        if notModified {
            native = MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT)
        } else {
            let retained = Unmanaged.passRetained(body).toOpaque()
            native = MHD_create_response_from_buffer_with_free_callback_cls(
                body.count,
                body.bytes.baseAddress,
                releasePreparedBody,
                retained
            )
            if native == nil { Unmanaged<PreparedBody>.fromOpaque(retained).release() }
        }
        guard let native else { return nil }
        // The header text always holds at least its terminating NUL; without it there is nothing to add.
        guard let base = headerText.baseAddress else { return native }
        for (name, value, isContentType) in headerOffsets where !(notModified && isContentType) {
            _ = MHD_add_response_header(native, base + name, base + value)
        }
        return native
    }
}

extension PreparedResponse {
    /// The libmicrohttpd versions whose ordering (see the type) the per-thread reuse was verified
    /// on, by reading their source and by `PreparedResponsesTests` and the kept-answer tests.
    static let verifiedLibraryVersions: Set<String> = ["0.9.75"]

    /// The running libmicrohttpd's version, as `MHD_get_version` gives it.
    public static let libraryVersion: String = String(cString: MHD_get_version())

    /// True when the running libmicrohttpd is one the per-thread reuse was verified on; false means
    /// every prepared answer is sent from a native response made for it (slower, still correct).
    public static var reusesNativeResponses: Bool { verifiedLibraryVersions.contains(libraryVersion) }

    /// The thread slots a prepared response keeps on `libraryVersion`: `threadSlots` on a verified
    /// version, none on any other.
    static func slotCount(_ threadSlots: Int, libraryVersion: String) -> Int {
        verifiedLibraryVersions.contains(libraryVersion) ? max(0, threadSlots) : 0
    }
}

/// A prepared body's bytes, freed when the response and every native response made from it are gone.
final class PreparedBody: @unchecked Sendable {
    // Safety: written once in init, only read after.
    let count: Int
    let bytes: UnsafeMutableRawBufferPointer

    init(copying source: [UInt8]) {
        count = source.count
        bytes = .allocate(byteCount: max(1, source.count), alignment: 8)
        bytes.copyBytes(from: source)
    }

    deinit { bytes.deallocate() }
}

/// One thread's native responses for one prepared response (the full one and the bodiless 304),
/// each with the request id it was last queued with.
final class NativeSlot: @unchecked Sendable {
    // Safety: `owner` is claimed once by compare-exchange; `full` and `bodiless` are read and
    // written only by the owning thread, and by `destroyResponses` from the response's deinit,
    // after every use (the claim's acquire/release orders the owner's writes before it).
    /// The request id field's name as it is sent.
    static let requestIDName = HTTPField.Name.xRequestID.rawName
    /// The `ServerThread.token` of the thread that owns this slot, or 0 while free.
    let owner = Atomic<Int>(0)
    private var full: (native: OpaquePointer, requestID: String)?
    private var bodiless: (native: OpaquePointer, requestID: String)?

    /// The owner's native response with its `X-Request-Id` set to `requestID`, made by `make`
    /// the first time; nil when it could not be made.
    func response(notModified: Bool, requestID: String, make: () -> OpaquePointer?) -> OpaquePointer? {
        if notModified {
            return Self.stamp(&bodiless, requestID: requestID, make: make)
        }
        return Self.stamp(&full, requestID: requestID, make: make)
    }

    private static func stamp(
        _ kept: inout (native: OpaquePointer, requestID: String)?,
        requestID: String,
        make: () -> OpaquePointer?
    ) -> OpaquePointer? {
        let native: OpaquePointer
        if let existing = kept {
            native = existing.native
            if !existing.requestID.isEmpty { _ = MHD_del_response_header(native, requestIDName, existing.requestID) }
        } else {
            guard let made = make() else { return nil }
            native = made
        }
        let added = MHD_add_response_header(native, requestIDName, requestID) == .YES
        kept = (native, added ? requestID : "")
        return native
    }

    /// Gives up this slot's references (libmicrohttpd frees each response once no connection
    /// is sending it).
    func destroyResponses() {
        if let full { MHD_destroy_response(full.native) }
        if let bodiless { MHD_destroy_response(bodiless.native) }
        full = nil
        bodiless = nil
    }
}

/// A number for the calling thread, the same for its whole life and never given to another
/// thread: which of a prepared response's slots is its own.
enum ServerThread {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "pthread_key_create failed")
        return key
    }()
    private static let next = Atomic<Int>(0)

    static var token: Int {
        if let stored = pthread_getspecific(key) { return Int(bitPattern: stored) }
        let token = next.add(1, ordering: .relaxed).newValue
        _ = pthread_setspecific(key, UnsafeRawPointer(bitPattern: token))
        return token
    }
}

/// `MHD_ContentReaderFreeCallback` balancing the retain of `PreparedResponse.makeNativeResponse`.
private let releasePreparedBody: MHD_ContentReaderFreeCallback = { cls in
    guard let cls else { return }
    Unmanaged<PreparedBody>.fromOpaque(cls).release()
}
