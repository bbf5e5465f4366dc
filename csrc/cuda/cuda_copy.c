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
 *                                   waited for.  The caller keeps the
 *                                   source alive until the stream passes.
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

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define DT_CUDA_RING_BUFFERS 4
#define DT_CUDA_RING_CHUNK ((size_t)16 << 20)
#define DT_CUDA_RING_MIN_CHUNK ((size_t)1 << 20)
#define DT_CUDA_STAGE_MIN ((size_t)4 << 20)

/* ---- pinned host memory ---- */

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

dt_status dt_cuda_host_alloc_pinned(size_t nbytes, void **ptr, dt_error *err)
{
    *ptr = NULL;
    int dev = 0;
    DT_TRY(dt_cuda_device_get(&dev, err));
    dt_cuda_guard g;
    DT_TRY(dt_cuda_guard_enter(&g, dev, err));
    /* portable: usable with every device, whichever is current */
    cudaError_t e = cudaHostAlloc(ptr, nbytes != 0 ? nbytes : 1, cudaHostAllocPortable);
    dt_cuda_guard_exit(&g);
    if (e == cudaErrorMemoryAllocation) {
        (void)cudaGetLastError();
        *ptr = NULL;
        return dt_error_set(err, DT_ERR_NOMEM, "out of pinned host memory: cudaHostAlloc of %zu bytes failed (%s)",
                            nbytes, cudaGetErrorString(e));
    }
    if (e != cudaSuccess) {
        *ptr = NULL;
        return dt_cuda_error_set(err, e, "cudaHostAlloc", dev);
    }
    return DT_OK;
}

void dt_cuda_host_free_pinned(void *ptr)
{
    if (ptr == NULL)
        return;
    if (cudaFreeHost(ptr) != cudaSuccess)
        (void)cudaGetLastError();
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
    const char *env = getenv("DEVTENSOR_CUDA_STAGING");
    staging_enabled = !(env != NULL && strcmp(env, "0") == 0);
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
