/* cuda_alloc.c - the caching allocator for device memory.
 *
 * Note [Caching allocator]
 * cudaMalloc and cudaFree are slow (cudaFree synchronises the device), so
 * device memory is taken from CUDA in segments and handed out as blocks:
 *   - sizes are rounded up to 512 bytes;
 *   - requests up to 1 MiB come from the small pool, whose segments are
 *     2 MiB; larger requests come from the large pool: requests under
 *     10 MiB share 20 MiB segments, bigger ones get a segment rounded up to
 *     2 MiB;
 *   - a free block is found best-fit (smallest that fits) among the free
 *     blocks of the same device, pool and stream, and split when the rest is
 *     worth keeping (>= 512 bytes in the small pool, > 1 MiB in the large
 *     pool, so large segments are not shredded);
 *   - a freed block merges with free neighbours of its segment;
 *   - memory goes back to CUDA only on empty_cache, or when cudaMalloc runs
 *     out of memory: then every fully free segment is released and the
 *     allocation is tried once more before DT_ERR_DEVICE_OOM.
 *
 * Note [A segment of its own]
 * A shared segment (2 MiB for a small request, 20 MiB for one under
 * 10 MiB) may not fit where the request itself would: 1.1 MiB on a device
 * with 6 MiB free.  When the shared segment cannot be had even after the
 * cache is released, the request gets a segment of its own size (rounded
 * to 512 bytes, or to 2 MiB in the large pool) before it is refused: the
 * device's memory, not the pool's layout, decides whether it fits.
 * The hot path is a mutex, a binary search in a sorted array and perhaps a
 * split: no CUDA call.
 *
 * Note [Streams and reuse]
 * Every block belongs to the stream it was allocated on (its segment's
 * stream).  Kernels on that stream are ordered, so a block freed while
 * kernels still use it can be handed at once to the next allocation on the
 * same stream: that allocation's kernels run after them.  A block is never
 * handed to another stream, unless that stream was destroyed (then its
 * memory, idle after the synchronisation in stream_destroy, goes to the
 * default stream).  record_stream marks a block used by another stream: at
 * free, an event is recorded on each such stream and the block waits, out
 * of every pool, until all of them have completed (checked at the next
 * allocation, or waited for on OOM and empty_cache).
 *
 * Note [Free block index]
 * Free blocks of a pool are kept in one array sorted by (stream, size,
 * address); best fit is a binary search, insertion and removal a memmove.
 * With the few hundred free blocks a program has, this beats a tree on
 * constant factors.  Each pool's array is grown whenever a block is created
 * (capacity >= number of blocks of the pool), so inserting a freed block
 * never needs memory and free() cannot fail.
 *
 * DEVTENSOR_CUDA_NO_CACHE=1 turns caching off: every allocation is its own
 * cudaMalloc of exactly the bytes asked for, every free a cudaFree, so
 * compute-sanitizer sees every out-of-bounds access.
 */
#include "cuda_internal.h"
#include "env.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DT_CUDA_ALLOC_ROUND ((size_t)512)
#define DT_CUDA_SMALL_LIMIT ((size_t)1 << 20)     /* small pool: requests <= 1 MiB */
#define DT_CUDA_SMALL_SEGMENT ((size_t)2 << 20)   /* carved into small blocks */
#define DT_CUDA_MID_LIMIT ((size_t)10 << 20)      /* large requests < 10 MiB ... */
#define DT_CUDA_MID_SEGMENT ((size_t)20 << 20)    /* ... share 20 MiB segments */
#define DT_CUDA_SEGMENT_ROUND ((size_t)2 << 20)   /* bigger ones: rounded to 2 MiB */

typedef struct dt_cuda_block dt_cuda_block;
struct dt_cuda_block {
    char *ptr;
    size_t size;
    dt_cuda_stream *stream;          /* owner stream; NULL: legacy default stream */
    dt_cuda_block *prev, *next;      /* address-order neighbours in the segment */
    int device;
    unsigned char allocated;
    unsigned char in_pool;
    unsigned char small;
    unsigned char direct;            /* no-cache mode: its own cudaMalloc */
    int events_pending;              /* record_stream events not yet completed */
    dt_cuda_stream **uses;           /* streams added by record_stream */
    int nuses, cap_uses;
};

typedef struct dt_cuda_pool {
    dt_cuda_block **v;               /* free blocks, sorted (Note [Free block index]) */
    size_t n, cap;
    size_t nblocks;                  /* blocks of this pool, free or not */
} dt_cuda_pool;

typedef struct dt_cuda_pending {
    cudaEvent_t event;
    dt_cuda_block *block;
} dt_cuda_pending;

typedef struct dt_cuda_devalloc {
    pthread_mutex_t lock;
    dt_cuda_pool small, large;
    dt_cuda_pending *pend;
    size_t npend, cap_pend;
    cudaEvent_t *events;             /* idle events for record_stream */
    size_t nevents, cap_events;
    dt_memory_stats stats;
} dt_cuda_devalloc;

static pthread_once_t alloc_once = PTHREAD_ONCE_INIT;
static dt_cuda_devalloc *alloc_states;
static int alloc_nstates;
static int alloc_no_cache;

static void alloc_init(void)
{
    if (dt_env_flag("DEVTENSOR_CUDA_NO_CACHE", &alloc_no_cache) != 1) /* Note [Environment variables] */
        alloc_no_cache = 0;
    int n = dt_cuda_device_count();
    if (n <= 0)
        return;
    alloc_states = (dt_cuda_devalloc *)calloc((size_t)n, sizeof *alloc_states);
    if (alloc_states == NULL)
        return;
    for (int i = 0; i < n; i++)
        pthread_mutex_init(&alloc_states[i].lock, NULL);
    alloc_nstates = n;
}

static dt_status alloc_state(int index, dt_cuda_devalloc **out, dt_error *err)
{
    DT_TRY(dt_cuda_index_check(index, err));
    pthread_once(&alloc_once, alloc_init);
    if (alloc_states == NULL || index >= alloc_nstates)
        return dt_error_set(err, DT_ERR_NOMEM, "out of host memory for the CUDA allocator's tables");
    *out = &alloc_states[index];
    return DT_OK;
}

static void format_bytes(char *buf, size_t size, uint64_t n)
{
    static const char *units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
    double v = (double)n;
    int u = 0;
    while (v >= 1024.0 && u < 4) {
        v /= 1024.0;
        u++;
    }
    if (u == 0)
        snprintf(buf, size, "%llu bytes", (unsigned long long)n);
    else
        snprintf(buf, size, "%.2f %s", v, units[u]);
}

/* ---- the sorted free-block arrays ---- */

static int block_key_less(const dt_cuda_block *b, uintptr_t stream, size_t size, uintptr_t ptr)
{
    uintptr_t bs = (uintptr_t)b->stream;
    if (bs != stream)
        return bs < stream;
    if (b->size != size)
        return b->size < size;
    return (uintptr_t)b->ptr < ptr;
}

static size_t pool_lower_bound(const dt_cuda_pool *p, uintptr_t stream, size_t size, uintptr_t ptr)
{
    size_t lo = 0, hi = p->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (block_key_less(p->v[mid], stream, size, ptr))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Make room for one more block of the pool; fails only for host memory. */
static int pool_reserve_block(dt_cuda_pool *p)
{
    if (p->nblocks + 1 > p->cap) {
        size_t cap = p->cap != 0 ? p->cap * 2 : 64;
        if (cap > SIZE_MAX / sizeof(dt_cuda_block *))
            return 0;
        dt_cuda_block **v = (dt_cuda_block **)realloc(p->v, cap * sizeof *v);
        if (v == NULL)
            return 0;
        p->v = v;
        p->cap = cap;
    }
    p->nblocks++;
    return 1;
}

static void pool_insert(dt_cuda_pool *p, dt_cuda_block *b)
{
    size_t i = pool_lower_bound(p, (uintptr_t)b->stream, b->size, (uintptr_t)b->ptr);
    memmove(&p->v[i + 1], &p->v[i], (p->n - i) * sizeof *p->v); /* cap >= nblocks > n */
    p->v[i] = b;
    p->n++;
    b->in_pool = 1;
}

static void pool_remove(dt_cuda_pool *p, dt_cuda_block *b)
{
    size_t i = pool_lower_bound(p, (uintptr_t)b->stream, b->size, (uintptr_t)b->ptr);
    if (i >= p->n || p->v[i] != b)
        return; /* not there: cannot happen while in_pool is kept right */
    memmove(&p->v[i], &p->v[i + 1], (p->n - i - 1) * sizeof *p->v);
    p->n--;
    b->in_pool = 0;
}

/* Best fit: the smallest free block of `stream` with at least `size` bytes. */
static dt_cuda_block *pool_best_fit(dt_cuda_pool *p, dt_cuda_stream *stream, size_t size)
{
    size_t i = pool_lower_bound(p, (uintptr_t)stream, size, 0);
    if (i < p->n && p->v[i]->stream == stream)
        return p->v[i];
    return NULL;
}

/* ---- blocks ---- */

static dt_cuda_pool *block_pool(dt_cuda_devalloc *s, const dt_cuda_block *b)
{
    return b->small ? &s->small : &s->large;
}

static dt_cuda_block *block_new(dt_cuda_devalloc *s, char *ptr, size_t size, dt_cuda_stream *stream,
                                int device, int small)
{
    dt_cuda_block *b = (dt_cuda_block *)calloc(1, sizeof *b);
    if (b == NULL)
        return NULL;
    if (!pool_reserve_block(small ? &s->small : &s->large)) {
        free(b);
        return NULL;
    }
    b->ptr = ptr;
    b->size = size;
    b->stream = stream;
    b->device = device;
    b->small = (unsigned char)(small != 0);
    return b;
}

static void block_delete(dt_cuda_devalloc *s, dt_cuda_block *b)
{
    if (!b->direct)
        block_pool(s, b)->nblocks--;
    free(b->uses);
    free(b);
}

static int block_is_free(const dt_cuda_block *b, const dt_cuda_block *other)
{
    return b != NULL && b->in_pool && b->stream == other->stream;
}

/* Return a block to its pool, merging it with free neighbours. */
static void block_release(dt_cuda_devalloc *s, dt_cuda_block *b)
{
    dt_cuda_pool *p = block_pool(s, b);
    if (b->stream != NULL && __atomic_load_n(&b->stream->destroyed, __ATOMIC_ACQUIRE))
        b->stream = NULL; /* Note [Streams and reuse] */
    dt_cuda_block *prev = b->prev, *next = b->next;
    if (block_is_free(prev, b)) {
        pool_remove(p, prev);
        prev->size += b->size;
        prev->next = b->next;
        if (b->next != NULL)
            b->next->prev = prev;
        block_delete(s, b);
        b = prev;
    }
    if (block_is_free(next, b)) {
        pool_remove(p, next);
        b->size += next->size;
        b->next = next->next;
        if (next->next != NULL)
            next->next->prev = b;
        block_delete(s, next);
    }
    pool_insert(p, b);
}

/* ---- record_stream events ---- */

static void event_put(dt_cuda_devalloc *s, cudaEvent_t ev)
{
    if (s->nevents == s->cap_events) {
        size_t cap = s->cap_events != 0 ? s->cap_events * 2 : 16;
        cudaEvent_t *v = (cudaEvent_t *)realloc(s->events, cap * sizeof *v);
        if (v == NULL) {
            if (cudaEventDestroy(ev) != cudaSuccess)
                (void)cudaGetLastError();
            return;
        }
        s->events = v;
        s->cap_events = cap;
    }
    s->events[s->nevents++] = ev;
}

/* An idle event of the current device (the caller holds a guard). */
static cudaEvent_t event_get(dt_cuda_devalloc *s)
{
    if (s->nevents > 0)
        return s->events[--s->nevents];
    cudaEvent_t ev = NULL;
    if (cudaEventCreateWithFlags(&ev, cudaEventDisableTiming) != cudaSuccess) {
        (void)cudaGetLastError();
        return NULL;
    }
    return ev;
}

/* Hand back the blocks whose events completed (all of them when blocking). */
static void pending_process(dt_cuda_devalloc *s, int blocking)
{
    size_t keep = 0;
    for (size_t i = 0; i < s->npend; i++) {
        dt_cuda_pending pe = s->pend[i];
        cudaError_t e = blocking ? cudaEventSynchronize(pe.event) : cudaEventQuery(pe.event);
        if (e == cudaErrorNotReady) {
            (void)cudaGetLastError();
            s->pend[keep++] = pe;
            continue;
        }
        if (e != cudaSuccess)
            (void)cudaGetLastError(); /* a broken context: nothing more to wait for */
        event_put(s, pe.event);
        if (--pe.block->events_pending == 0)
            block_release(s, pe.block);
    }
    s->npend = keep;
}

static int pending_push(dt_cuda_devalloc *s, cudaEvent_t ev, dt_cuda_block *b)
{
    if (s->npend == s->cap_pend) {
        size_t cap = s->cap_pend != 0 ? s->cap_pend * 2 : 16;
        dt_cuda_pending *v = (dt_cuda_pending *)realloc(s->pend, cap * sizeof *v);
        if (v == NULL)
            return 0;
        s->pend = v;
        s->cap_pend = cap;
    }
    s->pend[s->npend].event = ev;
    s->pend[s->npend].block = b;
    s->npend++;
    return 1;
}

/* ---- giving memory back to CUDA ---- */

/* cudaFree every fully free segment (the caller holds a guard). */
static void release_cached(dt_cuda_devalloc *s)
{
    dt_cuda_pool *pools[2] = {&s->small, &s->large};
    for (int k = 0; k < 2; k++) {
        dt_cuda_pool *p = pools[k];
        for (size_t i = p->n; i-- > 0;) {
            dt_cuda_block *b = p->v[i];
            if (b->prev != NULL || b->next != NULL)
                continue;
            pool_remove(p, b);
            if (cudaFree(b->ptr) != cudaSuccess)
                (void)cudaGetLastError();
            s->stats.reserved -= b->size;
            block_delete(s, b);
        }
    }
}

/* ---- the slots ---- */

static size_t segment_size(size_t size, int small, int *ok)
{
    *ok = 1;
    if (small)
        return DT_CUDA_SMALL_SEGMENT;
    if (size < DT_CUDA_MID_LIMIT)
        return DT_CUDA_MID_SEGMENT;
    if (size > SIZE_MAX - (DT_CUDA_SEGMENT_ROUND - 1)) {
        *ok = 0;
        return 0;
    }
    return (size + DT_CUDA_SEGMENT_ROUND - 1) & ~(DT_CUDA_SEGMENT_ROUND - 1);
}

static dt_status oom_error(dt_cuda_devalloc *s, int index, size_t nbytes, dt_error *err)
{
    size_t free_b = 0, total_b = 0;
    if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess)
        (void)cudaGetLastError();
    char req[32], fr[32], tot[32], al[32], ca[32];
    format_bytes(req, sizeof req, nbytes);
    format_bytes(fr, sizeof fr, free_b);
    format_bytes(tot, sizeof tot, total_b);
    format_bytes(al, sizeof al, s->stats.allocated);
    format_bytes(ca, sizeof ca, s->stats.reserved - s->stats.allocated);
    return dt_error_set(err, DT_ERR_DEVICE_OOM,
                        "CUDA out of memory on cuda:%d: tried to allocate %s (%zu bytes); the device "
                        "has %s (%zu bytes) free of %s total; devtensor holds %s allocated and %s "
                        "(%llu bytes) cached (reserved but unallocated)",
                        index, req, nbytes, fr, free_b, tot, al, ca,
                        (unsigned long long)(s->stats.reserved - s->stats.allocated));
}

static void stats_add_allocated(dt_cuda_devalloc *s, size_t n)
{
    s->stats.allocated += n;
    s->stats.alloc_count++;
    if (s->stats.allocated > s->stats.max_allocated)
        s->stats.max_allocated = s->stats.allocated;
}

static void stats_add_reserved(dt_cuda_devalloc *s, size_t n)
{
    s->stats.reserved += n;
    s->stats.device_alloc_count++;
    if (s->stats.reserved > s->stats.max_reserved)
        s->stats.max_reserved = s->stats.reserved;
}

/* cudaMalloc with the OOM policy of Note [Caching allocator] (lock held, guard entered). */
static dt_status device_malloc(dt_cuda_devalloc *s, int index, size_t bytes, size_t asked, void **out,
                               dt_error *err)
{
    cudaError_t e = cudaMalloc(out, bytes);
    if (e == cudaErrorMemoryAllocation) {
        (void)cudaGetLastError(); /* not sticky: the context stays usable */
        if (!alloc_no_cache) {
            pending_process(s, 1);
            release_cached(s);
            e = cudaMalloc(out, bytes);
        }
        if (e == cudaErrorMemoryAllocation) {
            (void)cudaGetLastError();
            *out = NULL;
            return oom_error(s, index, asked, err);
        }
    }
    if (e != cudaSuccess) {
        *out = NULL;
        return dt_cuda_error_set(err, e, "cudaMalloc", index);
    }
    return DT_OK;
}

dt_status dt_cuda_alloc(int index, size_t nbytes, void *stream, void **ptr, void **ctx, dt_error *err)
{
    *ptr = NULL;
    *ctx = NULL;
    dt_cuda_devalloc *s;
    DT_TRY(alloc_state(index, &s, err));
    dt_cuda_stream *strm;
    DT_TRY(dt_cuda_stream_resolve(index, stream, &strm, NULL, err));
    if (nbytes == 0)
        return DT_OK; /* an empty allocation is (NULL, NULL); free accepts it */
    if (nbytes > SIZE_MAX - (DT_CUDA_ALLOC_ROUND - 1))
        return dt_error_set(err, DT_ERR_DEVICE_OOM, "CUDA out of memory on cuda:%d: tried to allocate %zu bytes",
                            index, nbytes);
    size_t size = (nbytes + DT_CUDA_ALLOC_ROUND - 1) & ~(DT_CUDA_ALLOC_ROUND - 1);
    int small = size <= DT_CUDA_SMALL_LIMIT;
    dt_status st = DT_OK;
    dt_cuda_guard g;
    int guarded = 0;

    pthread_mutex_lock(&s->lock);
    if (alloc_no_cache) {
        void *p = NULL;
        st = dt_cuda_guard_enter(&g, index, err);
        if (st != DT_OK)
            goto out;
        guarded = 1;
        st = device_malloc(s, index, nbytes, nbytes, &p, err);
        if (st != DT_OK)
            goto out;
        dt_cuda_block *b = (dt_cuda_block *)calloc(1, sizeof *b);
        if (b == NULL) {
            if (cudaFree(p) != cudaSuccess)
                (void)cudaGetLastError();
            st = dt_error_set(err, DT_ERR_NOMEM, "out of host memory in the CUDA allocator");
            goto out;
        }
        b->ptr = (char *)p;
        b->size = nbytes;
        b->stream = strm;
        b->device = index;
        b->direct = 1;
        b->allocated = 1;
        stats_add_reserved(s, nbytes);
        stats_add_allocated(s, nbytes);
        *ptr = p;
        *ctx = b;
        goto out;
    }

    if (s->npend > 0)
        pending_process(s, 0);
    dt_cuda_pool *p = small ? &s->small : &s->large;
    dt_cuda_block *b = pool_best_fit(p, strm, size);
    if (b != NULL)
        pool_remove(p, b);
    else {
        st = dt_cuda_guard_enter(&g, index, err);
        if (st != DT_OK)
            goto out;
        guarded = 1;
        int ok;
        size_t seg = segment_size(size, small, &ok);
        if (!ok) {
            st = oom_error(s, index, nbytes, err);
            goto out;
        }
        void *mem = NULL;
        st = device_malloc(s, index, seg, nbytes, &mem, err);
        /* (segment_size checked that the rounding cannot overflow) */
        size_t own = small ? size : (size + DT_CUDA_SEGMENT_ROUND - 1) & ~(DT_CUDA_SEGMENT_ROUND - 1);
        if (st == DT_ERR_DEVICE_OOM && own < seg) { /* Note [A segment of its own] */
            seg = own;
            st = device_malloc(s, index, seg, nbytes, &mem, err);
        }
        if (st != DT_OK)
            goto out;
        b = block_new(s, (char *)mem, seg, strm, index, small);
        if (b == NULL) {
            if (cudaFree(mem) != cudaSuccess)
                (void)cudaGetLastError();
            st = dt_error_set(err, DT_ERR_NOMEM, "out of host memory in the CUDA allocator");
            goto out;
        }
        stats_add_reserved(s, seg);
    }
    size_t rest = b->size - size;
    if (small ? rest >= DT_CUDA_ALLOC_ROUND : rest > DT_CUDA_SMALL_LIMIT) {
        dt_cuda_block *r = block_new(s, b->ptr + size, rest, b->stream, index, small);
        if (r != NULL) { /* without host memory, just do not split */
            r->prev = b;
            r->next = b->next;
            if (b->next != NULL)
                b->next->prev = r;
            b->next = r;
            b->size = size;
            block_release(s, r);
        }
    }
    b->allocated = 1;
    stats_add_allocated(s, b->size);
    *ptr = b->ptr;
    *ctx = b;
out:
    if (guarded)
        dt_cuda_guard_exit(&g);
    pthread_mutex_unlock(&s->lock);
    return st;
}

void dt_cuda_free(int index, void *ptr, void *ctx)
{
    dt_cuda_block *b = (dt_cuda_block *)ctx;
    (void)index;
    if (b == NULL || b->ptr != (char *)ptr)
        return;
    dt_cuda_devalloc *s;
    if (alloc_state(b->device, &s, NULL) != DT_OK)
        return;
    pthread_mutex_lock(&s->lock);
    if (!b->allocated) { /* a double free: ignore it rather than corrupt the pools */
        pthread_mutex_unlock(&s->lock);
        return;
    }
    b->allocated = 0;
    s->stats.allocated -= b->size;
    dt_cuda_guard g;
    if (b->direct) {
        if (dt_cuda_guard_enter(&g, b->device, NULL) == DT_OK) {
            if (cudaFree(b->ptr) != cudaSuccess)
                (void)cudaGetLastError();
            dt_cuda_guard_exit(&g);
        }
        s->stats.reserved -= b->size;
        block_delete(s, b);
        pthread_mutex_unlock(&s->lock);
        return;
    }
    if (b->nuses > 0 && dt_cuda_guard_enter(&g, b->device, NULL) == DT_OK) {
        for (int i = 0; i < b->nuses; i++) {
            dt_cuda_stream *u = b->uses[i];
            if (u != NULL && __atomic_load_n(&u->destroyed, __ATOMIC_ACQUIRE))
                continue; /* synchronised when it was destroyed */
            cudaStream_t raw = dt_cuda_stream_raw(u);
            cudaEvent_t ev = event_get(s);
            if (ev != NULL && cudaEventRecord(ev, raw) == cudaSuccess && pending_push(s, ev, b)) {
                b->events_pending++;
                continue;
            }
            /* no event to wait on later: wait now, so the block is safe */
            (void)cudaGetLastError();
            if (ev != NULL) {
                if (cudaEventSynchronize(ev) != cudaSuccess)
                    (void)cudaGetLastError();
                event_put(s, ev);
            }
            if (cudaStreamSynchronize(raw) != cudaSuccess)
                (void)cudaGetLastError();
        }
        dt_cuda_guard_exit(&g);
    }
    b->nuses = 0;
    if (b->events_pending == 0)
        block_release(s, b);
    pthread_mutex_unlock(&s->lock);
}

dt_status dt_cuda_alloc_record_stream(int index, void *ptr, void *ctx, void *stream, dt_error *err)
{
    dt_cuda_block *b = (dt_cuda_block *)ctx;
    if (b == NULL)
        return DT_OK; /* an empty allocation */
    if (b->ptr != (char *)ptr)
        return dt_error_set(err, DT_ERR_VALUE, "record_stream: the pointer does not match its allocation");
    if (b->device != index)
        return dt_error_set(err, DT_ERR_VALUE, "record_stream: the memory is on cuda:%d, not cuda:%d",
                            b->device, index);
    dt_cuda_devalloc *s;
    DT_TRY(alloc_state(index, &s, err));
    dt_cuda_stream *u = (dt_cuda_stream *)stream; /* Note [NULL streams]: NULL is the default stream */
    if (u != NULL && u->device != index)
        return dt_error_set(err, DT_ERR_VALUE,
                            "record_stream: a stream of cuda:%d cannot use memory of cuda:%d", u->device, index);
    if (b->direct)
        return DT_OK; /* cudaFree synchronises the device */
    dt_status st = DT_OK;
    pthread_mutex_lock(&s->lock);
    if (!b->allocated)
        st = dt_error_set(err, DT_ERR_VALUE, "record_stream: the memory was already freed");
    else if (u != b->stream) {
        int seen = 0;
        for (int i = 0; i < b->nuses; i++)
            seen |= b->uses[i] == u;
        if (!seen) {
            if (b->nuses == b->cap_uses) {
                int cap = b->cap_uses != 0 ? b->cap_uses * 2 : 4;
                dt_cuda_stream **v = (dt_cuda_stream **)realloc(b->uses, (size_t)cap * sizeof *v);
                if (v == NULL) {
                    st = dt_error_set(err, DT_ERR_NOMEM, "out of host memory in record_stream");
                    goto out;
                }
                b->uses = v;
                b->cap_uses = cap;
            }
            b->uses[b->nuses++] = u;
        }
    }
out:
    pthread_mutex_unlock(&s->lock);
    return st;
}

void dt_cuda_alloc_stream_retire(int index, dt_cuda_stream *stream)
{
    dt_cuda_devalloc *s;
    if (stream == NULL || alloc_state(index, &s, NULL) != DT_OK)
        return;
    pthread_mutex_lock(&s->lock);
    dt_cuda_pool *pools[2] = {&s->small, &s->large};
    for (int k = 0; k < 2; k++) {
        dt_cuda_block *b;
        while ((b = pool_best_fit(pools[k], stream, 0)) != NULL) {
            pool_remove(pools[k], b);
            b->stream = NULL;
            block_release(s, b);
        }
    }
    pthread_mutex_unlock(&s->lock);
}

dt_status dt_cuda_alloc_stats(int index, dt_memory_stats *out, dt_error *err)
{
    dt_cuda_devalloc *s;
    DT_TRY(alloc_state(index, &s, err));
    pthread_mutex_lock(&s->lock);
    *out = s->stats;
    pthread_mutex_unlock(&s->lock);
    return DT_OK;
}

dt_status dt_cuda_alloc_reset_peak(int index, dt_error *err)
{
    dt_cuda_devalloc *s;
    DT_TRY(alloc_state(index, &s, err));
    pthread_mutex_lock(&s->lock);
    s->stats.max_allocated = s->stats.allocated;
    s->stats.max_reserved = s->stats.reserved;
    pthread_mutex_unlock(&s->lock);
    return DT_OK;
}

dt_status dt_cuda_alloc_empty_cache(int index, dt_error *err)
{
    dt_cuda_devalloc *s;
    DT_TRY(alloc_state(index, &s, err));
    /* a device this process never allocated on has nothing cached: do not
     * make it current, which would create a CUDA context there */
    pthread_mutex_lock(&s->lock);
    int untouched = s->stats.reserved == 0 && s->npend == 0 && s->nevents == 0;
    pthread_mutex_unlock(&s->lock);
    if (untouched)
        return DT_OK;
    dt_cuda_guard g;
    DT_TRY(dt_cuda_guard_enter(&g, index, err));
    pthread_mutex_lock(&s->lock);
    pending_process(s, 1);
    release_cached(s);
    for (size_t i = 0; i < s->nevents; i++)
        if (cudaEventDestroy(s->events[i]) != cudaSuccess)
            (void)cudaGetLastError();
    s->nevents = 0;
    pthread_mutex_unlock(&s->lock);
    dt_cuda_guard_exit(&g);
    return DT_OK;
}

dt_status dt_cuda_mem_get_info(int index, size_t *free_bytes, size_t *total_bytes, dt_error *err)
{
    dt_cuda_guard g;
    DT_TRY(dt_cuda_guard_enter(&g, index, err));
    dt_status st = DT_CUDA_CALL(err, index, cudaMemGetInfo, (free_bytes, total_bytes));
    dt_cuda_guard_exit(&g);
    return st;
}
