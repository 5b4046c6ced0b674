internal import ImageResizer
import MicroHTTP
import PetAPIClient

/// `/metrics`: sets the gauges that are read at scrape time (cache sizes and limits, the conversion
/// queue, the snapshot's age) through the same metrics API as every counter, then renders them all in
/// Prometheus' text format.
struct MetricsEndpoint: Sendable {
    let site: SiteContext
    let images: ImageProxy
    let tiles: TileProxy
    let gateway: AnnouncementGateway
    let metrics: Metrics
    /// The response cache: its entries are `petspot_page_cache_*`, the request targets indexed to
    /// them for the server's hook `petspot_kept_answers_*` (docs/caches.md).
    let responses: ResponseCache

    func scrape() -> Response {
        let pages = responses.size
        let kept = responses.targets
        for (name, value) in [
            ("petspot_page_cache_bytes", pages.bytes), ("petspot_page_cache_entries", pages.entries),
            ("petspot_page_cache_limit_bytes", responses.maxBytes),
            ("petspot_kept_answers_bytes", kept.bytes), ("petspot_kept_answers_entries", kept.entries),
            ("petspot_kept_answers_limit_bytes", responses.maxBytes),
            ("petspot_photo_cache_bytes", images.cache.size.bytes), ("petspot_photo_cache_entries", images.cache.size.entries),
            ("petspot_photo_cache_limit_bytes", images.cache.maxBytes),
            ("petspot_photo_disk_cache_bytes", images.cache.disk?.size.bytes ?? 0),
            ("petspot_photo_conversions_queued", images.pool.load.queued),
            ("petspot_tile_cache_bytes", tiles.cache.size.bytes), ("petspot_tile_cache_entries", tiles.cache.size.entries),
            ("petspot_tile_cache_limit_bytes", tiles.cache.maxBytes),
            ("petspot_tile_disk_cache_bytes", tiles.cache.disk?.size.bytes ?? 0),
        ] {
            metrics.set(name, to: value)
        }
        if let age = gateway.snapshotAge() {
            metrics.set("petspot_snapshot_age_seconds", to: Int(age.components.seconds))
        }
        return .text(metrics.render(), contentType: "text/plain; version=0.0.4; charset=utf-8")
    }
}
