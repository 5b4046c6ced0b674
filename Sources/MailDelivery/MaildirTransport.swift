import Foundation

/// Writes each message as a file into a Maildir folder (tmp/, then renamed into new/), for development and tests
/// without a relay (docs/mail.md "Maildir"); a mail reader or Python's `mailbox.Maildir` opens it.
public struct MaildirTransport: MailTransport {
    /// The Maildir folder (holding tmp/, new/ and cur/).
    public let folder: URL

    /// A transport into `folder`, creating folder/tmp, folder/new and folder/cur when missing.
    public init(folder: URL) throws {
        self.folder = folder
        for sub in ["tmp", "new", "cur"] {
            do {
                try FileManager.default.createDirectory(at: folder.appendingPathComponent(sub), withIntermediateDirectories: true)
            } catch {
                throw MailDeliveryError.maildir(path: folder.path, reason: "cannot create \(sub)/: \(error.localizedDescription)")
            }
        }
    }

    /// `Maildir <folder>`.
    public var description: String { "Maildir \(folder.path)" }

    /// Writes the bytes to tmp/UNIQUE, flushes them, then renames the file into new/, so a reader never sees half
    /// a message; `.temporary` when the disk refuses. The envelope is not kept: Maildir has no place for it.
    public func deliver(_ message: [UInt8], from: String, to: String) async -> DeliveryOutcome {
        let unique = Self.uniqueName()
        let temporary = folder.appendingPathComponent("tmp").appendingPathComponent(unique)
        let final = folder.appendingPathComponent("new").appendingPathComponent(unique)
        do {
            guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
                return .temporary("Maildir: cannot create \(temporary.path)")
            }
            let file = try FileHandle(forWritingTo: temporary)
            defer { try? file.close() }
            try file.write(contentsOf: message)
            try file.synchronize()
            try FileManager.default.moveItem(at: temporary, to: final)
            return .sent
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            return .temporary("Maildir: \(error.localizedDescription)")
        }
    }

    /// `<seconds>.<microseconds>_<random>.petspot`: unique across processes and messages of one second, sortable by time.
    static func uniqueName() -> String {
        let now = Date().timeIntervalSince1970
        let seconds = Int(now)
        let micros = Int((now - Double(seconds)) * 1_000_000)
        let random = String(UInt64.random(in: 0...UInt64.max), radix: 16)
        return "\(seconds).M\(micros)R\(random).petspot"
    }
}
