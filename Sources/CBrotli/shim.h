#ifndef PETSPOT_CBROTLI_SHIM_H
#define PETSPOT_CBROTLI_SHIM_H

// Brotli (RFC 7932) from Debian's libbrotli-dev, found through pkg-config (libbrotlienc,
// libbrotlidec). Its calls are plain C functions: nothing to wrap.
#include <brotli/encode.h>
#include <brotli/decode.h>

#endif
