import Foundation
internal import ImageResizer
import MicroHTTP

/// A visitor's photo made safe before anything is sent upstream (docs/report-flow.md "The photo made safe first"):
/// its type read from its bytes (JPEG, PNG, WebP, GIF, HEIC/HEIF), its pixel count read from its
/// header and capped before decoding (decompression bombs), then with libvips: EXIF orientation
/// applied, every metadata block removed (a phone photo's GPS position is where the reporter
/// lives), sRGB JPEG, longest side at most 2048 px. Conversions run on the photo pool, never on a
/// server thread.
struct ReportPhotos: Sendable {
    /// The bounded pool the photo variants use too.
    let pool: ConversionPool
    /// Most pixels a header may declare (`--max-photo-megapixels`).
    let maxPixels: Int

    /// The longest side of a photo sent upstream: plenty for a poster, a tenth of a 12 MP file.
    static let maxSide = 2048
    /// The largest photo accepted (`Limits.reportPhotoBytes`).
    static let maxUploadBytes = Limits.reportPhotoBytes
    /// Room for a form's text fields and multipart framing beside the photo (`Limits.formOverheadBytes`).
    static let formOverheadBytes = Limits.formOverheadBytes

    /// A photo ready to send: JPEG bytes and their size in pixels.
    struct SafePhoto: Sendable {
        let jpeg: [UInt8]
        let width: Int
        let height: Int
    }

    /// Why a photo was refused; each has its own message next to the `photo` field.
    enum Refusal: Error, Sendable, Equatable {
        /// Over `maxUploadBytes`.
        case tooLarge
        /// Not one of the formats we read (BMP, TIFF, SVG, PDF, anything else).
        case unsupported
        /// The header declares more pixels than allowed.
        case tooManyPixels
        /// Cut off or corrupt.
        case undecodable
        /// Too many conversions are waiting: try again in a moment.
        case busy

        /// The label for logs and metrics.
        var label: String {
            switch self {
            case .tooLarge: "too_large"
            case .unsupported: "unsupported_format"
            case .tooManyPixels: "too_many_pixels"
            case .undecodable: "undecodable"
            case .busy: "busy"
            }
        }
    }

    /// The uploaded file made safe, or why not.
    func makeSafe(_ file: UploadedFile) async -> Result<SafePhoto, Refusal> {
        guard file.byteCount <= ReportPhotos.maxUploadBytes else { return .failure(.tooLarge) }
        let maxPixels = self.maxPixels
        // Read on the pool's thread too: the bytes exist in memory only while a conversion runs,
        // so uploads waiting for the pool hold nothing but their temporary files.
        let converted = await pool.run { () -> Result<SafePhoto, Refusal> in
            guard let bytes = file.read() else { return .failure(.undecodable) }
            return ReportPhotos.convert(bytes, maxPixels: maxPixels)
        }
        return converted ?? .failure(.busy)
    }

    /// The same for bytes in hand (the JSON API's photo endpoint reads its part the same way).
    static func convert(_ bytes: [UInt8], maxPixels: Int) -> Result<SafePhoto, Refusal> {
        do {
            let image = try ImageResizer.jpeg(bytes, maxSide: maxSide, maxPixels: maxPixels)
            return .success(SafePhoto(jpeg: image.bytes, width: image.width, height: image.height))
        } catch .unsupportedFormat {
            return .failure(.unsupported)
        } catch .tooManyPixels {
            return .failure(.tooManyPixels)
        } catch {
            return .failure(.undecodable)
        }
    }
}
