/* cpu_backend.c - the CPU backend's vtable: host memory and the CPU loops. */
#define _DEFAULT_SOURCE 1 /* madvise and MADV_HUGEPAGE */
#include "cpu_backend.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "cpu_host_cache.h"
#include "cpu_loops.h"

#define CPU_ALIGNMENT 64

/* Note [Host alignment]
 * Large blocks are 64-byte aligned (cache lines, vector loads); small ones
 * come from malloc, whose 16 bytes suit every dtype and which is several
 * times faster than aligned_alloc on the small-tensor hot path. */
#define CPU_SMALL_BLOCK 65536

/* Note [Huge pages]
 * A fresh output is written once, so for big tensors the page faults of
 * first touch cost more than the arithmetic.  Like NumPy, blocks of 4 MiB
 * and more are 2 MiB-aligned and offered to the kernel for transparent huge
 * pages, which cuts those faults 512-fold where THP is enabled. */
#define CPU_HUGE_BLOCK (4u << 20)
#define CPU_HUGE_PAGE (2u << 20)

/* Note [Cached middle blocks]
 * Blocks from 256 KiB up to the huge ones go through the cache of Note
 * [Host block cache] too.  glibc maps such blocks afresh or trims the heap
 * under them depending on what else is alive: u8 * float32(0.5) of 10^6
 * elements took 1,800 page faults and 2.7 ms a call while an 8 MB tensor
 * was alive (0.2 ms once it was freed; NumPy 0.19), its float32 cast and
 * result mapped anew each time. */
#define CPU_CACHED_BLOCK (256u << 10)

static int cpu_device_count(void) { return 1; }

static dt_status cpu_alloc(int index, size_t nbytes, void *stream, void **ptr, void **ctx,
                           dt_error *err)
{
    (void)index;
    (void)stream;
    size_t rounded;
    if (__builtin_add_overflow(nbytes, (size_t)CPU_ALIGNMENT - 1, &rounded))
        return dt_error_set(err, DT_ERR_NOMEM, "cannot allocate %zu bytes on cpu", nbytes);
    rounded -= rounded % CPU_ALIGNMENT;
    if (rounded == 0)
        rounded = CPU_ALIGNMENT; /* a unique, valid pointer for empty tensors */
    void *p;
    if (rounded <= CPU_SMALL_BLOCK) {
        p = malloc(rounded);
    } else if (rounded < CPU_CACHED_BLOCK) {
        p = aligned_alloc(CPU_ALIGNMENT, rounded);
    } else if (rounded < CPU_HUGE_BLOCK) {
        p = dt_cpu_cache_take(rounded); /* Note [Cached middle blocks] */
        if (p == NULL)
            p = aligned_alloc(CPU_ALIGNMENT, rounded);
        *ctx = (void *)(uintptr_t)rounded;
    } else {
        size_t huge = rounded + (CPU_HUGE_PAGE - rounded % CPU_HUGE_PAGE) % CPU_HUGE_PAGE;
        if (huge < rounded)
            return dt_error_set(err, DT_ERR_NOMEM, "cannot allocate %zu bytes on cpu", nbytes);
        p = dt_cpu_cache_take(huge);
        if (p == NULL) {
            p = aligned_alloc(CPU_HUGE_PAGE, huge);
            if (p == NULL) { /* give the cached blocks back, then try once more */
                dt_cpu_cache_empty();
                p = aligned_alloc(CPU_HUGE_PAGE, huge);
            }
#ifdef MADV_HUGEPAGE
            if (p != NULL)
                madvise(p, huge, MADV_HUGEPAGE); /* advice only: failure is harmless */
#endif
        }
        *ctx = (void *)(uintptr_t)huge; /* cpu_free hands big blocks to the cache */
    }
    if (p == NULL)
        return dt_error_set(err, DT_ERR_NOMEM,
                            "out of host memory: failed to allocate %zu bytes on cpu", nbytes);
    *ptr = p;
    if (rounded < CPU_CACHED_BLOCK)
        *ctx = NULL;
    return DT_OK;
}

static void cpu_free(int index, void *ptr, void *ctx)
{
    (void)index;
    size_t cached = (size_t)(uintptr_t)ctx; /* the size of a block the cache may keep */
    if (cached == 0 || !dt_cpu_cache_give(ptr, cached))
        free(ptr);
}

static dt_status cpu_empty_cache(int index, dt_error *err)
{
    (void)index;
    (void)err;
    dt_cpu_cache_empty();
    return DT_OK;
}

static dt_status cpu_copy(dt_copy_kind kind, void *dst, int dst_index, const void *src,
                          int src_index, size_t nbytes, void *stream, int non_blocking,
                          dt_error *err)
{
    (void)kind; (void)dst_index; (void)src_index; (void)stream; (void)non_blocking; (void)err;
    memcpy(dst, src, nbytes);
    return DT_OK;
}

static dt_status cpu_get_device(int *index, dt_error *err)
{
    (void)err;
    *index = 0;
    return DT_OK;
}

static dt_status cpu_synchronize(int index, dt_error *err)
{
    (void)index;
    (void)err;
    return DT_OK;
}

const dt_backend_iface dt_cpu_backend = {
    .abi_version = DT_BACKEND_ABI_VERSION,
    .name = "cpu",
    .device_count = cpu_device_count,
    .get_device = cpu_get_device,
    .synchronize = cpu_synchronize,
    .alloc = cpu_alloc,
    .free = cpu_free,
    .empty_cache = cpu_empty_cache,
    .copy = cpu_copy,
    .run_loop = dt_cpu_run_loop,
    .generate = dt_cpu_generate,
    .run_index = dt_cpu_run_index,
    .run_reduce = dt_cpu_run_reduce,
    .run_scan = dt_cpu_run_scan,
    .run_search = dt_cpu_run_search,
    .run_sort = dt_cpu_run_sort,
    .run_matmul = dt_cpu_run_matmul,
    .run_linalg = dt_cpu_run_linalg,
};
