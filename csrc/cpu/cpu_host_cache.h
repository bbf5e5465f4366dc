/* cpu_host_cache.h - a small cache of big freed host blocks.
 *
 * Note [Host block cache]
 * Writing a fresh multi-megabyte output costs its page faults more than its
 * arithmetic, and glibc returns such blocks to the kernel at every free.
 * Loops over same-sized tensors (the common case) therefore reuse freed
 * blocks of 256 KiB and more (Note [Cached middle blocks] in
 * cpu_backend.c), by exact size, up to a byte budget:
 * DEVTENSOR_CPU_CACHE_BYTES (default 512 MiB; 0 turns the cache off, as the
 * sanitizer run does so that use-after-free stays visible).
 */
#ifndef DT_CPU_HOST_CACHE_H
#define DT_CPU_HOST_CACHE_H

#include <stddef.h>

/* A cached block of exactly `size` bytes, or NULL. */
void *dt_cpu_cache_take(size_t size);
/* Keep a freed block for reuse; returns 0 if the cache declined it (the
 * caller frees it). */
int dt_cpu_cache_give(void *ptr, size_t size);
/* Free every cached block. */
void dt_cpu_cache_empty(void);

#endif /* DT_CPU_HOST_CACHE_H */
