#ifndef PETSPOT_CPREFETCH_SHIM_H
#define PETSPOT_CPREFETCH_SHIM_H

// Why: Swift has no prefetch. A located page or feed reads fifty kept fragments that are rarely in cache at 50,000 items;
// asking for their lines before other work, without waiting for them, lets the misses overlap that work
// (docs/performance.md "Located pages").
static inline void petspot_prefetch(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

#endif
