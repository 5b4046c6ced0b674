import Foundation

/// One tile of the Web Mercator pyramid that OpenStreetMap's servers use (`/{z}/{x}/{y}.png`):
/// zoom 0–19, `x` and `y` from 0 to 2^z − 1: nothing else is asked of the tile server.
struct TileAddress: Hashable, Sendable {
    /// The zoom levels the proxy serves: the OpenStreetMap standard layer's.
    static let zoomLevels = 0...19

    let z: Int
    let x: Int
    let y: Int

    /// A tile; nil when the zoom is outside `zoomLevels` or `x`/`y` outside the zoom's grid.
    init?(z: Int, x: Int, y: Int) {
        guard TileAddress.zoomLevels.contains(z) else { return nil }
        let side = 1 << z
        guard (0..<side).contains(x), (0..<side).contains(y) else { return nil }
        self.z = z
        self.x = x
        self.y = y
    }

    /// Parses the path segments `z`, `x` and `y.png`. Only plain decimal digits without a leading
    /// zero are read, so each tile has one path (one cache entry) and `Route.path` prints it back.
    init?(z: String, x: String, yFile: String) {
        guard yFile.hasSuffix(".png"), let z = TileAddress.number(z), let x = TileAddress.number(x),
            let y = TileAddress.number(String(yFile.dropLast(".png".count)))
        else { return nil }
        self.init(z: z, x: x, y: y)
    }

    /// The tile server's URL for this tile: `template` with `{z}`, `{x}` and `{y}` filled in.
    func url(template: String) -> String {
        template.replacingOccurrences(of: "{z}", with: String(z))
            .replacingOccurrences(of: "{x}", with: String(x))
            .replacingOccurrences(of: "{y}", with: String(y))
    }

    /// `"z/x/y"`, the tile's key in the cache.
    var key: String { "\(z)/\(x)/\(y)" }

    private static func number(_ text: String) -> Int? {
        // 2^19 − 1 has six digits: anything longer is out of range anyway.
        guard !text.isEmpty, text.utf8.count <= 7,
            text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            text == "0" || text.utf8.first != UInt8(ascii: "0")
        else { return nil }
        return Int(text)
    }
}
