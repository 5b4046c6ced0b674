import Caching
import Foundation

/// The optional on-disk tier of the kept photos (`--image-cache-dir`) and of the kept tiles
/// (`--tile-cache-dir`, a folder of its own): one file per variant or tile,
/// kept across restarts, bounded by bytes with the least recently used file removed first. Only
/// our own variants are written, never an upstream original (those may carry GPS positions).
///
/// A file is `<32 hex digits>.photo`: a hash of the key as its name, then one line of JSON (the
/// entry without its bytes, and the key, checked on read so a hash collision is a miss) and the
/// bytes. Files are written to a temporary name and renamed, so a crash leaves no half file.
final class KeptResourceDisk: Sendable {
    private struct Header: Codable {
        let path: String
        let variant: String
        let entry: KeptResource
    }

    let folder: URL
    let maxBytes: Int
    /// File names by recency, with their sizes.
    private let index: ShardedByteCache<String, Int>

    /// Opens (creating when missing) `folder` and indexes the files already there, oldest
    /// modification first, dropping the oldest beyond `maxBytes`.
    init(folder: String, maxBytes: Int) throws {
        let root = URL(fileURLWithPath: folder, isDirectory: true)
        self.folder = root
        self.maxBytes = maxBytes
        let files = FileManager.default
        try files.createDirectory(at: root, withIntermediateDirectories: true)
        let names = try files.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".photo") }
        let found: [(name: String, bytes: Int, modified: Date)] = names.compactMap { name in
            guard let attributes = try? files.attributesOfItem(atPath: root.appendingPathComponent(name).path) else { return nil }
            return (name, (attributes[.size] as? Int) ?? 0, (attributes[.modificationDate] as? Date) ?? .distantPast)
        }
        // One shard: one exact LRU over the whole disk budget (files are few and slow anyway).
        index = ShardedByteCache(maxBytes: maxBytes, shardCount: 1)
        var dropped: [String] = []
        for file in found.sorted(by: { $0.modified < $1.modified }) {
            dropped += index.insert(file.bytes, for: file.name, cost: file.bytes)
        }
        for name in dropped { try? files.removeItem(at: root.appendingPathComponent(name)) }
    }

    /// Files and bytes held.
    var size: (entries: Int, bytes: Int) { index.size }

    /// The entry kept for `key`, or nil.
    func entry(for key: KeptResourceKey) -> KeptResource? {
        let name = KeptResourceDisk.fileName(key)
        guard index.value(for: name) != nil,
            let data = try? Data(contentsOf: folder.appendingPathComponent(name)),
            let newline = data.firstIndex(of: UInt8(ascii: "\n")),
            let header = try? JSONDecoder().decode(Header.self, from: data[data.startIndex..<newline]),
            header.path == key.path, header.variant == key.variant
        else { return nil }
        let entry = header.entry
        return KeptResource(
            kind: entry.kind,
            bytes: Array(data[(newline + 1)...]),
            contentType: entry.contentType,
            width: entry.width,
            height: entry.height,
            etag: entry.etag,
            validators: entry.validators,
            checkedAt: entry.checkedAt,
            lifetime: entry.lifetime
        )
    }

    /// Writes `entry` for `key` (image entries only), dropping the least recently used files
    /// beyond the budget. Failures (a full disk) only mean the next start has less to reuse.
    func keep(_ entry: KeptResource, for key: KeptResourceKey) {
        guard entry.kind == .image else { return }
        let header = Header(
            path: key.path,
            variant: key.variant,
            entry: KeptResource(
                kind: entry.kind,
                bytes: [],
                contentType: entry.contentType,
                width: entry.width,
                height: entry.height,
                etag: entry.etag,
                validators: entry.validators,
                checkedAt: entry.checkedAt,
                lifetime: entry.lifetime
            )
        )
        guard var data = try? JSONEncoder().encode(header) else { return }
        data.append(UInt8(ascii: "\n"))
        data.append(contentsOf: entry.bytes)
        let name = KeptResourceDisk.fileName(key)
        let target = folder.appendingPathComponent(name)
        let temporary = folder.appendingPathComponent(".\(name).\(UInt32.random(in: 0...UInt32.max)).tmp")
        do {
            try data.write(to: temporary)
            guard rename(temporary.path, target.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            return
        }
        let dropped = index.insert(data.count, for: name, cost: data.count)
        for droppedName in dropped where droppedName != name {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(droppedName))
        }
    }

    /// Removes the file of `key`.
    func remove(_ key: KeptResourceKey) {
        let name = KeptResourceDisk.fileName(key)
        if index.remove(name) {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }

    /// A file name from the key: two 64-bit FNV-1a hashes (different offsets) in hex.
    static func fileName(_ key: KeptResourceKey) -> String {
        var first: UInt64 = 0xCBF2_9CE4_8422_2325
        var second: UInt64 = 0x84222325_CBF29CE4
        for byte in key.path.utf8 + [0] + key.variant.utf8 {
            first = (first ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            second = (second ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 &+ 1
        }
        return hex(first) + hex(second) + ".photo"
    }

    private static func hex(_ value: UInt64) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }
}
