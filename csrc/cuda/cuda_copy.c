/* cuda_copy.c - transfers of contiguous bytes between host and devices, and
 * pinned host memory.
 *
 * Streams (Note [NULL streams] in cuda_stream.c): a host<->device copy runs
 * on the given stream of the device side, NULL meaning that device's
 * current stream; a device->device copy runs on a stream of the
 * destination device.
 *
 * Note [When copies block]
 *   host -> device, pinned source:  asynchronous if non_blocking, else
 *                                   waited for.  A pinned block freed
 *                                   while the copy runs is freed only
 *                                   once it is done (Note [Pinned blocks
 *                                   in flight]).
 *   host -> device, pageable:       synchronous (the source may be reused
 *                                   or freed as soon as copy() returns).
 *   device -> host, pinned target:  asynchronous if non_blocking.
 *   device -> host, pageable:       always finished before returning.
 *   device -> device, one device:   stream-ordered, never blocks the host.
 *   device -> device, peers:        stream-ordered when the devices can
 *                                   access each other (cudaMemcpyPeerAsync
 *                                   after events that order the copy after
 *                                   the source device's current stream and
 *                                   that stream after the copy), otherwise
 *                                   staged through pinned host buffers and
 *                                   synchronous.
 *
 * Note [Pageable staging]
 * A pageable buffer cannot be read by the GPU's copy engines, so CUDA
 * copies it into its own pinned buffers first.  devtensor does that step
 * itself for copies of DT_CUDA_STAGE_MIN bytes or more: a ring of
 * DT_CUDA_RING_BUFFERS pinned buffers of DT_CUDA_RING_CHUNK bytes (64 MiB in
 * all, allocated on the first large pageable copy and kept; cudaHostAlloc
 * costs milliseconds), filled with memcpy by the host while the copy
 * engine drains the previous buffer (an event per buffer says when it may
 * be refilled).  The chunk size is n/8 clamped to [1, 16] MiB so that even a
 * 4 MiB copy overlaps.  One ring serves the process (a mutex; concurrent
 * large copies take turns).  This is what PyTorch's pageable .cuda() gets
 * from the driver, with larger chunks; devtensor stages itself so that the
 * behaviour is the same on every driver and so that the ring can be shared
 * with the peer copies that cannot go device to device.  Setting
 * DEVTENSOR_CUDA_STAGING=0 hands pageable copies to the driver instead
 * (bench/run.py compares both).  Device->host copies into pageable memory
 * use the same ring in the other direction.
 */
#include "cuda_internal.h"
#include "env.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define DT_CUDA_RING_BUFFERS 4
#define DT_CUDA_RING_CHUNK ((size_t)16 << 20)
#define DT_CUDA_RING_MIN_CHUNK ((size_t)1 << 20)
#define DT_CUDA_STAGE_MIN ((size_t)4 << 20)

/* ---- pinned host memory ---- */

/* Note [Pinned blocks in flight]
 * A non_blocking copy from (or into) pinned memory returns before the copy
 * engine has read (or written) the host bytes, and the core may drop the
 * last reference to the pinned storage at once: dt_storage_release ->
 * host_free_pinned -> cudaFreeHost while the DMA still runs, after which the
 * copy would read freed (possibly reallocated) memory.  So every pinned
 * block that host_alloc_pinned hands out is registered (base, size, sorted
 * by base), and every asynchronous copy that touches a registered block
 * records an event on its stream into the block's list of uses (one event
 * per (device, stream): re-recording it moves it to the newest copy, which
 * finishes after the older ones on that stream).  host_free_pinned then
 * frees a block whose events have all completed at once; one still in
 * flight moves to a deferred list and is freed by a later pinned call
 * (alloc, free, tracked copy) once its events have completed, so freeing
 * never blocks the host (it runs in tensor deallocation, GIL held).  When
 * cudaHostAlloc runs out of memory, the deferred blocks are waited for and
 * freed and the allocation is retried.  If an event cannot be created or
 * recorded, the copy is waited for instead (correct, only slower).
 * Pinned memory that devtensor did not allocate (another library's
 * cudaHostRegister) is not tracked: its owner frees it.  The staging ring
 * (below) is never freed and its copies are synchronous. */

typedef struct pinned_use {
    cudaEvent_t event;
    cudaStream_t stream;
    int device;
} pinned_use;

typedef struct pinned_block {
    char *base;
    size_t size;
    pinned_use *uses;
    int nuses, cap;
} pinned_block;

static pthread_mutex_t pinned_lock = PTHREAD_MUTEX_INITIALIZER;
static pinned_block *pinned_live;   /* sorted by base */
static int pinned_nlive, pinned_cap_live;
static pinned_block *pinned_deferred; /* freed by the caller, still in flight */
static int pinned_ndeferred, pinned_cap_deferred;

static int grow(void **arr, int *cap, int need, size_t elem)
{
    if (need <= *cap)
        return 1;
    int ncap = *cap ? *cap * 2 : 8;
    while (ncap < need)
        ncap *= 2;
    void *p = realloc(*arr, (size_t)ncap * elem);
    if (p == NULL)
        return 0;
    *arr = p;
    *cap = ncap;
    return 1;
}

/* Drop the uses whose events completed; returns the number still pending.
 * wait != 0: wait for each instead. (lock held) */
static int block_prune(pinned_block *b, int wait)
{
    int keep = 0;
    for (int i = 0; i < b->nuses; i++) {
        cudaError_t e = wait ? cudaEventSynchronize(b->uses[i].event) : cudaEventQuery(b->uses[i].event);
        if (e == cudaErrorNotReady) {
            (void)cudaGetLastError();
            b->uses[keep++] = b->uses[i];
            continue;
        }
        if (e != cudaSuccess) /* a sticky error: the work will never run; nothing to wait for */
            (void)cudaGetLastError();
        if (cudaEventDestroy(b->uses[i].event) != cudaSuccess)
            (void)cudaGetLastError();
    }
    b->nuses = keep;
    return keep;
}

static void block_release(pinned_block *b)
{
    if (cudaFreeHost(b->base) != cudaSuccess)
        (void)cudaGetLastError();
    free(b->uses);
    b->uses = NULL;
}

/* Free the deferred blocks that are done (all of them, waiting, if wait).
 * (lock held) */
static void deferred_sweep(int wait)
{
    int keep = 0;
    for (int i = 0; i < pinned_ndeferred; i++) {
        if (block_prune(&pinned_deferred[i], wait) == 0)
            block_release(&pinned_deferred[i]);
        else
            pinned_deferred[keep++] = pinned_deferred[i];
    }
    pinned_ndeferred = keep;
}

/* index of the live block containing [p, p + n), or -1 (lock held) */
static int live_find(const char *p, size_t n)
{
    int lo = 0, hi = pinned_nlive - 1, at = -1;
    while (lo <= hi) { /* the last block with base <= p */
        int mid = lo + (hi - lo) / 2;
        if (pinned_live[mid].base <= p) {
            at = mid;
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    if (at < 0)
        return -1;
    const pinned_block *b = &pinned_live[at];
    size_t off = (size_t)(p - b->base);
    return off < b->size && n <= b->size - off ? at : -1;
}

/* Record that an asynchronous copy on stream s of device dev (guard
 * entered) uses host bytes [p, p + n).  If that cannot be recorded, wait
 * for the copy (Note [Pinned blocks in flight]). */
static dt_status pinned_track(const void *p, size_t n, int dev, cudaStream_t s, dt_error *err)
{
    int ok = 1;
    pthread_mutex_lock(&pinned_lock);
    deferred_sweep(0);
    int i = live_find((const char *)p, n);
    if (i >= 0) {
        pinned_block *b = &pinned_live[i];
        block_prune(b, 0);
        int u = 0;
        while (u < b->nuses && !(b->uses[u].device == dev && b->uses[u].stream == s))
            u++;
        if (u == b->nuses) {
            cudaEvent_t ev = NULL;
            if (!grow((void **)&b->uses, &b->cap, b->nuses + 1, sizeof *b->uses) ||
                cudaEventCreateWithFlags(&ev, cudaEventDisableTiming) != cudaSuccess) {
                (void)cudaGetLastError();
                ok = 0;
            } else {
                b->uses[u].event = ev;
                b->uses[u].stream = s;
                b->uses[u].device = dev;
                b->nuses++;
            }
        }
        if (ok && cudaEventRecord(b->uses[u].event, s) != cudaSuccess) {
            (void)cudaGetLastError();
            ok = 0;
        }
    }
    pthread_mutex_unlock(&pinned_lock);
    return ok ? DT_OK : DT_CUDA_CALL(err, dev, cudaStreamSynchronize, (s));
}

int dt_cuda_host_is_pinned(const void *ptr)
{
    if (ptr == NULL || dt_cuda_device_count() == 0)
        return 0;
    struct cudaPointerAttributes a;
    memset(&a, 0, sizeof a);
    if (cudaPointerGetAttributes(&a, ptr) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return a.type == cudaMemoryTypeHost;
}

/* The device whose memory (device or managed) holds the bytes at first and
 * at last; host memory, pinned or not, and unknown addresses are refused. */
dt_status dt_cuda_pointer_device(const void *first, const void *last, int *index, dt_error *err)
{
    *index = -1;
    if (dt_cuda_device_count() == 0)
        return dt_error_set(err, DT_ERR_RUNTIME, "CUDA is not available: %s",
                            dt_cuda_unavailable_reason());
    const void *ends[2] = {first, last};
    int device[2] = {-1, -1};
    for (int i = 0; i < 2; i++) {
        struct cudaPointerAttributes a;
        memset(&a, 0, sizeof a);
        cudaError_t e = cudaPointerGetAttributes(&a, ends[i]);
        if (e != cudaSuccess) {
            (void)cudaGetLastError();
            return dt_error_set(err, DT_ERR_VALUE, "address %p is not memory CUDA knows (%s)",
                                ends[i], cudaGetErrorString(e));
        }
        if (a.type != cudaMemoryTypeDevice && a.type != cudaMemoryTypeManaged)
            return dt_error_set(err, DT_ERR_VALUE, "address %p is %s, not memory of a CUDA device",
                                ends[i], a.type == cudaMemoryTypeHost ? "pinned host memory"
                                                                      : "host memory (or unmapped)");
        device[i] = a.device;
    }
    if (device[0] != device[1] || device[0] < 0 || device[0] >= dt_cuda_device_count())
        return dt_error_set(err, DT_ERR_VALUE, "the bytes %p to %p are not memory of one CUDA device "
                            "(they lie on devices %d and %d)", first, last, device[0], device[1]);
    *index = device[0];
    return DT_OK;
}

dt_status dt_cuda_host_alloc_pinned(size_t nbytes, void **ptr, dt_error *err)
{
    *ptr = NULL;
    int dev = 0;
    DT_TRY(dt_cuda_device_get(&dev, err));
    dt_cuda_guard g;
    DT_TRY(dt_cuda_guard_enter(&g, dev, err));
    pthread_mutex_lock(&pinned_lock);
    deferred_sweep(0);
    /* portable: usable with every device, whichever is current */
    cudaError_t e = cudaHostAlloc(ptr, nbytes != 0 ? nbytes : 1, cudaHostAllocPortable);
    if (e == cudaErrorMemoryAllocation && pinned_ndeferred > 0) {
        (void)cudaGetLastError();
        deferred_sweep(1); /* Note [Pinned blocks in flight]: wait, free, retry */
        e = cudaHostAlloc(ptr, nbytes != 0 ? nbytes : 1, cudaHostAllocPortable);
    }
    dt_status st = DT_OK;
    if (e == cudaErrorMemoryAllocation) {
        (void)cudaGetLastError();
        *ptr = NULL;
        st = dt_error_set(err, DT_ERR_NOMEM, "out of pinned host memory: cudaHostAlloc of %zu bytes failed (%s)",
                          nbytes, cudaGetErrorString(e));
    } else if (e != cudaSuccess) {
        *ptr = NULL;
        st = dt_cuda_error_set(err, e, "cudaHostAlloc", dev);
    } else if (!grow((void **)&pinned_live, &pinned_cap_live, pinned_nlive + 1, sizeof *pinned_live)) {
        if (cudaFreeHost(*ptr) != cudaSuccess)
            (void)cudaGetLastError();
        *ptr = NULL;
        st = dt_error_set(err, DT_ERR_NOMEM, "out of host memory registering a pinned block");
    } else {
        /* insert, keeping the list sorted by base */
        char *base = (char *)*ptr;
        int at = pinned_nlive;
        while (at > 0 && pinned_live[at - 1].base > base)
            at--;
        memmove(&pinned_live[at + 1], &pinned_live[at], (size_t)(pinned_nlive - at) * sizeof *pinned_live);
        pinned_live[at].base = base;
        pinned_live[at].size = nbytes != 0 ? nbytes : 1;
        pinned_live[at].uses = NULL;
        pinned_live[at].nuses = pinned_live[at].cap = 0;
        pinned_nlive++;
    }
    pthread_mutex_unlock(&pinned_lock);
    dt_cuda_guard_exit(&g);
    return st;
}

void dt_cuda_host_free_pinned(void *ptr)
{
    if (ptr == NULL)
        return;
    pthread_mutex_lock(&pinned_lock);
    deferred_sweep(0);
    int i = live_find((const char *)ptr, 1);
    if (i < 0 || pinned_live[i].base != (char *)ptr) {
        /* not a block of ours (or already freed): hand it to CUDA as before */
        pthread_mutex_unlock(&pinned_lock);
        if (cudaFreeHost(ptr) != cudaSuccess)
            (void)cudaGetLastError();
        return;
    }
    pinned_block b = pinned_live[i];
    memmove(&pinned_live[i], &pinned_live[i + 1], (size_t)(pinned_nlive - i - 1) * sizeof *pinned_live);
    pinned_nlive--;
    if (block_prune(&b, 0) == 0) {
        block_release(&b);
    } else if (grow((void **)&pinned_deferred, &pinned_cap_deferred, pinned_ndeferred + 1,
                    sizeof *pinned_deferred)) {
        pinned_deferred[pinned_ndeferred++] = b;
    } else {
        block_prune(&b, 1); /* no room to defer: wait */
        block_release(&b);
    }
    pthread_mutex_unlock(&pinned_lock);
}

/* ---- the staging ring (Note [Pageable staging]) ---- */

static pthread_mutex_t ring_lock = PTHREAD_MUTEX_INITIALIZER;
static char *ring_buf[DT_CUDA_RING_BUFFERS];
static int ring_state; /* 0 not tried, 1 ready, 2 failed (use the driver) */
static cudaEvent_t ring_events[DT_CUDA_MAX_DEVICES][DT_CUDA_RING_BUFFERS];
static pthread_once_t staging_once = PTHREAD_ONCE_INIT;
static int staging_enabled = 1;

static void staging_init(void)
{
    if (dt_env_flag("DEVTENSOR_CUDA_STAGING", &staging_enabled) != 1) /* Note [Environment variables] */
        staging_enabled = 1;
}

/* Lock the ring for a copy on device `dev` (guard entered): returns 0 when
 * it is unavailable, and then the lock is not held. */
static int ring_acquire(int dev)
{
    pthread_once(&staging_once, staging_init);
    if (!staging_enabled)
        return 0;
    pthread_mutex_lock(&ring_lock);
    if (ring_state == 0) {
        ring_state = 1;
        for (int b = 0; b < DT_CUDA_RING_BUFFERS; b++) {
            void *p = NULL;
            if (cudaHostAlloc(&p, DT_CUDA_RING_CHUNK, cudaHostAllocPortable) != cudaSuccess) {
                (void)cudaGetLastError();
                ring_state = 2;
                break;
            }
            ring_buf[b] = (char *)p;
        }
        if (ring_state == 2)
            for (int b = 0; b < DT_CUDA_RING_BUFFERS; b++) {
                if (ring_buf[b] != NULL && cudaFreeHost(ring_buf[b]) != cudaSuccess)
                    (void)cudaGetLastError();
                ring_buf[b] = NULL;
            }
    }
    int ok = ring_state == 1;
    for (int b = 0; ok && b < DT_CUDA_RING_BUFFERS; b++)
        if (ring_events[dev][b] == NULL &&
            cudaEventCreateWithFlags(&ring_events[dev][b], cudaEventDisableTiming) != cudaSuccess) {
            (void)cudaGetLastError();
            ring_events[dev][b] = NULL;
            ok = 0;
        }
    if (!ok)
        pthread_mutex_unlock(&ring_lock);
    return ok;
}

static void ring_release(void)
{
    pthread_mutex_unlock(&ring_lock);
}

static size_t ring_chunk(size_t n)
{
    size_t c = n / 8;
    c = (c + DT_CUDA_RING_MIN_CHUNK - 1) & ~(DT_CUDA_RING_MIN_CHUNK - 1);
    if (c < DT_CUDA_RING_MIN_CHUNK)
        c = DT_CUDA_RING_MIN_CHUNK;
    if (c > DT_CUDA_RING_CHUNK)
        c = DT_CUDA_RING_CHUNK;
    return c;
}

/* pageable host -> device through the ring (ring held, guard on dev) */
static dt_status staged_h2d(char *dst, const char *src, size_t n, int dev, cudaStream_t s, dt_error *err)
{
    size_t chunk = ring_chunk(n);
    int used[DT_CUDA_RING_BUFFERS] = {0};
    dt_status st = DT_OK;
    size_t off = 0;
    for (int k = 0; off < n; k++) {
        int b = k % DT_CUDA_RING_BUFFERS;
        size_t c = n - off < chunk ? n - off : chunk;
        if (used[b] && (st = DT_CUDA_CALL(err, dev, cudaEventSynchronize, (ring_events[dev][b]))) != DT_OK)
            break;
        memcpy(ring_buf[b], src + off, c);
        if ((st = DT_CUDA_CALL(err, dev, cudaMemcpyAsync, (dst + off, ring_buf[b], c, cudaMemcpyHostToDevice, s))) != DT_OK)
            break;
        if ((st = DT_CUDA_CALL(err, dev, cudaEventRecord, (ring_events[dev][b], s))) != DT_OK)
            break;
        used[b] = 1;
        off += c;
    }
    /* whatever happened, no copy may still read the ring when it is released */
    dt_status st2 = DT_CUDA_CALL(st == DT_OK ? err : NULL, dev, cudaStreamSynchronize, (s));
    return st != DT_OK ? st : st2;
}

/* device -> pageable host through the ring (ring held, guard on dev) */
static dt_status staged_d2h(char *dst, const char *src, size_t n, int dev, cudaStream_t s, dt_error *err)
{
    size_t chunk = ring_chunk(n);
    size_t nchunks = n / chunk + (n % chunk != 0);
    dt_status st = DT_OK;
    size_t issued = 0;
    for (; issued < nchunks && issued < DT_CUDA_RING_BUFFERS && st == DT_OK; issued++) {
        size_t off = issued * chunk, c = n - off < chunk ? n - off : chunk;
        int b = (int)(issued % DT_CUDA_RING_BUFFERS);
        st = DT_CUDA_CALL(err, dev, cudaMemcpyAsync, (ring_buf[b], src + off, c, cudaMemcpyDeviceToHost, s));
        if (st == DT_OK)
            st = DT_CUDA_CALL(err, dev, cudaEventRecord, (ring_events[dev][b], s));
    }
    for (size_t k = 0; k < nchunks && st == DT_OK; k++) {
        size_t off = k * chunk, c = n - off < chunk ? n - off : chunk;
        int b = (int)(k % DT_CUDA_RING_BUFFERS);
        st = DT_CUDA_CALL(err, dev, cudaEventSynchronize, (ring_events[dev][b]));
        if (st != DT_OK)
            break;
        memcpy(dst + off, ring_buf[b], c);
        if (issued < nchunks) {
            size_t noff = issued * chunk, nc = n - noff < chunk ? n - noff : chunk;
            st = DT_CUDA_CALL(err, dev, cudaMemcpyAsync, (ring_buf[b], src + noff, nc, cudaMemcpyDeviceToHost, s));
            if (st == DT_OK)
                st = DT_CUDA_CALL(err, dev, cudaEventRecord, (ring_events[dev][b], s));
            issued++;
        }
    }
    dt_status st2 = DT_CUDA_CALL(st == DT_OK ? err : NULL, dev, cudaStreamSynchronize, (s));
    return st != DT_OK ? st : st2;
}

/* ---- host <-> device ---- */

static dt_status copy_h2d(char *dst, int dev, const char *src, size_t n, void *stream, int non_blocking,
                          dt_error *err)
{
    cudaStream_t s;
    DT_TRY(dt_cuda_stream_resolve(dev, stream, NULL, &s, err));
    dt_cuda_guard g;
    DT_TRY(dt_cuda_guard_enter(&g, dev, err));
    dt_status st;
    if (dt_cuda_host_is_pinned(src)) {
        st = DT_CUDA_CALL(err, dev, cudaMemcpyAsync, (dst, src, n, cudaMemcpyHostToDevice, s));
        if (st == DT_OK && !non_blocking)
            st = DT_CUDA_CALL(err, dev, cudaStreamSynchronize, (s));
        else if (st == DT_OK) /* Note [Pinned blocks in flight] */
            st = pinned_track(src, n, dev, s, err);
    } else if (n >= DT_CUDA_STAGE_MIN && ring_acquire(dev)) {
        st = staged_h2d(dst, src, n, dev, s, err);
        ring_release();
    } else {
        /* the driver stages pageable memory itself; the source is consumed on return */
        st = DT_CUDA_CALL(err, dev, cudaMemcpyAsync, (dst, src, n, cudaMemcpyHostToDevice, s));
        if (st == DT_OK)
            st = DT_CUDA_CALL(err, dev, cudaStreamSynchronize, (s));
    }
    dt_cuda_guard_exit(&g);
    return st;
}

static dt_status copy_d2h(char *dst, const char *src, int dev, size_t n, void *stream, int non_blocking,
                          dt_error *err)
{
    cudaStream_t s;
    DT_TRY(dt_cuda_stream_resolve(dev, stream, NULL, &s, err));
    dt_cuda_guard g;
    DT_TRY(dt_cuda_guard_enter(&g, dev, err));
    dt_status st;
    if (dt_cuda_host_is_pinned(dst)) {
        st = DT_CUDA_CALL(err, dev, cudaMemcpyAsync, (dst, src, n, cudaMemcpyDeviceToHost, s));
        if (st == DT_OK && !non_blocking)
            st = DT_CUDA_CALL(err, dev, cudaStreamSynchronize, (s));
        else if (st == DT_OK) /* Note [Pinned blocks in flight] */
            st = pinned_track(dst, n, dev, s, err);
    } else if (n >= DT_CUDA_STAGE_MIN && ring_acquire(dev)) {
        st = staged_d2h(dst, src, n, dev, s, err);
        ring_release();
    } else {
        st = DT_CUDA_CALL(err, dev, cudaMemcpyAsync, (dst, src, n, cudaMemcpyDeviceToHost, s));
        if (st == DT_OK)
            st = DT_CUDA_CALL(err, dev, cudaStreamSynchronize, (s));
    }
    dt_cuda_guard_exit(&g);
    return st;
}

/* ---- device <-> device ---- */

/* Record an event on `s` of device `dev` and make `waiter` (on device
 * `wdev`) wait for it. */
static dt_status stream_order(int dev, cudaStream_t s, int wdev, cudaStream_t waiter, dt_error *err)
{
    dt_cuda_guard g;
    DT_TRY(dt_cuda_guard_enter(&g, dev, err));
    cudaEvent_t ev = NULL;
    dt_status st = DT_CUDA_CALL(err, dev, cudaEventCreateWithFlags, (&ev, cudaEventDisableTiming));
    if (st == DT_OK)
        st = DT_CUDA_CALL(err, dev, cudaEventRecord, (ev, s));
    dt_cuda_guard_exit(&g);
    if (st == DT_OK && (st = dt_cuda_guard_enter(&g, wdev, err)) == DT_OK) {
        st = DT_CUDA_CALL(err, wdev, cudaStreamWaitEvent, (waiter, ev, 0));
        dt_cuda_guard_exit(&g);
    }
    if (ev != NULL && cudaEventDestroy(ev) != cudaSuccess) /* deferred by CUDA until it completes */
        (void)cudaGetLastError();
    return st;
}

/* peers that cannot access each other: through the ring, synchronously */
static dt_status staged_peer(char *dst, int di, cudaStream_t ds, const char *src, int si, cudaStream_t ss,
                             size_t n, dt_error *err)
{
    size_t chunk = ring_chunk(n);
    int used[DT_CUDA_RING_BUFFERS] = {0};
    dt_status st = DT_OK;
    dt_cuda_guard g;
    for (size_t off = 0, k = 0; off < n && st == DT_OK; k++) {
        int b = (int)(k % DT_CUDA_RING_BUFFERS);
        size_t c = n - off < chunk ? n - off : chunk;
        /* the buffer's previous upload must have finished before it is refilled */
        if (used[b] && (st = DT_CUDA_CALL(err, di, cudaEventSynchronize, (ring_events[di][b]))) != DT_OK)
            break;
        if ((st = dt_cuda_guard_enter(&g, si, err)) != DT_OK)
            break;
        st = DT_CUDA_CALL(err, si, cudaMemcpyAsync, (ring_buf[b], src + off, c, cudaMemcpyDeviceToHost, ss));
        if (st == DT_OK)
            st = DT_CUDA_CALL(err, si, cudaStreamSynchronize, (ss));
        dt_cuda_guard_exit(&g);
        if (st != DT_OK || (st = dt_cuda_guard_enter(&g, di, err)) != DT_OK)
            break;
        st = DT_CUDA_CALL(err, di, cudaMemcpyAsync, (dst + off, ring_buf[b], c, cudaMemcpyHostToDevice, ds));
        if (st == DT_OK)
            st = DT_CUDA_CALL(err, di, cudaEventRecord, (ring_events[di][b], ds));
        dt_cuda_guard_exit(&g);
        used[b] = 1;
        off += c;
    }
    /* no upload may still read the ring when it is released */
    if (dt_cuda_guard_enter(&g, di, NULL) == DT_OK) {
        if (cudaStreamSynchronize(ds) != cudaSuccess)
            (void)cudaGetLastError();
        dt_cuda_guard_exit(&g);
    }
    return st;
}

static dt_status copy_peer(char *dst, int di, const char *src, int si, size_t n, void *stream, dt_error *err)
{
    cudaStream_t ds, ss;
    DT_TRY(dt_cuda_stream_resolve(di, stream, NULL, &ds, err));
    DT_TRY(dt_cuda_stream_resolve(si, NULL, NULL, &ss, err));
    int ok_ds = 0, ok_sd = 0;
    DT_TRY(dt_cuda_peer_enable(di, si, &ok_ds, err));
    DT_TRY(dt_cuda_peer_enable(si, di, &ok_sd, err));
    if (ok_ds || ok_sd) {
        /* the copy after the source's pending writes ... */
        DT_TRY(stream_order(si, ss, di, ds, err));
        dt_cuda_guard g;
        DT_TRY(dt_cuda_guard_enter(&g, di, err));
        dt_status st = DT_CUDA_CALL(err, di, cudaMemcpyPeerAsync, (dst, di, src, si, n, ds));
        dt_cuda_guard_exit(&g);
        DT_TRY(st);
        /* ... and later work on the source device after the copy */
        return stream_order(di, ds, si, ss, err);
    }
    dt_cuda_guard g;
    DT_TRY(dt_cuda_guard_enter(&g, di, err));
    dt_status st;
    if (ring_acquire(di)) {
        dt_cuda_guard_exit(&g);
        st = staged_peer(dst, di, ds, src, si, ss, n, err);
        ring_release();
    } else {
        /* no ring: let the driver stage, then wait for it */
        st = stream_order(si, ss, di, ds, err);
        if (st == DT_OK)
            st = DT_CUDA_CALL(err, di, cudaMemcpyPeerAsync, (dst, di, src, si, n, ds));
        if (st == DT_OK)
            st = DT_CUDA_CALL(err, di, cudaStreamSynchronize, (ds));
        dt_cuda_guard_exit(&g);
    }
    return st;
}

dt_status dt_cuda_copy(dt_copy_kind kind, void *dst, int dst_index, const void *src, int src_index,
                       size_t nbytes, void *stream, int non_blocking, dt_error *err)
{
    switch (kind) {
    case DT_COPY_HOST_TO_DEVICE:
        DT_TRY(dt_cuda_index_check(dst_index, err));
        if (nbytes == 0)
            return DT_OK;
        return copy_h2d((char *)dst, dst_index, (const char *)src, nbytes, stream, non_blocking, err);
    case DT_COPY_DEVICE_TO_HOST:
        DT_TRY(dt_cuda_index_check(src_index, err));
        if (nbytes == 0)
            return DT_OK;
        return copy_d2h((char *)dst, (const char *)src, src_index, nbytes, stream, non_blocking, err);
    case DT_COPY_DEVICE_TO_DEVICE: {
        DT_TRY(dt_cuda_index_check(dst_index, err));
        DT_TRY(dt_cuda_index_check(src_index, err));
        if (nbytes == 0)
            return DT_OK;
        if (src_index != dst_index)
            return copy_peer((char *)dst, dst_index, (const char *)src, src_index, nbytes, stream, err);
        cudaStream_t s;
        DT_TRY(dt_cuda_stream_resolve(dst_index, stream, NULL, &s, err));
        dt_cuda_guard g;
        DT_TRY(dt_cuda_guard_enter(&g, dst_index, err));
        dt_status st = DT_CUDA_CALL(err, dst_index, cudaMemcpyAsync, (dst, src, nbytes, cudaMemcpyDeviceToDevice, s));
        dt_cuda_guard_exit(&g);
        return st;
    }
    default:
        return dt_error_set(err, DT_ERR_VALUE, "copy: unknown copy kind %d", (int)kind);
    }
}
