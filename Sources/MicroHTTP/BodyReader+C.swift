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
/// are gathered in memory (bounded by `maxFieldBytes`), files are written to temporary files as
/// they come, so a 20 MB photo never sits whole in this server's memory. Other bodies (JSON) are
/// gathered whole, bounded by `maxBytes`.
///
/// Ownership: the post processor is created in `init` and destroyed in `finish` (or `discard`);
/// the temporary files are deleted in `discard`, which `RequestContext` calls when libmicrohttpd
/// reports the request completed (its handler has returned by then).
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

    /// A file being written.
    private struct OpenUpload {
        let fieldName: String
        let fileName: String
        let contentType: String?
        let path: String
        var descriptor: Int32
        var byteCount: Int
    }

    /// Where uploads are written: a folder of this process's own under the system's temporary folder.
    static let uploadDirectory: String = {
        let path = NSTemporaryDirectory() + "petspot-uploads-\(getpid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return path
    }()

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
        if let problem { return .failure(problem) }
        guard isForm else { return .success(.bytes(raw)) }
        let form = FormBody(
            fields: fields.map { (name: $0.name, value: String(decoding: $0.value, as: UTF8.self)) },
            files: files.filter { !($0.fileName.isEmpty && $0.byteCount == 0) }.map {
                UploadedFile(fieldName: $0.fieldName, fileName: $0.fileName, contentType: $0.contentType, path: $0.path, byteCount: $0.byteCount)
            }
        )
        return .success(.form(form))
    }

    /// Frees the post processor (if `finish` never ran) and deletes the temporary files.
    func discard() {
        if let postProcessor {
            self.postProcessor = nil
            _ = MHD_destroy_post_processor(postProcessor)
        }
        closeFiles()
        for file in files { unlink(file.path) }
        files.removeAll()
    }

    private func closeFiles() {
        for index in files.indices where files[index].descriptor >= 0 {
            close(files[index].descriptor)
            files[index].descriptor = -1
        }
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
                guard let upload = openUpload(fieldName: key, fileName: fileName ?? "", contentType: contentType) else {
                    fail(.storageFailed)
                    return false
                }
                files.append(upload)
                current = (true, files.count - 1)
            } else {
                fieldBytes += key.utf8.count
                fields.append((name: key, value: []))
                current = (false, fields.count - 1)
            }
        }
        guard let current else { return false }
        if current.isFile {
            var written = 0
            while written < data.count {
                let result = write(files[current.index].descriptor, data.baseAddress! + written, data.count - written)
                if result <= 0 {
                    fail(.storageFailed)
                    return false
                }
                written += result
            }
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

    private func openUpload(fieldName: String, fileName: String, contentType: String?) -> OpenUpload? {
        var random = SystemRandomNumberGenerator()
        let name = (0..<2).map { _ in String(random.next() as UInt64, radix: 16) }.joined(separator: "-")
        let path = BodyReader.uploadDirectory + "/" + name
        let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return nil }
        return OpenUpload(fieldName: fieldName, fileName: fileName, contentType: contentType, path: path, descriptor: descriptor, byteCount: 0)
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
