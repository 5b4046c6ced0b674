#ifndef PETSPOT_CMALLOC_SHIM_H
#define PETSPOT_CMALLOC_SHIM_H

#include <malloc.h>

// Why: <malloc.h> is not part of Swift's Glibc module; glibc gives each thread that allocates its own arena (up to 8 per core),
// each keeping freed memory: a few arenas hold the server's resident size down.
static inline void petspot_limit_malloc_arenas(int count) {
    mallopt(M_ARENA_MAX, count);
}

#endif
