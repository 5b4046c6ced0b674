internal import CMicroHTTPD
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Reads one request's body as libmicrohttpd hands it over, on the connection's own thread (every
/// access-handler call of one connection runs there, so no lock is needed).
///
/// Forms (`multipart/form-data`, `application/x-www-form-urlencoded`) go through libmicrohttpd's
/// own post processor, which calls `postIterator` with each field or file in pieces: text fields
/// are gathered in memory (bounded by `maxFieldBytes`), files are handed piece by piece to their
/// `UploadStorage`, which writes them to temporary files off this thread. Other bodies (JSON) are
/// gathered whole, bounded by `maxBytes`.
///
/// Ownership: the post processor is created in `init` and destroyed in `finish` (or `discard`);
/// each temporary file belongs to its `UploadStorage`, deleted when the last `UploadedFile` holding
/// it (the request, the handler's work) lets go, not when libmicrohttpd completes the request.
final class BodyReader: @unchecked Sendable {
    // Safety: touched only on the connection's libmicrohttpd thread, then read by the handler
    // Task after the body is complete (the hand-over is ordered by the server's suspend/resume).
    let limits: BodyLimits
    /// True when the body is a form, parsed by the post processor.
    let isForm: Bool
    /// Bytes received so far (as sent, framing included).
    private(set) var received = 0
    /// Set at the first problem; from then on further bytes are discarded.
    private(set) var problem: BodyProblem?
    private var raw: [UInt8] = []
    private var postProcessor: OpaquePointer?
    private var fields: [(name: String, value: [UInt8])] = []
    private var fieldBytes = 0
    private var files: [OpenUpload] = []
    /// The item the post processor is currently handing over, to append its next piece to.
    private var current: (isFile: Bool, index: Int)?
    /// A multipart body's close delimiter (`--` boundary `--`), and the last bytes fed before the
    /// current piece (to find a delimiter split across pieces). What follows the close delimiter is
    /// the epilogue, which RFC 2046 §5.1.1 says to ignore; libmicrohttpd's post processor refuses it,
    /// and swift-openapi-runtime's multipart bodies end with one (a CRLF): found by the generated client.
    private let closeDelimiter: [UInt8]?
    private var fedTail: [UInt8] = []
    private var closed = false

    /// A file being received.
    private struct OpenUpload {
        let fieldName: String
        let fileName: String
        let contentType: String?
        let storage: UploadStorage
        var byteCount: Int
    }

    /// Prepares to read the body of the request on `connection`; `isForm` when its content type
    /// is one the post processor parses.
    init(connection: OpaquePointer, limits: BodyLimits, isForm: Bool, contentType: String? = nil) {
        self.limits = limits
        self.isForm = isForm
        closeDelimiter = BodyReader.boundary(of: contentType).map { Array("--\($0)--".utf8) }
        guard isForm else { return }
        let me = Unmanaged.passUnretained(self).toOpaque()
        postProcessor = MHD_create_post_processor(connection, 32 * 1024, postIterator, me)
        // Nil: a multipart type without a boundary, or one the processor does not know.
        if postProcessor == nil { problem = .malformed }
    }

    /// One piece of the body, as libmicrohttpd received it.
    func consume(_ data: UnsafePointer<CChar>, count: Int) {
        received += count
        guard problem == nil else { return }
        guard received <= limits.maxBytes else {
            fail(.tooLarge)
            return
        }
        if let postProcessor {
            guard !closed else { return }  // the epilogue
            var fed = count
            if let closeDelimiter, let end = end(of: closeDelimiter, in: UnsafeRawBufferPointer(start: data, count: count)) {
                fed = end
                closed = true
            }
            if MHD_post_process(postProcessor, data, fed) == .NO, problem == nil { fail(.malformed) }
        } else {
            raw.append(contentsOf: UnsafeRawBufferPointer(start: data, count: count))
        }
    }

    /// Where `delimiter` ends in `piece` (an offset into it, at least 1), counting the bytes fed before
    /// it; nil when it does not end there. Keeps the last bytes for the next piece.
    private func end(of delimiter: [UInt8], in piece: UnsafeRawBufferPointer) -> Int? {
        let window = fedTail + piece
        defer { fedTail = Array(window.suffix(delimiter.count - 1)) }
        guard window.count >= delimiter.count else { return nil }
        for start in 0...(window.count - delimiter.count) where window[start] == delimiter[0] {
            if window[start..<(start + delimiter.count)].elementsEqual(delimiter) {
                let end = start + delimiter.count - fedTail.count
                if end >= 1 { return end }
            }
        }
        return nil
    }

    /// The `boundary` parameter of a `multipart/form-data` content type, unquoted; nil for any other.
    static func boundary(of contentType: String?) -> String? {
        guard let contentType, contentType.lowercased().hasPrefix("multipart/") else { return nil }
        for parameter in contentType.split(separator: ";").dropFirst() {
            let parts = parameter.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "boundary" else { continue }
            var value = parts[1].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            return value.isEmpty ? nil : value
        }
        return nil
    }

    /// The whole body, once libmicrohttpd says it is complete; or why not.
    func finish() -> Result<RequestBody, BodyProblem> {
        if let postProcessor {
            self.postProcessor = nil
            // .NO: the processor did not reach the end of the form (cut or malformed).
            if MHD_destroy_post_processor(postProcessor) == .NO, problem == nil { problem = .malformed }
        }
        closeFiles()
        // A file the disk refused so far; one refused later makes `UploadedFile.read` answer nil.
        if problem == nil, files.contains(where: { $0.storage.hasFailed }) { problem = .storageFailed }
        if let problem { return .failure(problem) }
        guard isForm else { return .success(.bytes(raw)) }
        let form = FormBody(
            fields: fields.map { (name: $0.name, value: String(decoding: $0.value, as: UTF8.self)) },
            files: files.filter { !($0.fileName.isEmpty && $0.byteCount == 0) }.map {
                UploadedFile(
                    fieldName: $0.fieldName,
                    fileName: $0.fileName,
                    contentType: $0.contentType,
                    storage: $0.storage,
                    byteCount: $0.byteCount
                )
            }
        )
        return .success(.form(form))
    }

    /// Frees the post processor (if `finish` never ran) and lets go of the temporary files (deleted
    /// once no `UploadedFile` holds them either).
    func discard() {
        if let postProcessor {
            self.postProcessor = nil
            _ = MHD_destroy_post_processor(postProcessor)
        }
        closeFiles()
        files.removeAll()
    }

    private func closeFiles() {
        for file in files { file.storage.finishAppending() }
    }

    private func fail(_ reason: BodyProblem) {
        problem = reason
        fields.removeAll()
        raw = []
    }

    /// One call of the post processor: a piece of the field `key` (of the file `fileName` when
    /// it is a file part) at offset `offset`. Returns false to stop the processor.
    fileprivate func piece(key: String, fileName: String?, contentType: String?, data: UnsafeRawBufferPointer, offset: UInt64) -> Bool {
        guard problem == nil else { return false }
        let isFile = fileName != nil
        // A new item starts at offset 0 (the processor repeats the key for each piece of one item).
        if offset == 0 || current == nil || current?.isFile != isFile {
            if isFile {
                if let previous = files.last { previous.storage.finishAppending() }
                files.append(OpenUpload(fieldName: key, fileName: fileName ?? "", contentType: contentType, storage: UploadStorage(), byteCount: 0))
                current = (true, files.count - 1)
            } else {
                fieldBytes += key.utf8.count
                fields.append((name: key, value: []))
                current = (false, fields.count - 1)
            }
        }
        guard let current else { return false }
        if current.isFile {
            // The disk refused an earlier piece: stop reading the form.
            if files[current.index].storage.hasFailed {
                fail(.storageFailed)
                return false
            }
            files[current.index].storage.append(data)
            files[current.index].byteCount += data.count
        } else {
            fieldBytes += data.count
            guard fieldBytes <= limits.maxFieldBytes else {
                fail(.tooLarge)
                return false
            }
            fields[current.index].value.append(contentsOf: data)
        }
        return true
    }
}

/// `MHD_PostDataIterator`: hands each piece of a form to the `BodyReader` in `cls`.
private let postIterator: MHD_PostDataIterator = { cls, _, key, fileName, contentType, _, data, offset, size in
    guard let cls, let key else { return .NO }
    let reader = Unmanaged<BodyReader>.fromOpaque(cls).takeUnretainedValue()
    let bytes = UnsafeRawBufferPointer(start: data.map(UnsafeRawPointer.init), count: data == nil ? 0 : size)
    let keepGoing = reader.piece(
        key: String(cString: key),
        fileName: fileName.map { String(cString: $0) },
        contentType: contentType.map { String(cString: $0) },
        data: bytes,
        offset: offset
    )
    return keepGoing ? .YES : .NO
}
