/// One member of a weighted list header (RFC 9110 §12.4.2: `token;q=0.5`), as `Accept-Encoding`
/// (`ContentCoding`) and `Accept-Language` (the application's languages) spell it: read on the
/// header's bytes, without allocating, because the server runs it for every prepared answer.
public enum WeightedList {
    /// The token's bounds and weight (thousandths) of the list member in `bytes[from..<to]` (between
    /// two commas); nil when it is empty.
    public static func item(_ bytes: Span<UInt8>, from: Int, to: Int) -> (Int, Int, Int)? {
        var index = from
        while index < to, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") { index += 1 }
        let tagStart = index
        while index < to, bytes[index] != UInt8(ascii: ";"), bytes[index] != UInt8(ascii: " "), bytes[index] != UInt8(ascii: "\t") { index += 1 }
        let tagEnd = index
        guard tagEnd > tagStart else { return nil }
        var weight = 1000
        // Parameters: only `q` counts; a malformed weight makes the range unacceptable.
        while index < to {
            while index < to, bytes[index] != UInt8(ascii: ";") { index += 1 }
            guard index < to else { break }
            index += 1
            while index < to, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") { index += 1 }
            guard index + 1 < to, bytes[index] | 0x20 == UInt8(ascii: "q"), bytes[index + 1] == UInt8(ascii: "=") else { continue }
            weight = qValue(bytes, from: index + 2, to: to) ?? 0
        }
        return (tagStart, tagEnd, weight)
    }

    /// `0`, `0.5`, `1`, `1.000` as thousandths; nil for anything else.
    private static func qValue(_ bytes: Span<UInt8>, from: Int, to: Int) -> Int? {
        var end = to
        while end > from, bytes[end - 1] == UInt8(ascii: " ") || bytes[end - 1] == UInt8(ascii: "\t") { end -= 1 }
        var end2 = from
        while end2 < end, bytes[end2] != UInt8(ascii: ";") { end2 += 1 }
        end = end2
        guard end > from, bytes[from] == UInt8(ascii: "0") || bytes[from] == UInt8(ascii: "1") else { return nil }
        var value = Int(bytes[from] - UInt8(ascii: "0")) * 1000
        guard end > from + 1 else { return value }
        guard bytes[from + 1] == UInt8(ascii: "."), end - (from + 2) <= 3 else { return nil }
        var scale = 100
        for index in (from + 2)..<end {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else { return nil }
            value += Int(bytes[index] - UInt8(ascii: "0")) * scale
            scale /= 10
        }
        return min(value, 1000)
    }
}
