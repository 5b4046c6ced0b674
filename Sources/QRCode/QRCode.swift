internal import CQREncode

/// A QR code as a square of dark and light modules, made by libqrencode (docs/poster.md). With
/// MicroHTTP and ImageResizer, the only Swift code that touches C pointers: the pointer libqrencode
/// returns is read and freed inside `init`, and never leaves it.
public struct QRCode: Sendable, Equatable {
    /// Modules per side (21 for version 1, + 4 per version).
    public let width: Int
    /// `width × width` modules, row by row; true is dark.
    public let modules: [Bool]

    /// The QR code of `text` (8-bit mode, error correction M: still readable with 15 % of it
    /// damaged, e.g. a torn or rained-on poster); nil when libqrencode refuses it (too long).
    public init?(_ text: String) {
        // QRcode_encodeString copies `text`; the result is owned here and freed by QRcode_free below.
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        guard width > 0, let data = code.pointee.data else { return nil }
        // Each byte describes one module; bit 0 is dark (qrencode.h "QRcode").
        modules = (0..<(width * width)).map { data[$0] & 1 == 1 }
        self.width = width
    }

    /// Whether the module at `row`, `column` is dark.
    public func isDark(row: Int, column: Int) -> Bool { modules[row * width + column] }

    /// An SVG path of the dark modules (one `M x y h1 v1 h-1 z` square each, runs of a row merged),
    /// in module units, offset by `quiet` modules of margin on every side.
    public func svgPath(quiet: Int = 4) -> String {
        var path = ""
        path.reserveCapacity(width * width * 4)
        for row in 0..<width {
            var column = 0
            while column < width {
                guard isDark(row: row, column: column) else {
                    column += 1
                    continue
                }
                let start = column
                while column < width, isDark(row: row, column: column) { column += 1 }
                path += "M\(start + quiet) \(row + quiet)h\(column - start)v1h-\(column - start)z"
            }
        }
        return path
    }

    /// Reads an `svgPath` back into modules (tests check the SVG says exactly the matrix).
    public static func modules(fromSVGPath path: String, width: Int, quiet: Int = 4) -> [Bool]? {
        var modules = [Bool](repeating: false, count: width * width)
        for square in path.split(separator: "z", omittingEmptySubsequences: true) {
            let numbers = square.split(whereSeparator: { "Mhv ".contains($0) }).compactMap { Int($0) }
            // "M x y h run v1 h-run": x, y, run, 1, -run.
            guard numbers.count == 5, numbers[3] == 1, numbers[4] == -numbers[2] else { return nil }
            let (x, y, run) = (numbers[0] - quiet, numbers[1] - quiet, numbers[2])
            guard y >= 0, y < width, x >= 0, run > 0, x + run <= width else { return nil }
            for column in x..<(x + run) { modules[y * width + column] = true }
        }
        return modules
    }
}
