import Caching
import Foundation

/// The kept upstream resources behind the revalidating proxy (`RevalidatingProxy`, docs/photos.md):
/// finished answers by key, in memory on a byte cache (least recently used out first), plus the
/// optional disk tier. What is in memory can be answered on the server thread; what is only on
/// disk is read on the async path and put back in memory. The photo variants are one instance
/// (keyed by upstream path and variant), the map tiles another (keyed by tile).
final class KeptResourceCache: Sendable {
    private let memory: ShardedByteCache<KeptResourceKey, KeptResource>
    /// The disk tier, when a folder is configured.
    let disk: KeptResourceDisk?

    init(maxBytes: Int, disk: KeptResourceDisk?) {
        memory = ShardedByteCache(maxBytes: maxBytes, shardCount: CacheLimits.photoMemoryShards)
        self.disk = disk
    }

    /// The memory budget in bytes.
    var maxBytes: Int { memory.maxBytes }

    /// Entries and bytes held in memory.
    var size: (entries: Int, bytes: Int) { memory.size }

    /// The entry in memory for `key` (now the most recently used); never touches the disk.
    func memoryEntry(_ key: KeptResourceKey) -> KeptResource? {
        memory.value(for: key)
    }

    /// The entry for `key` from memory, else from disk (then kept in memory again).
    func entry(_ key: KeptResourceKey) -> KeptResource? {
        if let kept = memoryEntry(key) { return kept }
        guard let fromDisk = disk?.entry(for: key) else { return nil }
        memory.insert(fromDisk, for: key, cost: fromDisk.cost)
        return fromDisk
    }

    /// Keeps `entry` for `key` in memory and, for images, on disk.
    func keep(_ entry: KeptResource, for key: KeptResourceKey) {
        memory.insert(entry, for: key, cost: entry.cost)
        disk?.keep(entry, for: key)
    }

    /// Forgets `key` in memory and on disk.
    func remove(_ key: KeptResourceKey) {
        memory.remove(key)
        disk?.remove(key)
    }
}

extension KeptResourceCache {
    /// A cache of `budget.memory` bytes and, when `budget.folder` is given, `budget.disk` bytes in
    /// that folder; a folder that cannot be used stops startup naming `setting`.
    static func make(_ budget: CacheBudgets.Tiered, setting: String) throws(StartupError) -> KeptResourceCache {
        var disk: KeptResourceDisk?
        if let folder = budget.folder {
            do {
                disk = try KeptResourceDisk(folder: folder, maxBytes: budget.disk)
            } catch {
                throw StartupError(setting: setting, problem: "cannot use the folder: \(error.localizedDescription)")
            }
        }
        return KeptResourceCache(maxBytes: budget.memory, disk: disk)
    }
}
