import Foundation
import QRCode
import Synchronization

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

    private let kept = Mutex<(generation: Int, codes: [String: Code])>((Int.min, [:]))

    /// The code of `url` for snapshot `generation`; nil when libqrencode cannot encode it.
    func code(for url: String, generation: Int) -> Code? {
        if let hit = kept.withLock({ $0.generation == generation ? $0.codes[url] : nil }) { return hit }
        guard let qr = QRCode(url) else { return nil }
        let code = Code(path: qr.svgPath(quiet: 4), size: qr.width + 8)
        kept.withLock { state in
            guard generation >= state.generation else { return }
            if generation > state.generation { state = (generation, [:]) }
            state.codes[url] = code
        }
        return code
    }

    /// Codes held for the current generation (tests).
    var count: Int { kept.withLock { $0.codes.count } }
}
