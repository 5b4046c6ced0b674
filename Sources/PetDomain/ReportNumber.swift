import Foundation

/// Decimal numbers as visitors type them in a report form and as JSON writes them.
enum ReportNumber {
    /// The value of `text` (already trimmed): an optional sign, digits with an optional fraction,
    /// an optional exponent (JSON bodies may use one); a single decimal comma is read as a point,
    /// because Polish keyboards and habits write `52,23`. Nil for anything else, including what
    /// `Double(_:)` alone would accept: `nan`, `inf`, `0x1p3`, and for non-finite results (`1e999`).
    static func parse(_ text: String) -> Double? {
        var bytes = Array(text.utf8)
        if !bytes.contains(UInt8(ascii: ".")), let comma = bytes.firstIndex(of: UInt8(ascii: ",")),
            bytes.lastIndex(of: UInt8(ascii: ",")) == comma
        {
            bytes[comma] = UInt8(ascii: ".")
        }
        guard isDecimal(bytes), let value = Double(String(decoding: bytes, as: UTF8.self)), value.isFinite
        else { return nil }
        return value
    }

    /// `[+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?`
    private static func isDecimal(_ bytes: [UInt8]) -> Bool {
        var index = 0
        func digits() -> Int {
            let start = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
            return index - start
        }
        func skip(_ allowed: Set<UInt8>) -> Bool {
            guard index < bytes.count, allowed.contains(bytes[index]) else { return false }
            index += 1
            return true
        }
        _ = skip([UInt8(ascii: "+"), UInt8(ascii: "-")])
        var mantissa = digits()
        if skip([UInt8(ascii: ".")]) { mantissa += digits() }
        guard mantissa > 0 else { return false }
        if skip([UInt8(ascii: "e"), UInt8(ascii: "E")]) {
            _ = skip([UInt8(ascii: "+"), UInt8(ascii: "-")])
            guard digits() > 0 else { return false }
        }
        return index == bytes.count
    }
}
