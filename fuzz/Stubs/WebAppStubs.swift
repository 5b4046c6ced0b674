// Stand-ins for the few WebApp declarations that the fuzzed WebApp files mention but whose own
// files would pull in the whole page layer (view models, the template engine). Only their shape
// is needed: no fuzz target reaches their behaviour. Compiled into the fuzzer's `WebApp` module only.

import MicroHTTP

/// Stand-in for `StaticFiles.forms` (Compression/StaticFiles+Compression.swift), which compresses
/// through zlib and Brotli (C libraries the fuzzer does not link): no fuzz target needs the forms.
extension StaticFiles {
    static func forms(of body: [UInt8], contentType: String, etag: String) -> CompressedForms? { nil }
}

/// Stand-in for `PageShells` (Pages/Shared/PageShells.swift): `VisitorLocation.withMarkedCoordinates` names it.
enum PageShells {
    enum Slot {
        static let latitude = 0
        static let longitude = 1
    }

    static func marker(_ slot: Int) -> String { "zzS\(slot)zz" }
}

/// Stand-in for `OptionModel` (Pages/Shared/PageModels.swift): `ListFilters`' select options build these.
struct OptionModel: Sendable {
    let value: String
    let label: String
    let selected: Bool
}
