import Caching
import FastBytes
import Foundation
import HTTPTypes
import MicroHTTP

extension ResponseCache {
    /// One index shard's state, under its lock in `Shards`: target records by their key's hash.
    struct TargetShard {
        var records: [Int: [Target]] = [:]
        var count = 0
        var bytes = 0

        func record(for target: ByteView, language: UInt8, hash: Int, now: ContinuousClock.Instant) -> Target? {
            guard let candidates = records[hash] else { return nil }
            for record in candidates where record.has(target: target, language: language) {
                return record.until > now ? record : nil
            }
            return nil
        }

        /// Puts `record` in, replacing the one of its target and language.
        mutating func insert(_ record: Target) {
            var list = records[record.key.hash] ?? []
            if let index = list.firstIndex(where: { $0.key == record.key }) {
                list[index] = record
            } else {
                list.append(record)
                count += 1
                bytes += record.key.target.count + ResponseCache.targetOverhead
            }
            records[record.key.hash] = list
        }

        /// Takes out the record of `key` when it belongs to `entry`.
        mutating func remove(_ key: TargetKey, of entry: Entry) {
            guard var list = records[key.hash], let index = list.firstIndex(where: { $0.key == key && $0.entry === entry }) else { return }
            bytes -= key.target.count + ResponseCache.targetOverhead
            list.remove(at: index)
            count -= 1
            records[key.hash] = list.isEmpty ? nil : list
        }

        mutating func removeAll() {
            records = [:]
            count = 0
            bytes = 0
        }
    }
}
