/* cuda_device.c - CUDA devices: the probe, indices, the device guard,
 * properties, peer access, synchronisation, and the mapping of CUDA errors
 * to dt_error.
 *
 * Note [No driver is a normal state]
 * Importing devtensor._cuda never calls CUDA.  The first question about
 * devices runs one probe (pthread_once, so it is thread-safe and cached):
 * cudaGetDeviceCount with the count initialised to 0, because without a
 * driver it returns cudaErrorInsufficientDriver (35) and may leave the
 * count unwritten.  Every failure reads as "zero devices" plus a reason
 * that says which case it is (no driver, a driver too old for this runtime,
 * no device, anything else), and every slot of the backend then fails with
 * that reason instead of reaching CUDA.
 */
#include "cuda_internal.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- errors ---- */

dt_status dt_cuda_error_set(dt_error *err, cudaError_t e, const char *call, int device)
{
    /* Clear the runtime's last-error slot (for non-sticky errors) so that a
     * later cudaGetLastError after a launch does not report this one. */
    (void)cudaGetLastError();
    dt_status st = e == cudaErrorMemoryAllocation ? DT_ERR_DEVICE_OOM : DT_ERR_RUNTIME;
    const char *what = cudaGetErrorString(e);
    if (device >= 0)
        return dt_error_set(err, st, "CUDA error in %s on cuda:%d: %s", call, device,
                            what != NULL ? what : "unknown error");
    return dt_error_set(err, st, "CUDA error in %s: %s", call, what != NULL ? what : "unknown error");
}

/* ---- the probe ---- */

static pthread_once_t probe_once = PTHREAD_ONCE_INIT;
static int probe_count;
static char probe_reason[320];
static int probe_reason_set;

static void probe_run(void)
{
    int n = 0; /* Note [No driver is a normal state]: may stay unwritten */
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess) {
        int driver = 0, runtime = 0;
        (void)cudaDriverGetVersion(&driver);
        (void)cudaRuntimeGetVersion(&runtime);
        (void)cudaGetLastError();
        const char *what = cudaGetErrorString(e);
        if (e == cudaErrorInsufficientDriver && driver == 0)
            snprintf(probe_reason, sizeof probe_reason,
                     "no NVIDIA driver found (cudaGetDeviceCount: %s)", what);
        else if (e == cudaErrorInsufficientDriver)
            snprintf(probe_reason, sizeof probe_reason,
                     "the NVIDIA driver supports CUDA %d.%d but devtensor was built with CUDA "
                     "%d.%d; update the driver (cudaGetDeviceCount: %s)",
                     driver / 1000, (driver % 1000) / 10, runtime / 1000, (runtime % 1000) / 10,
                     what);
        else if (e == cudaErrorNoDevice) {
            const char *visible = getenv("CUDA_VISIBLE_DEVICES");
            snprintf(probe_reason, sizeof probe_reason, "no CUDA device found%s%s%s (cudaGetDeviceCount: %s)",
                     visible != NULL ? " (CUDA_VISIBLE_DEVICES=\"" : "", visible != NULL ? visible : "",
                     visible != NULL ? "\")" : "", what);
        } else
            snprintf(probe_reason, sizeof probe_reason,
                     "CUDA initialisation failed (cudaGetDeviceCount: %s, error %d)", what, (int)e);
        probe_reason_set = 1;
        n = 0;
    } else if (n <= 0) {
        snprintf(probe_reason, sizeof probe_reason, "no CUDA device found");
        probe_reason_set = 1;
        n = 0;
    }
    if (n > DT_CUDA_MAX_DEVICES)
        n = DT_CUDA_MAX_DEVICES;
    probe_count = n;
}

int dt_cuda_device_count(void)
{
    pthread_once(&probe_once, probe_run);
    return probe_count;
}

const char *dt_cuda_unavailable_reason(void)
{
    pthread_once(&probe_once, probe_run);
    return probe_reason_set ? probe_reason : NULL;
}

dt_status dt_cuda_index_check(int index, dt_error *err)
{
    int n = dt_cuda_device_count();
    if (n == 0)
        return dt_error_set(err, DT_ERR_RUNTIME, "CUDA is not available: %s", dt_cuda_unavailable_reason());
    if (index < 0 || index >= n)
        return dt_error_set(err, DT_ERR_RUNTIME,
                            "invalid CUDA device index %d: %d CUDA device%s available (valid indices 0..%d)",
                            index, n, n == 1 ? " is" : "s are", n - 1);
    return DT_OK;
}

int dt_cuda_device_sm_count(int index)
{
    static int cache[DT_CUDA_MAX_DEVICES]; /* 0: not read yet; benign race */
    if (index < 0 || index >= DT_CUDA_MAX_DEVICES)
        return 1;
    int v = __atomic_load_n(&cache[index], __ATOMIC_RELAXED);
    if (v > 0)
        return v;
    if (cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, index) != cudaSuccess || v <= 0) {
        (void)cudaGetLastError();
        return 1;
    }
    __atomic_store_n(&cache[index], v, __ATOMIC_RELAXED);
    return v;
}

/* ---- the current device and the guard ----
 *
 * Note [Lazy device contexts]
 * Since CUDA 12, cudaSetDevice creates the device's primary context (about
 * 0.5 GiB of device memory).  A guard that switches to cuda:1 and then
 * "restores" cuda:0 would create a context on cuda:0 for a program that
 * never used it.  So devtensor keeps its own per-thread current device
 * (tls_device, what get_device reports), records which devices it has
 * activated (ctx_active), and a guard restores the previous device only
 * when that device is already active.  Work is always issued under a guard
 * naming its device, so the runtime's own current device is never relied
 * on.  set_device is explicit: it activates the device.
 */

static _Thread_local int tls_device = -1; /* -1: never set in this thread */
static int ctx_active[DT_CUDA_MAX_DEVICES];

static void ctx_mark_active(int index)
{
    __atomic_store_n(&ctx_active[index], 1, __ATOMIC_RELAXED);
}

dt_status dt_cuda_guard_enter(dt_cuda_guard *g, int index, dt_error *err)
{
    g->prev = -1;
    g->changed = 0;
    DT_TRY(dt_cuda_index_check(index, err));
    int cur = 0;
    DT_TRY(DT_CUDA_CALL(err, index, cudaGetDevice, (&cur)));
    if (tls_device < 0)
        tls_device = cur; /* the thread's device before devtensor touched it */
    if (cur != index) {
        DT_TRY(DT_CUDA_CALL(err, index, cudaSetDevice, (index)));
        g->prev = cur;
        g->changed = 1;
    }
    ctx_mark_active(index);
    return DT_OK;
}

void dt_cuda_guard_exit(dt_cuda_guard *g)
{
    if (g->changed && g->prev >= 0 && g->prev < DT_CUDA_MAX_DEVICES &&
        __atomic_load_n(&ctx_active[g->prev], __ATOMIC_RELAXED)) {
        if (cudaSetDevice(g->prev) != cudaSuccess)
            (void)cudaGetLastError();
    }
    g->changed = 0;
}

dt_status dt_cuda_device_get(int *index, dt_error *err)
{
    DT_TRY(dt_cuda_index_check(0, err));
    if (tls_device >= 0) {
        *index = tls_device;
        return DT_OK;
    }
    int cur = 0;
    DT_TRY(DT_CUDA_CALL(err, -1, cudaGetDevice, (&cur)));
    *index = cur;
    return DT_OK;
}

dt_status dt_cuda_device_set(int index, dt_error *err)
{
    DT_TRY(dt_cuda_index_check(index, err));
    DT_TRY(DT_CUDA_CALL(err, index, cudaSetDevice, (index)));
    ctx_mark_active(index);
    tls_device = index;
    return DT_OK;
}

dt_status dt_cuda_device_props(int index, dt_device_props *out, dt_error *err)
{
    DT_TRY(dt_cuda_index_check(index, err));
    struct cudaDeviceProp p;
    memset(&p, 0, sizeof p);
    DT_TRY(DT_CUDA_CALL(err, index, cudaGetDeviceProperties, (&p, index)));
    memset(out, 0, sizeof *out);
    size_t len = 0;
    while (len < sizeof p.name && len + 1 < sizeof out->name && p.name[len] != '\0')
        len++;
    memcpy(out->name, p.name, len);
    out->name[len] = '\0';
    out->total_memory = (uint64_t)p.totalGlobalMem;
    out->multi_processor_count = p.multiProcessorCount;
    out->major = p.major;
    out->minor = p.minor;
    out->reserved = 0;
    return DT_OK;
}

/* ---- peers ---- */

dt_status dt_cuda_peer_can_access(int index, int peer, int *out, dt_error *err)
{
    DT_TRY(dt_cuda_index_check(index, err));
    DT_TRY(dt_cuda_index_check(peer, err));
    if (index == peer) {
        *out = 1;
        return DT_OK;
    }
    int can = 0;
    DT_TRY(DT_CUDA_CALL(err, index, cudaDeviceCanAccessPeer, (&can, index, peer)));
    *out = can != 0;
    return DT_OK;
}

static pthread_mutex_t peer_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned char peer_state[DT_CUDA_MAX_DEVICES][DT_CUDA_MAX_DEVICES]; /* 0 unknown, 1 on, 2 impossible */

dt_status dt_cuda_peer_enable(int index, int peer, int *ok, dt_error *err)
{
    DT_TRY(dt_cuda_index_check(index, err));
    DT_TRY(dt_cuda_index_check(peer, err));
    if (index == peer) {
        *ok = 1;
        return DT_OK;
    }
    pthread_mutex_lock(&peer_lock);
    dt_status st = DT_OK;
    if (peer_state[index][peer] == 0) {
        int can = 0;
        st = DT_CUDA_CALL(err, index, cudaDeviceCanAccessPeer, (&can, index, peer));
        if (st == DT_OK && !can)
            peer_state[index][peer] = 2;
        else if (st == DT_OK) {
            dt_cuda_guard g;
            st = dt_cuda_guard_enter(&g, index, err);
            if (st == DT_OK) {
                cudaError_t e = cudaDeviceEnablePeerAccess(peer, 0);
                if (e == cudaErrorPeerAccessAlreadyEnabled) {
                    (void)cudaGetLastError();
                    e = cudaSuccess;
                }
                st = dt_cuda_check(e, "cudaDeviceEnablePeerAccess", index, err);
                if (st == DT_OK)
                    peer_state[index][peer] = 1;
                dt_cuda_guard_exit(&g);
            }
        }
    }
    *ok = peer_state[index][peer] == 1;
    pthread_mutex_unlock(&peer_lock);
    return st;
}

dt_status dt_cuda_device_synchronize(int index, dt_error *err)
{
    dt_cuda_guard g;
    DT_TRY(dt_cuda_guard_enter(&g, index, err));
    dt_status st = DT_CUDA_CALL(err, index, cudaDeviceSynchronize, ());
    dt_cuda_guard_exit(&g);
    return st;
}
