// Shows ThreadSanitizer the locking of Swift's `Synchronization.Mutex` (docs/testing.md "Fuzzing and sanitizers").
//
// Why: on Linux, `Mutex.withLock` inlines only its fast path (an atomic compare-exchange on the
// lock word, which TSan sees). When the lock is contended it calls `_MutexHandle._lockSlow` /
// `_unlockSlow` in the toolchain's libswiftSynchronization.so, which spin and then wait in the
// kernel (FUTEX_LOCK_PI / FUTEX_UNLOCK_PI) without TSan instrumentation, so TSan misses the
// hand-over and reports a "Swift access race" on whatever the lock protects. A 15-line program
// that only increments a dictionary under one Mutex from four threads reproduces it
// (sanitizers/mutex-probe.swift; scripts/sanitizers.sh runs it with and without this library).
//
// What: preloaded (LD_PRELOAD) into the TSan test run only, this library defines the three slow
// paths itself, calls the real ones, and tells TSan "acquired" / "released" on the lock word's
// address — the same address the inlined fast path's atomics use, so both paths form one
// happens-before chain. Nothing else changes: the real functions do the locking.
//
// The signatures follow the Swift calling convention of those methods (checked by disassembly
// of Swift 6.3.1's library): `self`, the address of the lock word, is in the swift_self
// register; `_lockSlow(_ selfId: UInt32)` takes the thread id as its one argument.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define SWIFTCC __attribute__((swiftcall))
#define SWIFT_SELF __attribute__((swift_context))

typedef SWIFTCC void (*lock_slow_fn)(uint32_t self_id, void *SWIFT_SELF handle);
typedef SWIFTCC void (*unlock_slow_fn)(void *SWIFT_SELF handle);
typedef SWIFTCC bool (*try_lock_slow_fn)(void *SWIFT_SELF handle);
typedef void (*annotation_fn)(void *address);

#define LOCK_SLOW "$s15Synchronization12_MutexHandleV9_lockSlowyys6UInt32VF"
#define UNLOCK_SLOW "$s15Synchronization12_MutexHandleV11_unlockSlowyyF"
#define TRY_LOCK_SLOW "$s15Synchronization12_MutexHandleV12_tryLockSlowSbyF"

// The real function after this library in the lookup order; the process stops if there is none.
static void *next(const char *name) {
    void *function = dlsym(RTLD_NEXT, name);
    if (function == NULL) {
        fprintf(stderr, "tsan-mutex: %s not found after the preloaded library\n", name);
        abort();
    }
    return function;
}

// TSan's annotation, or nothing in a process without TSan (`swift test` itself is preloaded too).
static void annotate(const char *name, void *address) {
    annotation_fn function = (annotation_fn)dlsym(RTLD_DEFAULT, name);
    if (function != NULL) function(address);
}

SWIFTCC void $s15Synchronization12_MutexHandleV9_lockSlowyys6UInt32VF(uint32_t self_id, void *SWIFT_SELF handle)
    __asm__(LOCK_SLOW);
SWIFTCC void $s15Synchronization12_MutexHandleV9_lockSlowyys6UInt32VF(uint32_t self_id, void *SWIFT_SELF handle) {
    static lock_slow_fn real;
    if (real == NULL) real = (lock_slow_fn)next(LOCK_SLOW);
    real(self_id, handle);
    annotate("__tsan_acquire", handle);
}

SWIFTCC void $s15Synchronization12_MutexHandleV11_unlockSlowyyF(void *SWIFT_SELF handle) __asm__(UNLOCK_SLOW);
SWIFTCC void $s15Synchronization12_MutexHandleV11_unlockSlowyyF(void *SWIFT_SELF handle) {
    static unlock_slow_fn real;
    if (real == NULL) real = (unlock_slow_fn)next(UNLOCK_SLOW);
    annotate("__tsan_release", handle);
    real(handle);
}

SWIFTCC bool $s15Synchronization12_MutexHandleV12_tryLockSlowSbyF(void *SWIFT_SELF handle) __asm__(TRY_LOCK_SLOW);
SWIFTCC bool $s15Synchronization12_MutexHandleV12_tryLockSlowSbyF(void *SWIFT_SELF handle) {
    static try_lock_slow_fn real;
    if (real == NULL) real = (try_lock_slow_fn)next(TRY_LOCK_SLOW);
    bool locked = real(handle);
    if (locked) annotate("__tsan_acquire", handle);
    return locked;
}
