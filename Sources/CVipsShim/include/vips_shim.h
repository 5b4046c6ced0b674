#ifndef PETSPOT_VIPS_SHIM_H
#define PETSPOT_VIPS_SHIM_H

// Fixed-arity wrappers over libvips for the photo variants (docs/photos.md). libvips's own calls take
// NULL-terminated option lists (C variadics), which Swift cannot call. This header includes no
// libvips header, so Swift sees only these functions and plain C types.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Outcome codes of the conversion functions.
enum {
    PETSPOT_VIPS_OK = 0,
    /// Not one of the formats we decode (JPEG, PNG, WebP, GIF, HEIF/AVIF): SVG, PDF, TIFF, HTML…
    PETSPOT_VIPS_UNSUPPORTED = 1,
    /// The header declares more pixels than allowed (a decompression bomb, or just too big).
    PETSPOT_VIPS_TOO_MANY_PIXELS = 2,
    /// The bytes could not be decoded (truncated, corrupt, lying about their format).
    PETSPOT_VIPS_DECODE_FAILED = 3,
    /// Encoding the result failed.
    PETSPOT_VIPS_ENCODE_FAILED = 4,
};

/// Starts libvips once per process: operation cache off (we cache the results ourselves), one
/// worker thread per conversion (the caller runs a bounded pool), loaders marked untrusted blocked.
/// Returns 0 on success.
int petspot_vips_start(void);

/// The header of an image: its loader is allowed, and its size. `format` receives a short name
/// ("jpeg", "png", "webp", "gif", "heif"). Reads only the header.
int petspot_vips_probe(const void *bytes, size_t length, int *width, int *height, int *pages,
                       char *format, size_t format_capacity);

/// Makes a WebP of the first frame of `bytes`, fitted inside max_width × max_height (never
/// enlarged, never cropped), EXIF orientation applied, converted to sRGB, all metadata stripped.
/// Refuses images whose header declares more than `max_pixels`. On success `*output` holds
/// `*output_length` bytes the caller releases with `petspot_vips_free`.
int petspot_vips_webp(const void *bytes, size_t length, int max_width, int max_height, int quality,
                      int64_t max_pixels, void **output, size_t *output_length,
                      int *output_width, int *output_height);

/// Makes a JPEG (quality `quality`) of the first frame of `bytes` that fits inside `max_width` ×
/// `max_height` (never enlarged), EXIF orientation applied, sRGB, transparency flattened on white,
/// all metadata stripped: what a visitor's photo becomes before it is sent upstream, and a photo
/// variant for a client that does not take WebP. Refuses images whose header declares more than
/// `max_pixels`. On success `*output` holds `*output_length` bytes the caller releases with
/// `petspot_vips_free`.
int petspot_vips_jpeg(const void *bytes, size_t length, int max_width, int max_height, int quality, int64_t max_pixels,
                      void **output, size_t *output_length, int *output_width, int *output_height);
/// Releases a buffer made by `petspot_vips_webp` or `petspot_vips_jpeg`.
void petspot_vips_free(void *buffer);

/// Copies libvips's error text (for the log) into `text` and clears it. libvips keeps one error
/// buffer per process, so under concurrency it may hold another conversion's message too.
void petspot_vips_take_error(char *text, size_t capacity);

/// What a decoded image carries, for tests: size, whether any EXIF, XMP, IPTC or ICC metadata is
/// attached, its EXIF orientation tag (1 when none), and the RGB of the pixel at (x, y).
int petspot_vips_inspect(const void *bytes, size_t length, int *width, int *height, int *has_metadata,
                         int *orientation, int x, int y, double *rgb);

/// Lowers the calling thread's scheduling priority by `niceness` (Linux schedules threads one by
/// one; Swift's Glibc module does not expose gettid). Returns 0 on success.
int petspot_lower_thread_priority(int niceness);

#ifdef __cplusplus
}
#endif

#endif
