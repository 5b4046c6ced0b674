import Foundation

/// Every cache's byte budget, computed once from the settings: the one place that says how
/// `--page-cache-mb` and the photo, tile and report settings are shared out. `docs/caches.md`
/// has the table of every cache with its key, budget, eviction and what invalidates it.
struct CacheBudgets: Sendable, Equatable {
    /// A cache with a memory budget and, when a folder is set, a disk budget there.
    struct Tiered: Sendable, Equatable {
        /// Bytes in memory.
        let memory: Int
        /// The folder that also keeps entries across restarts; nil: memory only.
        let folder: String?
        /// Bytes in `folder`.
        let disk: Int

        /// A budget from settings in MiB.
        init(memoryMegabytes: Int, folder: String?, diskMegabytes: Int) {
            memory = memoryMegabytes * CacheLimits.mebibyte
            self.folder = folder
            disk = diskMegabytes * CacheLimits.mebibyte
        }
    }

    /// The response cache (`ResponseCache`: pages, API bodies and fresh photos, whole, with the
    /// targets the server's hook finds them by): all of `--page-cache-mb`.
    let responses: Int
    /// Located page shells (`PageShells`): a fixed size, not a setting (`CacheLimits.pageShellBytes`).
    let pageShells: Int
    /// Photo variants (`KeptResourceCache`, `KeptResourceDisk`): `--image-cache-mb`, `--image-cache-dir`, `--image-cache-disk-mb`.
    let photos: Tiered
    /// Map tiles (the tile proxy's `KeptResourceCache`): `--tile-cache-mb`, `--tile-cache-dir`, `--tile-cache-disk-mb`.
    let tiles: Tiered
    /// Photos kept while a refused report is corrected (`MemoryWriteStore`, on `ExpiringMap`): `--report-photo-cache-mb`.
    let reportPhotos: Int
    /// Upstream details answers (`ResultCache` in PetAPIClient): a constant (`CacheLimits.upstreamDetailsBytes`).
    let upstreamDetails: Int

    /// The budgets `configuration` sets.
    init(_ configuration: AppConfiguration) {
        let pageCache = configuration.pageCacheMegabytes * CacheLimits.mebibyte
        responses = pageCache
        pageShells = CacheLimits.pageShellBytes
        photos = Tiered(
            memoryMegabytes: configuration.imageCacheMegabytes,
            folder: configuration.imageCacheDirectory,
            diskMegabytes: configuration.imageCacheDiskMegabytes
        )
        tiles = Tiered(
            memoryMegabytes: configuration.tileCacheMegabytes,
            folder: configuration.tileCacheDirectory,
            diskMegabytes: configuration.tileCacheDiskMegabytes
        )
        reportPhotos = configuration.reportPhotoCacheMegabytes * CacheLimits.mebibyte
        upstreamDetails = CacheLimits.upstreamDetailsBytes
    }
}

/// The fixed limits of the caches and stores: named here, once, instead of as numbers where each
/// cache is built. None is a setting: none has needed changing per deployment (docs/caches.md).
enum CacheLimits {
    /// Bytes in a MiB, as the `*-mb` settings count.
    static let mebibyte = 1024 * 1024

    /// Located page shells: one per page shape (page kind, filters, language), a few KB each, so
    /// 8 MiB holds thousands of shapes.
    static let pageShellBytes = 8 * mebibyte
    /// Shards of the page shells: every located page looks one up.
    static let pageShellShards = 8
    /// Shards of the response cache's entries and of its target index: every page request looks
    /// one up (the server's hook the index, the application the entries).
    static let responseShards = 8
    /// Keys remembered as made once, per response-cache shard (a power of two): a page is kept the
    /// second time it is made.
    static let responseSeenSlots = 4096
    /// Most request targets indexed to one entry of the response cache (spellings of one page:
    /// parameter order, unknown parameters); more are answered by the application from the entry.
    static let targetsPerResponse = 8
    /// Shards of the photo and tile memory caches: one, an exact LRU over the whole budget (a warm
    /// photo is mostly answered from the response cache by the server's hook before it gets here).
    static let photoMemoryShards = 1

    /// Most upstream details answers kept (`GatewaySettings.maxEntries`).
    static let upstreamDetailsEntries = 512
    /// Bytes of upstream details bodies kept (`GatewaySettings.maxCachedBytes`).
    static let upstreamDetailsBytes = 64 * mebibyte
    /// Most ids remembered as unknown to the upstream, each for one TTL (`GatewaySettings.maxRememberedUnknownIDs`).
    static let rememberedUnknownIDs = 10_000

    /// How long a refused report's photo is kept for the corrected form.
    static let keptReportPhotoLifetime: Duration = .seconds(3600)
    /// Most refused reports' photos kept at once (their bytes are bounded by `--report-photo-cache-mb`).
    static let keptReportPhotos = 10_000
    /// How long a submitted form's outcome is remembered, so sending it again leads to the same report.
    static let submissionLifetime: Duration = .seconds(3600)
    /// Most submitted forms' outcomes remembered (each a few hundred bytes).
    static let submissions = 20_000
}
