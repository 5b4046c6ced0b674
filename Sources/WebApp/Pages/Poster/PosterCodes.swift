import Caching
import Foundation
import QRCode

/// The poster's QR codes as SVG path data, made once per pet, language and snapshot (docs/poster.md):
/// a QR code is a pure function of the share URL, and a new snapshot (whose base URL or ids may
/// differ) starts afresh, like the card fragments.
final class PosterCodes: Sendable {
    /// One code ready for the template.
    struct Code: Sendable {
        /// Path data of the dark modules, in module units with a 4-module quiet zone.
        let path: String
        /// Modules per side plus the quiet zone on both sides: the SVG's viewBox size.
        let size: Int
    }

    /// The codes of the current snapshot by share URL.
    private let kept = SnapshotMemo<[String: Code]>()

    /// The code of `url` for snapshot `generation`; nil when libqrencode cannot encode it.
    func code(for url: String, generation: Int) -> Code? {
        if let hit = kept.ifKept(generation: generation, { $0[url] }) ?? nil { return hit }
        guard let qr = QRCode(url) else { return nil }
        let code = Code(path: qr.svgPath(quiet: 4), size: qr.width + 8)
        kept.withValue(for: generation, make: { [:] }) { codes, _ in codes[url] = code }
        return code
    }

    /// Lets go of the codes of generations before `generation` (a new snapshot replaces theirs).
    func retire(below generation: Int) { kept.retire(below: generation) }

    /// Codes held for the current generation (tests).
    var count: Int { kept.withKept { _, codes in codes.count } ?? 0 }
}
