import Foundation

/// The fuzz targets (docs/testing.md "Fuzzing and sanitizers"), one binary for all of them: `PETSPOT_FUZZ_TARGET` picks
/// one, so `scripts/fuzz.sh` compiles once (CI time) and runs each with its own corpus.
enum FuzzTarget: String, CaseIterable {
    /// `JSONValue.parse`: any accepted document, written again with `JSONWriter`, parses to the same value.
    case json
    /// List and details bodies of every dialect, and our own API output read back (`AnnouncementDecoder`).
    case announcements
    /// The visitor's query string: `VisitorLocation` and `ListFilters`, and the links they print.
    case query
    /// A request path: percent-decoding, `Route`, and `/static/` resolution against `Public/`.
    case path
    /// `Reward(upstream:)` from text and from JSON numbers, and its display text read back.
    case reward
    /// `CalendarDate(iso:)` and the `Timestamp` parsers, and what they print read back.
    case dates
    /// A report as an API body and as form fields: `ReportValidation`, and `upstreamJSON()` read back.
    case report
    /// A multipart body through libmicrohttpd's post processor and `BodyReader`, on a daemon in the process.
    case multipart

    /// The target named by the environment; the process stops at once on an unknown name.
    static let selected: FuzzTarget = {
        let name = ProcessInfo.processInfo.environment["PETSPOT_FUZZ_TARGET"] ?? ""
        guard let target = FuzzTarget(rawValue: name) else {
            let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
            fatalError("PETSPOT_FUZZ_TARGET must be one of: \(names) (got '\(name)')")
        }
        return target
    }()

    func run(_ bytes: [UInt8]) {
        switch self {
        case .json: JSONTarget.run(bytes)
        case .announcements: AnnouncementsTarget.run(bytes)
        case .query: QueryTarget.run(bytes)
        case .path: PathTarget.run(bytes)
        case .reward: RewardTarget.run(bytes)
        case .dates: DatesTarget.run(bytes)
        case .report: ReportTarget.run(bytes)
        case .multipart: MultipartTarget.run(bytes)
        }
    }
}

/// libFuzzer's entry point: called once per input, from one thread.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzTarget.selected.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

/// Stops the run with `message` when an invariant does not hold; libFuzzer saves the input as a crash.
func expect(_ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
    guard !condition else { return }
    fatalError("invariant broken: \(message())", file: file, line: line)
}

/// Input bytes as text; invalid UTF-8 becomes U+FFFD, as it would after any of our decoders.
func text(_ bytes: [UInt8]) -> String {
    String(decoding: bytes, as: UTF8.self)
}

/// Whether two strings hold the same bytes (Swift's `==` compares canonical equivalence, which
/// would hide a writer that recomposes characters).
func sameBytes(_ lhs: String, _ rhs: String) -> Bool {
    lhs.utf8.elementsEqual(rhs.utf8)
}
