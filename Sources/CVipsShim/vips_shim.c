// Fixed-arity wrappers over libvips's variadic calls (see include/vips_shim.h). Every image and
// buffer made here is released here, except the WebP buffer handed to the caller, which
// `petspot_vips_free` releases.
#define _GNU_SOURCE
#include "vips_shim.h"

#include <sys/resource.h>
#include <unistd.h>

#include <string.h>
#include <vips/vips.h>

int petspot_vips_start(void) {
    if (VIPS_INIT("petspot-web") != 0) return -1;
    // Why: libvips caches recent operations (and their pixels); we keep the finished variants
    // ourselves, so its cache would only hold memory.
    vips_cache_set_max(0);
    vips_cache_set_max_mem(0);
    vips_cache_set_max_files(0);
    // Why: conversions run in our own bounded pool, at most one per core; one libvips worker per
    // conversion keeps that bound true.
    vips_concurrency_set(1);
    // Why: loaders libvips marks untrusted (ImageMagick, PDF, SVG, MATLAB…) never see upstream bytes.
    vips_block_untrusted_set(TRUE);
    return 0;
}

// The allowed loader for `bytes`, as a short format name; NULL for anything else. Checked before
// libvips decodes anything, so a file lying about its type (an SVG or PDF sent as image/png)
// is refused rather than rasterized.
static const char *allowed_format(const void *bytes, size_t length) {
    const char *loader = vips_foreign_find_load_buffer(bytes, length);
    if (loader == NULL) return NULL;
    static const struct { const char *loader; const char *format; } allowed[] = {
        {"VipsForeignLoadJpegBuffer", "jpeg"},
        {"VipsForeignLoadPngBuffer", "png"},
        {"VipsForeignLoadWebpBuffer", "webp"},
        {"VipsForeignLoadNsgifBuffer", "gif"},
        {"VipsForeignLoadGifBuffer", "gif"},
        {"VipsForeignLoadHeifBuffer", "heif"},
    };
    for (size_t i = 0; i < sizeof(allowed) / sizeof(allowed[0]); i++) {
        if (strcmp(loader, allowed[i].loader) == 0) return allowed[i].format;
    }
    return NULL;
}

int petspot_vips_probe(const void *bytes, size_t length, int *width, int *height, int *pages,
                       char *format, size_t format_capacity) {
    vips_error_clear();
    const char *name = allowed_format(bytes, length);
    if (name == NULL) return PETSPOT_VIPS_UNSUPPORTED;
    // Why sequential: only the header is read here; no pixel is decoded.
    VipsImage *image = vips_image_new_from_buffer(bytes, length, "", "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    if (image == NULL) return PETSPOT_VIPS_DECODE_FAILED;
    *width = vips_image_get_width(image);
    *height = vips_image_get_height(image);
    *pages = vips_image_get_n_pages(image);
    g_object_unref(image);
    if (format != NULL && format_capacity > 0) {
        strncpy(format, name, format_capacity - 1);
        format[format_capacity - 1] = '\0';
    }
    return PETSPOT_VIPS_OK;
}

// Why: libvips 8.14.1 (Debian bookworm) ignores webpsave's "strip" and writes the EXIF (GPS
// included), XMP and ICC blocks anyway. So every metadata field is removed from the image itself
// before saving, whatever the saver does: the EXIF/XMP/IPTC/ICC blobs, the parsed "exif-*" fields
// a saver could rebuild EXIF from, and the orientation tag (the pixels are upright already).
static gboolean is_metadata_field(const char *name) {
    return strcmp(name, VIPS_META_EXIF_NAME) == 0 || strcmp(name, VIPS_META_XMP_NAME) == 0
        || strcmp(name, VIPS_META_IPTC_NAME) == 0 || strcmp(name, VIPS_META_ICC_NAME) == 0
        || strcmp(name, VIPS_META_PHOTOSHOP_NAME) == 0 || strcmp(name, VIPS_META_ORIENTATION) == 0
        || strncmp(name, "exif-", 5) == 0 || strncmp(name, "xmp-", 4) == 0 || strncmp(name, "iptc-", 5) == 0
        || strncmp(name, "png-comment-", 12) == 0 || strcmp(name, "gif-comment") == 0;
}

static void remove_metadata(VipsImage *image) {
    gchar **fields = vips_image_get_fields(image);
    for (int i = 0; fields[i] != NULL; i++) {
        if (is_metadata_field(fields[i])) vips_image_remove(image, fields[i]);
    }
    g_strfreev(fields);
}

static uint32_t read_le32(const unsigned char *p) {
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static void write_le32(unsigned char *p, uint32_t value) {
    p[0] = value & 0xFF; p[1] = (value >> 8) & 0xFF; p[2] = (value >> 16) & 0xFF; p[3] = (value >> 24) & 0xFF;
}

// Why: even with every field removed, libvips 8.14's webpsave writes a fresh EXIF chunk of its
// own (resolution, orientation 1). Drops the EXIF, XMP and ICCP chunks from the RIFF container in
// place and clears their VP8X flags, so no variant carries any metadata chunk. Returns 0 when the
// container is well formed.
static int drop_webp_metadata_chunks(unsigned char *data, size_t *length) {
    if (*length < 12 || memcmp(data, "RIFF", 4) != 0 || memcmp(data + 8, "WEBP", 4) != 0) return -1;
    size_t read = 12, write = 12;
    while (read + 8 <= *length) {
        uint32_t size = read_le32(data + read + 4);
        size_t whole = 8 + (size_t)size + (size & 1);
        if (read + whole > *length) return -1;
        int drop = memcmp(data + read, "EXIF", 4) == 0 || memcmp(data + read, "XMP ", 4) == 0
            || memcmp(data + read, "ICCP", 4) == 0;
        if (!drop) {
            if (write != read) memmove(data + write, data + read, whole);
            if (memcmp(data + write, "VP8X", 4) == 0 && size >= 1) data[write + 8] &= (unsigned char)~(0x20 | 0x08 | 0x04);
            write += whole;
        }
        read += whole;
    }
    if (read != *length) return -1;
    write_le32(data + 4, (uint32_t)(write - 8));
    *length = write;
    return 0;
}

// The first frame of `bytes` fitted inside max_width × max_height (never enlarged or cropped),
// EXIF orientation applied, in sRGB, with every metadata field removed: what both savers start
// from. Returns a PETSPOT_VIPS_* code; on success `*out` is an image the caller unrefs.
static int bare_thumbnail(const void *bytes, size_t length, int max_width, int max_height, int64_t max_pixels,
                          VipsImage **out) {
    int width = 0, height = 0, pages = 0;
    int probed = petspot_vips_probe(bytes, length, &width, &height, &pages, NULL, 0);
    if (probed != PETSPOT_VIPS_OK) return probed;
    // Why before decoding: a small file may declare 20000 × 20000 pixels (a decompression bomb).
    if (width <= 0 || height <= 0 || (int64_t)width * (int64_t)height > max_pixels) return PETSPOT_VIPS_TOO_MANY_PIXELS;

    VipsImage *thumbnail = NULL;
    // Shrink-on-load (JPEG decodes at 1/2, 1/4, 1/8 scale; WebP and HEIF likewise), the first
    // frame only, EXIF orientation applied (no_rotate stays false), never enlarged
    // (VIPS_SIZE_DOWN), aspect ratio kept. fail_on=truncated: a cut-off file is an error, not a
    // photo with a grey bottom half. export_profile: pixels converted to sRGB, so stripping the
    // colour profile below changes no colour.
    if (vips_thumbnail_buffer((void *)bytes, length, &thumbnail, max_width,
                              "height", max_height,
                              "size", VIPS_SIZE_DOWN,
                              "option_string", "fail_on=truncated",
                              "export_profile", "srgb",
                              NULL) != 0) {
        return PETSPOT_VIPS_DECODE_FAILED;
    }
    // A copy of our own to change the metadata of (the thumbnail's header may be shared).
    VipsImage *bare = NULL;
    if (vips_copy(thumbnail, &bare, NULL) != 0) {
        g_object_unref(thumbnail);
        return PETSPOT_VIPS_DECODE_FAILED;
    }
    g_object_unref(thumbnail);
    remove_metadata(bare);
    *out = bare;
    return PETSPOT_VIPS_OK;
}

int petspot_vips_webp(const void *bytes, size_t length, int max_width, int max_height, int quality,
                      int64_t max_pixels, void **output, size_t *output_length,
                      int *output_width, int *output_height) {
    VipsImage *thumbnail = NULL;
    int made = bare_thumbnail(bytes, length, max_width, max_height, max_pixels, &thumbnail);
    if (made != PETSPOT_VIPS_OK) return made;
    void *buffer = NULL;
    size_t buffer_length = 0;
    // strip as well: no EXIF (GPS), XMP, IPTC or ICC in any variant. libvips 8.14 names this
    // option "strip"; 8.15 and later call it "keep" (and still accept "strip").
    // effort 2 of 0-6 (default 4): about 30 ms less per 640 px variant of a 12 MP photo for a few
    // per cent more bytes; the first request of a photo waits for this conversion.
    int saved = vips_webpsave_buffer(thumbnail, &buffer, &buffer_length,
                                     "Q", quality,
                                     "effort", 2,
                                     "strip", TRUE,
                                     NULL);
    // Pixels are decoded lazily, during the save: a truncated file fails here.
    if (saved != 0) {
        g_object_unref(thumbnail);
        if (buffer != NULL) g_free(buffer);
        return PETSPOT_VIPS_DECODE_FAILED;
    }
    if (drop_webp_metadata_chunks(buffer, &buffer_length) != 0) {
        g_object_unref(thumbnail);
        g_free(buffer);
        vips_error("petspot", "libvips wrote a WebP that is not a RIFF container");
        return PETSPOT_VIPS_ENCODE_FAILED;
    }
    *output_width = vips_image_get_width(thumbnail);
    *output_height = vips_image_get_height(thumbnail);
    g_object_unref(thumbnail);
    *output = buffer;
    *output_length = buffer_length;
    return PETSPOT_VIPS_OK;
}

int petspot_vips_jpeg(const void *bytes, size_t length, int max_width, int max_height, int quality, int64_t max_pixels,
                      void **output, size_t *output_length, int *output_width, int *output_height) {
    VipsImage *thumbnail = NULL;
    int made = bare_thumbnail(bytes, length, max_width, max_height, max_pixels, &thumbnail);
    if (made != PETSPOT_VIPS_OK) return made;
    // Why: JPEG has no transparency; a transparent PNG or WebP would otherwise turn black there.
    if (vips_image_hasalpha(thumbnail)) {
        VipsArrayDouble *white = vips_array_double_newv(3, 255.0, 255.0, 255.0);
        VipsImage *flat = NULL;
        int flattened = vips_flatten(thumbnail, &flat, "background", white, NULL);
        vips_area_unref(VIPS_AREA(white));
        g_object_unref(thumbnail);
        if (flattened != 0) return PETSPOT_VIPS_DECODE_FAILED;
        thumbnail = flat;
        remove_metadata(thumbnail);
    }
    void *buffer = NULL;
    size_t buffer_length = 0;
    // strip: no EXIF (GPS), XMP, IPTC or ICC; optimize_coding: smaller files for the same pixels;
    // interlace: a progressive JPEG shows early on a slow phone connection.
    int saved = vips_jpegsave_buffer(thumbnail, &buffer, &buffer_length,
                                     "Q", quality,
                                     "strip", TRUE,
                                     "optimize_coding", TRUE,
                                     "interlace", TRUE,
                                     NULL);
    if (saved != 0) {
        g_object_unref(thumbnail);
        if (buffer != NULL) g_free(buffer);
        return PETSPOT_VIPS_DECODE_FAILED;
    }
    *output_width = vips_image_get_width(thumbnail);
    *output_height = vips_image_get_height(thumbnail);
    g_object_unref(thumbnail);
    *output = buffer;
    *output_length = buffer_length;
    return PETSPOT_VIPS_OK;
}

void petspot_vips_free(void *buffer) {
    g_free(buffer);
}

void petspot_vips_take_error(char *text, size_t capacity) {
    if (capacity == 0) return;
    char *copy = vips_error_buffer_copy();  // copies and clears libvips's buffer
    strncpy(text, copy != NULL ? copy : "", capacity - 1);
    text[capacity - 1] = '\0';
    g_free(copy);
}

int petspot_vips_inspect(const void *bytes, size_t length, int *width, int *height, int *has_metadata,
                         int *orientation, int x, int y, double *rgb) {
    VipsImage *image = vips_image_new_from_buffer(bytes, length, "", NULL);
    if (image == NULL) return PETSPOT_VIPS_DECODE_FAILED;
    *width = vips_image_get_width(image);
    *height = vips_image_get_height(image);
    *has_metadata = vips_image_get_typeof(image, VIPS_META_EXIF_NAME) != 0
        || vips_image_get_typeof(image, VIPS_META_XMP_NAME) != 0
        || vips_image_get_typeof(image, VIPS_META_IPTC_NAME) != 0
        || vips_image_get_typeof(image, VIPS_META_ICC_NAME) != 0;
    *orientation = vips_image_get_orientation(image);
    double *vector = NULL;
    int count = 0;
    int result = vips_getpoint(image, &vector, &count, x, y, NULL);
    if (result == 0) {
        for (int band = 0; band < 3; band++) rgb[band] = vector[count >= 3 ? band : 0];
        g_free(vector);
    }
    g_object_unref(image);
    return result == 0 ? PETSPOT_VIPS_OK : PETSPOT_VIPS_DECODE_FAILED;
}

int petspot_lower_thread_priority(int niceness) {
    return setpriority(PRIO_PROCESS, (id_t)gettid(), getpriority(PRIO_PROCESS, (id_t)gettid()) + niceness);
}
