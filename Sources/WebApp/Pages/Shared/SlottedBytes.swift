import FastBytes

/// Text rendered once with markers where per-visitor values go, cut at those markers: the one
/// splitter and joiner behind the page shells (`PageShells`) and the located card fragments
/// (`CardFragments`). The markup still comes from the templates alone; a visitor's page or card
/// is the text with their own values written into the holes.
struct SlottedBytes: Sendable {
    /// Where a marker was, and which slot it named.
    struct Hole: Sendable, Equatable {
        /// Offset in `bytes`.
        let offset: Int
        let slot: Int
    }

    /// How markers are spelled: each kind of text needs a spelling that survives what the
    /// templates do to the places it stands in.
    enum Spelling {
        /// `zzSNNzz` (`shellMarker`): letters and digits survive both URL encoding (a shell's
        /// coordinates stand in its links' queries) and HTML escaping. Shells hold no upstream
        /// text, so a marker cannot come from data.
        case shell
        /// U+E000 (slot 0) and U+E001 (slot 1), private-use characters that pass HTML escaping
        /// unchanged; a card holds upstream text, so `CardFragments` checks each marker occurs
        /// exactly as often as it put it there.
        case card
    }

    /// The text without its markers.
    let bytes: [UInt8]
    /// The markers' places, in the order of `bytes`.
    let holes: [Hole]

    /// Bytes of text (the values come on top).
    var size: Int { bytes.count }

    /// The shell marker of `slot` (0...99), e.g. `zzS07zz`.
    static func shellMarker(_ slot: Int) -> String {
        "zzS" + (slot < 10 ? "0" : "") + String(slot) + "zz"
    }

    /// The card marker of `slot` (0...63): U+E000 + slot. Slots 0 and 1 are the per-visitor holes
    /// (`Spelling.card`); the others mark a fragment's own values while it is taken apart (`CompactFragment`).
    static func cardMarker(_ slot: Int) -> String {
        String(Character(Unicode.Scalar(0xE000 + UInt32(slot & 63)) ?? "\u{E000}"))
    }

    /// The slot of the card marker U+E000...U+E03F (EE 80 80...EE 80 BF) starting at `index`, if any.
    @inline(__always)
    static func privateUseSlot(in bytes: [UInt8], at index: Int) -> Int? {
        guard bytes[index] == 0xEE, index + 2 < bytes.count, bytes[index + 1] == 0x80, bytes[index + 2] & 0xC0 == 0x80 else { return nil }
        return Int(bytes[index + 2] - 0x80)
    }

    /// Cuts `rendered` at every marker of `spelling`.
    static func split(_ rendered: [UInt8], _ spelling: Spelling) -> SlottedBytes {
        var kept: [UInt8] = []
        kept.reserveCapacity(rendered.count)
        var holes: [Hole] = []
        var start = 0
        var index = 0
        while index < rendered.count {
            guard let (slot, length) = marker(in: rendered, at: index, spelling) else {
                index += 1
                continue
            }
            kept += rendered[start..<index]
            holes.append(Hole(offset: kept.count, slot: slot))
            index += length
            start = index
        }
        kept += rendered[start...]
        return SlottedBytes(bytes: kept, holes: holes)
    }

    /// The slot and length of the marker at `index`, if one starts there.
    private static func marker(in bytes: [UInt8], at index: Int, _ spelling: Spelling) -> (slot: Int, length: Int)? {
        switch spelling {
        case .shell:
            let z = UInt8(ascii: "z")
            let s = UInt8(ascii: "S")
            let digits = UInt8(ascii: "0")...UInt8(ascii: "9")
            guard bytes[index] == z, index + 7 <= bytes.count, bytes[index + 1] == z, bytes[index + 2] == s,
                digits.contains(bytes[index + 3]), digits.contains(bytes[index + 4]),
                bytes[index + 5] == z, bytes[index + 6] == z
            else { return nil }
            return (Int(bytes[index + 3] - digits.lowerBound) * 10 + Int(bytes[index + 4] - digits.lowerBound), 7)
        case .card:
            // U+E000 and U+E001 are EE 80 80 and EE 80 81 in UTF-8.
            guard bytes[index] == 0xEE, index + 2 < bytes.count, bytes[index + 1] == 0x80,
                bytes[index + 2] == 0x80 || bytes[index + 2] == 0x81
            else { return nil }
            return (Int(bytes[index + 2] - 0x80), 3)
        }
    }

    /// The slot of each hole, in order.
    var slots: [Int] { holes.map(\.slot) }

    /// How many holes name `slot`.
    func count(of slot: Int) -> Int {
        holes.reduce(0) { $0 + ($1.slot == slot ? 1 : 0) }
    }

    /// Appends the text to `output` with `write(slot, &output)` at each hole.
    @inline(__always)
    func write<Sink: ByteSink>(into output: inout Sink, _ write: (_ slot: Int, _ output: inout Sink) -> Void) {
        bytes.withView { bytes in
            var start = 0
            for hole in holes {
                output.append(bytes: bytes.view(start..<hole.offset))
                write(hole.slot, &output)
                start = hole.offset
            }
            output.append(bytes: bytes.view(from: start))
        }
    }
}
