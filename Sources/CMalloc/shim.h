#ifndef PETSPOT_CMALLOC_SHIM_H
#define PETSPOT_CMALLOC_SHIM_H

#include <malloc.h>

// Why: <malloc.h> is not part of Swift's Glibc module; glibc gives each thread that allocates its own arena (up to 8 per core),
// each keeping freed memory: a few arenas hold the server's resident size down.
static inline void petspot_limit_malloc_arenas(int count) {
    mallopt(M_ARENA_MAX, count);
}

// Why: a fixed mmap threshold turns off glibc's sliding one, which rises to the largest block freed so far (up to 32 MiB): after
// the first 28 MB list body was freed, every later big body came from an arena and stayed resident after it was freed.
static inline void petspot_set_malloc_thresholds(int mmapBytes, int trimBytes) {
    mallopt(M_MMAP_THRESHOLD, mmapBytes);
    mallopt(M_TRIM_THRESHOLD, trimBytes);
}

// Why: glibc returns free memory in the middle of an arena only when asked (malloc_trim); returns whether it returned any.
static inline int petspot_trim_malloc(void) {
    return malloc_trim(0);
}

#endif
