// The compiler's prefetch hint, which Swift does not expose: evaluating a big layer tree waits
// on memory more than it computes, and the next sibling's data is known one layer ahead.
#ifndef LAMINA_PREFETCH_H
#define LAMINA_PREFETCH_H

/// Asks the processor to start loading `bytes` bytes at `address` (a hint: no fault, no effect
/// on results). One request per 128 bytes: x86 processors fetch a line's 128-byte buddy into L2
/// with it, and a request per line fills the line-fill buffers so that the requests themselves
/// wait.
static inline void lamina_prefetch(const void *address, long bytes) {
    const char *p = (const char *)address;
    for (long offset = 0; offset < bytes; offset += 128) __builtin_prefetch(p + offset, 0, 3);
}

#endif
