extension VisitorLocation {
    /// The largest radius that means something: half the Earth's circumference in km.
    static let maxRangeKm = 20_038

    /// The longest number text read; a client writes at most ~24 characters (`-1.2345678901234567e-300`).
    static let maxNumberLength = 64

    /// A plain decimal floating-point number, as JavaScript's `Number` reads it (the backend's parser,
    /// docs/upstream.md §1): an optional sign, digits with an optional point (`52.`, `.5`), an optional
    /// exponent (`1e-05`, `-5E-5`). No `nan`, `inf`, hex, white space or trailing text: nil then.
    static func decimalDegrees(_ text: String) -> Double? {
        // A byte state machine, not a regular expression: one was compiled on every located request
        // and cost more than the rest of the parsing (measured). No allocation on this path.
        let bytes = text.utf8
        guard bytes.count <= maxNumberLength else { return nil }
        var state = NumberState.start
        for byte in bytes {
            guard let next = state.after(byte) else { return nil }
            state = next
        }
        guard state.isComplete else { return nil }
        return Double(text)
    }

    /// A `range` value: whole kilometres from 1; above `maxRangeKm` (even beyond `Int`) it means
    /// everywhere and is `maxRangeKm`, as the backend accepts any positive integer. Nil for
    /// 0, negatives, fractions and anything that is not digits (an optional leading `+` allowed).
    static func wholeKilometres(_ text: String) -> Int? {
        var digits = Substring(text)
        if digits.utf8.first == UInt8(ascii: "+") { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        guard let value = Int(digits) else {
            // Only digits, yet too big for Int: a positive integer all the same.
            return digits.utf8.contains(where: { $0 != UInt8(ascii: "0") }) ? maxRangeKm : nil
        }
        guard value >= 1 else { return nil }
        return min(value, maxRangeKm)
    }
}

/// Where `decimalDegrees` is in its text: `[+-]? (digits (. digits?)? | . digits) ([eE] [+-]? digits)?`.
private enum NumberState {
    case start, sign, integer, point, leadingPoint, fraction, exponent, exponentSign, exponentDigits

    /// Whether the text may end here (`52`, `52.`, `52.5`, `5e3`).
    var isComplete: Bool {
        switch self {
        case .integer, .point, .fraction, .exponentDigits: true
        default: false
        }
    }

    /// The state after `byte`; nil when the byte cannot come here.
    func after(_ byte: UInt8) -> NumberState? {
        let isDigit = (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        let isSign = byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
        let isPoint = byte == UInt8(ascii: ".")
        let isExponent = byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
        switch self {
        case .start: return isSign ? .sign : isDigit ? .integer : isPoint ? .leadingPoint : nil
        case .sign: return isDigit ? .integer : isPoint ? .leadingPoint : nil
        case .integer: return isDigit ? .integer : isPoint ? .point : isExponent ? .exponent : nil
        case .point, .fraction: return isDigit ? .fraction : isExponent ? .exponent : nil
        case .leadingPoint: return isDigit ? .fraction : nil
        case .exponent: return isSign ? .exponentSign : isDigit ? .exponentDigits : nil
        case .exponentSign, .exponentDigits: return isDigit ? .exponentDigits : nil
        }
    }
}
