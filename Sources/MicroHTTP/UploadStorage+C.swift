import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One uploaded file's temporary file, and the writes still to be made to it.
///
/// Off the server's threads: libmicrohttpd's thread only copies each piece of the file and hands
/// it to this file's serial queue (on a global utility queue), which opens, writes, closes and
/// finally deletes the file. A blocking `write(2)` on a libmicrohttpd thread would stall every
/// other connection that thread serves while the disk is slow. The pieces waiting for the disk
/// are held in memory meanwhile, at most the body's limit (`BodyLimits.maxBytes`) per request.
///
/// Ownership: the file belongs to whoever still holds it: the `BodyReader` while the body arrives,
/// then every `UploadedFile` (in the `Request`, in the handler's work, in a conversion waiting for
/// its pool). It is deleted when the last of them lets go, never while a reader still has it: at
/// shutdown the server answers a request that is still running with a 503 and completes it, and its
/// handler may go on reading the file afterwards (docs/transport.md "Request bodies").
final class UploadStorage: @unchecked Sendable {
    // Safety: `descriptor` is touched only on `queue`; `failed` is atomic.
    /// Where the bytes are.
    let path: String
    private let queue: DispatchQueue
    private var descriptor: Int32 = -1
    /// Set by the queue when the file could not be created or written; read by the server's thread
    /// to refuse the body (`BodyProblem.storageFailed`) and by `waitUntilWritten`.
    private let failed = Atomic<Bool>(false)

    /// True once the file could not be created or written (read on the server's thread).
    var hasFailed: Bool { failed.load(ordering: .relaxed) }

    /// Where uploads are written: a folder of this process's own under the system's temporary folder
    /// (made on first use, by an upload's queue).
    static let directory: String = {
        let path = NSTemporaryDirectory() + "petspot-uploads-\(getpid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return path
    }()

    /// A new, uniquely named temporary file, created on the file's queue.
    init() {
        var random = SystemRandomNumberGenerator()
        let name = (0..<2).map { _ in String(random.next() as UInt64, radix: 16) }.joined(separator: "-")
        path = UploadStorage.directory + "/" + name
        queue = DispatchQueue(label: "petspot.upload", target: .global(qos: .utility))
        queue.async { [self] in
            descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
            if descriptor < 0 { failed.store(true, ordering: .relaxed) }
        }
    }

    /// Appends a copy of `piece`; the write happens later, on the file's queue, in order.
    func append(_ piece: UnsafeRawBufferPointer) {
        guard piece.count > 0 else { return }
        let bytes = [UInt8](piece)
        queue.async { [self] in
            guard descriptor >= 0 else { return }
            var written = 0
            let ok = bytes.withUnsafeBytes { buffer -> Bool in
                guard let base = buffer.baseAddress else { return true }
                while written < buffer.count {
                    let result = write(descriptor, base + written, buffer.count - written)
                    if result <= 0 { return false }
                    written += result
                }
                return true
            }
            if !ok { closeAfterFailure() }
        }
    }

    /// The last piece has been appended: the file is closed once it is written.
    func finishAppending() {
        queue.async { [self] in
            if descriptor >= 0 { _ = close(descriptor) }
            descriptor = -1
        }
    }

    /// Waits for every write appended so far (a reader calls this on a thread that may block, such as
    /// the photo pool's); false when the file could not be written whole.
    func waitUntilWritten() -> Bool {
        queue.sync {}
        return !failed.load(ordering: .relaxed)
    }

    private func closeAfterFailure() {
        failed.store(true, ordering: .relaxed)
        if descriptor >= 0 { _ = close(descriptor) }
        descriptor = -1
    }

    deinit {
        // The last holder let go: close (if a body was cut before its end) and delete, on the queue,
        // after any write still waiting there. The block holds the queue, not this object.
        let path = path
        let descriptor = descriptor
        queue.async {
            if descriptor >= 0 { _ = close(descriptor) }
            unlink(path)
        }
    }
}

extension UploadedFile {
    /// The whole file, read with POSIX calls straight into the array: `FileManager.contents` made a
    /// `Data` to be copied again, and its buffer for an empty file was never freed (LeakSanitizer in
    /// scripts/fuzz.sh's multipart target).
    static func contents(of path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_size >= 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        let complete = bytes.withUnsafeMutableBytes { buffer -> Bool in
            var done = 0
            while done < buffer.count, let base = buffer.baseAddress {
                let count = Foundation.read(descriptor, base + done, buffer.count - done)
                guard count > 0 else { return false }
                done += count
            }
            return true
        }
        return complete ? bytes : nil
    }
}
