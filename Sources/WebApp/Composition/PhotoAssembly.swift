import Logging
import PetAPIClient

/// Photos and map tiles (docs/photos.md, docs/map.md): the two proxies with their caches.
struct PhotoAssembly: Sendable {
    /// Photo variants of the announcements.
    let images: ImageProxy
    /// Map tiles of the tile server.
    let tiles: TileProxy

    /// Both proxies as configured; libvips starts now, so a missing library shows at startup.
    /// A photo that cannot be had is answered with the static placeholder.
    init(configuration: AppConfiguration, files: SiteFiles, gateway: AnnouncementGateway, metrics: Metrics, logger: Logger, days: DayClock) throws {
        tiles = try TileProxy.make(configuration: configuration, metrics: metrics, logger: logger.with(label: "tiles"), clock: days)
        images = try ImageProxy.make(
            configuration: configuration,
            gateway: gateway,
            metrics: metrics,
            logger: logger,
            clock: days,
            placeholder: files.staticFiles.assets[AnnouncementsAPI.placeholderAsset]?.body
        )
    }

    /// Stops the tile source's client.
    func shutdown() async {
        await tiles.source.shutdown()
    }
}
