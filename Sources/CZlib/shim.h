#ifndef PETSPOT_CZLIB_SHIM_H
#define PETSPOT_CZLIB_SHIM_H

// zlib from Debian's zlib1g-dev. deflateInit2 and inflateInit2 are function-like macros (they pass
// the library version and the stream's size), which Swift cannot call: these fixed wrappers can.
#include <zlib.h>

// Why: deflateInit2 is a macro. windowBits 15 + 16 asks for the gzip wrapper (RFC 1952).
static inline int petspot_deflate_init_gzip(z_stream *stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}

// Why: inflateInit2 is a macro. windowBits 15 + 16 reads the gzip wrapper only.
static inline int petspot_inflate_init_gzip(z_stream *stream) {
    return inflateInit2(stream, 15 + 16);
}

#endif
