import Foundation
import Synchronization

/// The announcements created through the demo's write API, in memory, in creation order
/// (docs/demo-upstream-writes.md).
///
/// Bounded: at most `Limits.maxAnnouncements` created announcements and `Limits.maxPhotoBytes`
/// of photos; `DemoBackend.init` sets them (500 and 200 MB by default). Past either bound the
/// OLDEST created announcements (with their photos) are dropped until the new one fits, rather
/// than refusing with a 503: a demo left running keeps accepting reports, and the seeded data set
/// is never touched. A dropped announcement answers 404 again, its photo too.
final class DemoStore: Sendable {
    /// The bounds of the store.
    struct Limits: Sendable {
        /// Most created announcements kept.
        var maxAnnouncements: Int
        /// Most bytes of photos kept, all announcements together.
        var maxPhotoBytes: Int
    }

    /// A stored photo, byte for byte as uploaded.
    struct Photo: Sendable {
        var bytes: [UInt8]
        var type: ImageSignature
    }

    /// Outcome of a password check.
    enum Access: Equatable {
        case granted, wrongPassword, unknown
    }

    private struct Entry {
        var row: DemoRow
        var password: ManagementPassword
        var photo: Photo?
    }

    private struct State {
        var entries: [Entry] = []
        var photoBytes = 0
    }

    private let limits: Limits
    /// Microchip numbers of the seeded rows, which count for uniqueness too.
    private let seededMicrochips: Set<String>
    private let state = Mutex(State())

    /// Creates an empty store over a data set whose microchips are already taken.
    init(limits: Limits, seededMicrochips: Set<String>) {
        self.limits = limits
        self.seededMicrochips = seededMicrochips
    }

    /// Adds `row` unless its microchip number (compared as sent, like the backend's SQL) is taken;
    /// false when it is.
    func insert(_ row: DemoRow, password: ManagementPassword) -> Bool {
        state.withLock { state in
            if let chip = row.microchipNumber,
                seededMicrochips.contains(chip) || state.entries.contains(where: { $0.row.microchipNumber == chip })
            {
                return false
            }
            while state.entries.count >= max(limits.maxAnnouncements, 1) { Self.dropOldest(&state) }
            state.entries.append(Entry(row: row, password: password, photo: nil))
            return true
        }
    }

    /// The created announcement `id`.
    func row(id: String) -> DemoRow? {
        state.withLock { state in state.entries.first { $0.row.id == id }?.row }
    }

    /// The created announcements that have a photo, in creation order (the list's rule).
    func listedRows() -> [DemoRow] {
        state.withLock { state in state.entries.filter { $0.photo != nil }.map(\.row) }
    }

    /// Checks `password` against announcement `id`'s hash.
    func access(id: String, password: String) -> Access {
        state.withLock { state in
            guard let entry = state.entries.first(where: { $0.row.id == id }) else { return .unknown }
            return entry.password.matches(password) ? .granted : .wrongPassword
        }
    }

    /// Sets (or replaces) the photo of `id`, its `photoUrl` and `updatedAt`; false when `id` is gone.
    func setPhoto(id: String, _ photo: Photo, updatedAt: String) -> Bool {
        state.withLock { state in
            guard state.entries.contains(where: { $0.row.id == id }) else { return false }
            // The replaced photo's bytes go first, then the oldest others until the new one fits.
            if let index = state.entries.firstIndex(where: { $0.row.id == id }), let old = state.entries[index].photo {
                state.photoBytes -= old.bytes.count
                state.entries[index].photo = nil
            }
            while state.photoBytes + photo.bytes.count > limits.maxPhotoBytes,
                let victim = state.entries.firstIndex(where: { $0.photo != nil && $0.row.id != id })
            {
                state.photoBytes -= state.entries[victim].photo?.bytes.count ?? 0
                state.entries.remove(at: victim)
            }
            guard state.photoBytes + photo.bytes.count <= limits.maxPhotoBytes,
                let index = state.entries.firstIndex(where: { $0.row.id == id })
            else { return false }
            state.entries[index].photo = photo
            state.entries[index].row.photoUrl = "/images/\(id).\(photo.type.ext)"
            state.entries[index].row.updatedAt = updatedAt
            state.photoBytes += photo.bytes.count
            return true
        }
    }

    /// The photo served as `/images/{file}`: only the announcement's current one.
    func photo(file: String) -> Photo? {
        state.withLock { state in
            state.entries.first { $0.photo != nil && $0.row.photoUrl == "/images/" + file }?.photo
        }
    }

    /// How many announcements and photo bytes are held (for tests of the bounds).
    func usage() -> (announcements: Int, photoBytes: Int) {
        state.withLock { state in (state.entries.count, state.photoBytes) }
    }

    private static func dropOldest(_ state: inout State) {
        let oldest = state.entries.removeFirst()
        state.photoBytes -= oldest.photo?.bytes.count ?? 0
    }
}
