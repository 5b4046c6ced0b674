/// The photo types the backend accepts, read from the bytes as its `file-type` check does (never
/// from the client's name or type). `ext` is the second half of the MIME type, which the backend
/// uses as the file extension: a JPEG is served as `/images/{id}.jpeg`.
enum ImageSignature: String, Sendable, CaseIterable {
    case jpeg, png, gif, webp, bmp, tiff, heic, heif

    /// The MIME type, also the `Content-Type` the photo is served with.
    var mimeType: String { "image/" + rawValue }

    /// The file extension of the stored photo.
    var ext: String { rawValue }

    /// The type of `bytes`, or nil when it is none of the accepted ones.
    static func detect(_ bytes: [UInt8]) -> ImageSignature? {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && Array(bytes[offset..<offset + prefix.count]) == prefix
        }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts(Array("GIF8".utf8)) { return .gif }
        if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) { return .webp }
        if starts([0x42, 0x4D]) { return .bmp }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        // ISO-BMFF: `ftyp` at 4, then the major brand (file-type looks at the major brand only).
        guard starts(Array("ftyp".utf8), at: 4), bytes.count >= 12 else { return nil }
        switch String(decoding: bytes[8..<12], as: UTF8.self) {
        case "heic", "heix": return .heic
        case "mif1": return .heif
        default: return nil
        }
    }
}
