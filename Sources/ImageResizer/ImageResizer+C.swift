internal import CVipsShim
import Synchronization

/// Why an image could not be resized. Never shown to visitors (they see the placeholder or an
/// error page); the detail goes to the log.
public enum ImageFailure: Error, Equatable, Sendable {
    /// Not JPEG, PNG, WebP, GIF or HEIF/AVIF (an SVG, a PDF, an HTML page sent as `image/png`…).
    case unsupportedFormat
    /// The header declares more pixels than allowed (a decompression bomb, or just too big).
    case tooManyPixels(width: Int, height: Int)
    /// Truncated, corrupt, or not what its header says.
    case undecodable(detail: String)
    /// libvips did not start (missing library); no image can be made.
    case unavailable

    /// A short label for metrics and logs.
    public var label: String {
        switch self {
        case .unsupportedFormat: "unsupported_format"
        case .tooManyPixels: "too_many_pixels"
        case .undecodable: "undecodable"
        case .unavailable: "unavailable"
        }
    }
}

/// An image's header: format and size, read without decoding pixels.
public struct ImageHeader: Sendable, Equatable {
    /// `jpeg`, `png`, `webp`, `gif` or `heif`.
    public let format: String
    public let width: Int
    public let height: Int
    /// Frames of an animation (GIF, WebP), 1 for a still image.
    public let pages: Int
}

/// A resized image.
public struct EncodedImage: Sendable {
    /// The encoded bytes.
    public let bytes: [UInt8]
    public let width: Int
    public let height: Int
    /// `image/webp` or `image/jpeg`.
    public let contentType: String
}

/// What a decoded image carries (tests read served variants back with it).
public struct ImageInspection: Sendable {
    public let width: Int
    public let height: Int
    /// Any EXIF, XMP, IPTC or ICC block attached.
    public let hasMetadata: Bool
    /// The EXIF orientation tag; 1 without one.
    public let orientation: Int
    /// Red, green, blue (0–255) of the pixel asked for.
    public let rgb: (Double, Double, Double)
}

/// Photo resizing with libvips (docs/platform.md "Images"): the only Swift code that calls it, through the
/// fixed-arity C functions of `CVipsShim`. Calls block their thread for the whole conversion: run
/// them on a `ConversionPool`, never on a request thread or Swift's cooperative pool.
public enum ImageResizer {
    /// libvips started once for the process; false when it failed.
    private static let started: Bool = petspot_vips_start() == 0

    /// Starts libvips now (otherwise the first conversion does); false when it cannot start.
    @discardableResult
    public static func start() -> Bool { started }

    /// The header of `bytes` when it is a format we decode; reads no pixels.
    public static func probe(_ bytes: [UInt8]) throws(ImageFailure) -> ImageHeader {
        guard started else { throw .unavailable }
        var width: Int32 = 0
        var height: Int32 = 0
        var pages: Int32 = 0
        var format = [CChar](repeating: 0, count: 16)
        let result = bytes.withUnsafeBytes { raw in
            petspot_vips_probe(raw.baseAddress, raw.count, &width, &height, &pages, &format, format.count)
        }
        try check(result, width: Int(width), height: Int(height))
        let name = String(decoding: format.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return ImageHeader(format: name, width: Int(width), height: Int(height), pages: Int(pages))
    }

    /// A WebP of the first frame of `bytes` that fits inside `maxWidth` × `maxHeight`: never
    /// enlarged or cropped, EXIF orientation applied, sRGB, every metadata block stripped.
    /// Refuses formats other than JPEG, PNG, WebP, GIF, HEIF/AVIF, and images whose header declares
    /// more than `maxPixels` pixels.
    public static func webp(_ bytes: [UInt8], maxWidth: Int, maxHeight: Int, quality: Int = 75, maxPixels: Int) throws(ImageFailure) -> EncodedImage {
        try convert(bytes, contentType: "image/webp") { raw, output, length, width, height in
            petspot_vips_webp(
                raw.baseAddress,
                raw.count,
                Int32(clamping: maxWidth),
                Int32(clamping: maxHeight),
                Int32(quality),
                Int64(maxPixels),
                output,
                length,
                width,
                height
            )
        }
    }

    /// A JPEG of the first frame of `bytes` whose longest side is at most `maxSide`: never
    /// enlarged, EXIF orientation applied, sRGB, transparency on white, every metadata block
    /// (EXIF with GPS, XMP, IPTC, ICC) stripped. What a reported photo becomes before it leaves us:
    /// a phone photo's GPS position is the reporter's home. HEIC/HEIF come out as JPEG too.
    public static func jpeg(_ bytes: [UInt8], maxSide: Int, quality: Int = 85, maxPixels: Int) throws(ImageFailure) -> EncodedImage {
        try jpeg(bytes, maxWidth: maxSide, maxHeight: maxSide, quality: quality, maxPixels: maxPixels)
    }

    /// The same JPEG fitted inside `maxWidth` × `maxHeight`: a photo variant for a client that does not
    /// take WebP (`Accept: image/jpeg`).
    public static func jpeg(_ bytes: [UInt8], maxWidth: Int, maxHeight: Int, quality: Int, maxPixels: Int) throws(ImageFailure) -> EncodedImage {
        try convert(bytes, contentType: "image/jpeg") { raw, output, length, width, height in
            petspot_vips_jpeg(
                raw.baseAddress,
                raw.count,
                Int32(clamping: maxWidth),
                Int32(clamping: maxHeight),
                Int32(quality),
                Int64(maxPixels),
                output,
                length,
                width,
                height
            )
        }
    }

    /// Runs one of the shim's converters and copies its output out of libvips's buffer.
    private static func convert(
        _ bytes: [UInt8],
        contentType: String,
        _ run: (
            UnsafeRawBufferPointer, UnsafeMutablePointer<UnsafeMutableRawPointer?>, UnsafeMutablePointer<Int>,
            UnsafeMutablePointer<Int32>, UnsafeMutablePointer<Int32>
        ) -> Int32
    ) throws(ImageFailure) -> EncodedImage {
        guard started else { throw .unavailable }
        var output: UnsafeMutableRawPointer?
        var length = 0
        var width: Int32 = 0
        var height: Int32 = 0
        let result = bytes.withUnsafeBytes { raw in run(raw, &output, &length, &width, &height) }
        // Ownership: on success libvips allocated `output` for us; it is copied, then freed here.
        defer { if let output { petspot_vips_free(output) } }
        if Int(result) == PETSPOT_VIPS_TOO_MANY_PIXELS {
            // The C side does not report the size: read the header again for the log.
            let header = try? probe(bytes)
            throw .tooManyPixels(width: header?.width ?? 0, height: header?.height ?? 0)
        }
        try check(result, width: 0, height: 0)
        guard let output, length > 0 else { throw .undecodable(detail: "libvips returned no bytes") }
        let encoded = Array(UnsafeRawBufferPointer(start: output, count: length))
        return EncodedImage(bytes: encoded, width: Int(width), height: Int(height), contentType: contentType)
    }

    /// Size, metadata, orientation tag and the colour of pixel (`x`, `y`) of an encoded image.
    public static func inspect(_ bytes: [UInt8], x: Int = 0, y: Int = 0) throws(ImageFailure) -> ImageInspection {
        guard started else { throw .unavailable }
        var width: Int32 = 0
        var height: Int32 = 0
        var metadata: Int32 = 0
        var orientation: Int32 = 1
        var rgb: [Double] = [0, 0, 0]
        let result = bytes.withUnsafeBytes { raw in
            petspot_vips_inspect(raw.baseAddress, raw.count, &width, &height, &metadata, &orientation, Int32(x), Int32(y), &rgb)
        }
        try check(result, width: Int(width), height: Int(height))
        return ImageInspection(
            width: Int(width),
            height: Int(height),
            hasMetadata: metadata != 0,
            orientation: Int(orientation),
            rgb: (rgb[0], rgb[1], rgb[2])
        )
    }

    /// Turns a C result code into `ImageFailure` (the one place that reads them).
    private static func check(_ result: Int32, width: Int, height: Int) throws(ImageFailure) {
        switch Int(result) {
        case PETSPOT_VIPS_OK: return
        case PETSPOT_VIPS_UNSUPPORTED: throw .unsupportedFormat
        case PETSPOT_VIPS_TOO_MANY_PIXELS: throw .tooManyPixels(width: width, height: height)
        default: throw .undecodable(detail: lastError())
        }
    }

    /// libvips's error text, taken (and cleared) for the log.
    private static func lastError() -> String {
        var text = [CChar](repeating: 0, count: 512)
        petspot_vips_take_error(&text, text.count)
        let message = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return message.split(separator: "\n").first.map(String.init) ?? "libvips failed"
    }
}
