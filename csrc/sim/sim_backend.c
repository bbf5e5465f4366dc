/* sim_backend.c - simulated CUDA devices in host memory (see sim_backend.h).
 *
 * Note [What the simulation models]
 * Device memory: allocations count against a per-device budget and fail
 * with DT_ERR_DEVICE_OOM past it, so out-of-memory handling is testable.
 * There is no cache: reserved equals allocated.  Streams and events are
 * real objects bound to a device, but all work runs synchronously at
 * submission, so every stream is always idle and events complete when
 * recorded; event timing uses the host's monotonic clock.
 */
#include "sim_backend.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cpu_loops.h"

#define SIM_DEFAULT_MEMORY (16ull << 30)
#define SIM_ALIGNMENT 256

typedef struct sim_device_state {
    atomic_ullong allocated, max_allocated, alloc_count;
} sim_device_state;

typedef struct sim_stream {
    int device;
    int priority;
} sim_stream;

typedef struct sim_event {
    int device;
    int timing;
    int recorded;
    double time_ms;
} sim_event;

static int sim_ndevices;
static uint64_t sim_memory;
static sim_device_state sim_devices[DT_SIM_MAX_DEVICES];
static _Thread_local int sim_current_device;
static _Thread_local void *sim_current_stream[DT_SIM_MAX_DEVICES];

static dt_status check_index(int index, dt_error *err)
{
    if (index < 0 || index >= sim_ndevices)
        return dt_error_set(err, DT_ERR_RUNTIME,
                            "Invalid device cuda:%d (simulated): %d simulated devices", index,
                            sim_ndevices);
    return DT_OK;
}

static int sim_device_count(void) { return sim_ndevices; }

static const char *sim_unavailable_reason(void)
{
    return sim_ndevices == 0 ? "DEVTENSOR_SIMULATE_CUDA=0: the simulated CUDA backend has no device"
                             : NULL;
}

static dt_status sim_get_device(int *index, dt_error *err)
{
    (void)err;
    *index = sim_current_device;
    return DT_OK;
}

static dt_status sim_set_device(int index, dt_error *err)
{
    DT_TRY(check_index(index, err));
    sim_current_device = index;
    return DT_OK;
}

static dt_status sim_device_props(int index, dt_device_props *out, dt_error *err)
{
    DT_TRY(check_index(index, err));
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "devtensor simulated CUDA device %d (host memory)", index);
    out->total_memory = sim_memory;
    out->multi_processor_count = 1;
    out->major = 0;
    out->minor = 0;
    out->simulated = 1;
    return DT_OK;
}

static dt_status sim_can_access_peer(int index, int peer, int *out, dt_error *err)
{
    DT_TRY(check_index(index, err));
    DT_TRY(check_index(peer, err));
    *out = index != peer;
    return DT_OK;
}

static dt_status sim_synchronize(int index, dt_error *err) { return check_index(index, err); }

static dt_status sim_alloc(int index, size_t nbytes, void *stream, void **ptr, void **ctx,
                           dt_error *err)
{
    (void)stream;
    DT_TRY(check_index(index, err));
    sim_device_state *d = &sim_devices[index];
    unsigned long long now = atomic_load(&d->allocated);
    if (nbytes > sim_memory || now > sim_memory - nbytes)
        return dt_error_set(err, DT_ERR_DEVICE_OOM,
                            "CUDA out of memory (simulated) on cuda:%d: tried to allocate %zu "
                            "bytes; %llu bytes free of %llu, 0 bytes cached",
                            index, nbytes, (unsigned long long)(sim_memory - now),
                            (unsigned long long)sim_memory);
    size_t rounded = nbytes + SIM_ALIGNMENT - 1; /* nbytes <= sim_memory: no overflow */
    rounded -= rounded % SIM_ALIGNMENT;
    void *p = aligned_alloc(SIM_ALIGNMENT, rounded ? rounded : SIM_ALIGNMENT);
    if (p == NULL)
        return dt_error_set(err, DT_ERR_DEVICE_OOM,
                            "CUDA out of memory (simulated) on cuda:%d: the host could not "
                            "provide %zu bytes", index, nbytes);
    unsigned long long after = atomic_fetch_add(&d->allocated, nbytes) + nbytes;
    unsigned long long peak = atomic_load(&d->max_allocated);
    while (after > peak && !atomic_compare_exchange_weak(&d->max_allocated, &peak, after))
        ;
    atomic_fetch_add(&d->alloc_count, 1);
    *ptr = p;
    *ctx = (void *)(uintptr_t)nbytes;
    return DT_OK;
}

static void sim_free(int index, void *ptr, void *ctx)
{
    if (index >= 0 && index < sim_ndevices)
        atomic_fetch_sub(&sim_devices[index].allocated, (unsigned long long)(uintptr_t)ctx);
    free(ptr);
}

static dt_status sim_record_stream(int index, void *ptr, void *ctx, void *stream, dt_error *err)
{
    (void)ptr; (void)ctx;
    DT_TRY(check_index(index, err));
    if (stream != NULL && ((sim_stream *)stream)->device != index)
        return dt_error_set(err, DT_ERR_RUNTIME, "stream belongs to cuda:%d, memory to cuda:%d",
                            ((sim_stream *)stream)->device, index);
    return DT_OK;
}

static dt_status sim_memory_stats(int index, dt_memory_stats *out, dt_error *err)
{
    DT_TRY(check_index(index, err));
    sim_device_state *d = &sim_devices[index];
    out->allocated = atomic_load(&d->allocated);
    out->max_allocated = atomic_load(&d->max_allocated);
    out->reserved = out->allocated;
    out->max_reserved = out->max_allocated;
    out->alloc_count = atomic_load(&d->alloc_count);
    out->device_alloc_count = out->alloc_count;
    return DT_OK;
}

static dt_status sim_reset_peak_stats(int index, dt_error *err)
{
    DT_TRY(check_index(index, err));
    atomic_store(&sim_devices[index].max_allocated, atomic_load(&sim_devices[index].allocated));
    return DT_OK;
}

static dt_status sim_empty_cache(int index, dt_error *err) { return check_index(index, err); }

static dt_status sim_mem_get_info(int index, size_t *free_bytes, size_t *total_bytes,
                                  dt_error *err)
{
    DT_TRY(check_index(index, err));
    *total_bytes = (size_t)sim_memory;
    *free_bytes = (size_t)(sim_memory - atomic_load(&sim_devices[index].allocated));
    return DT_OK;
}

/* Pinned host memory: ordinary memory remembered in a small registry. */
#define SIM_MAX_PINNED 4096
static void *_Atomic sim_pinned[SIM_MAX_PINNED];

static dt_status sim_host_alloc_pinned(size_t nbytes, void **ptr, dt_error *err)
{
    size_t rounded;
    if (__builtin_add_overflow(nbytes, (size_t)SIM_ALIGNMENT - 1, &rounded))
        return dt_error_set(err, DT_ERR_NOMEM, "cannot pin %zu bytes", nbytes);
    rounded -= rounded % SIM_ALIGNMENT;
    void *p = aligned_alloc(SIM_ALIGNMENT, rounded ? rounded : SIM_ALIGNMENT);
    if (p == NULL)
        return dt_error_set(err, DT_ERR_NOMEM, "out of host memory pinning %zu bytes", nbytes);
    for (int i = 0; i < SIM_MAX_PINNED; i++) {
        void *expected = NULL;
        if (atomic_compare_exchange_strong(&sim_pinned[i], &expected, p)) {
            *ptr = p;
            return DT_OK;
        }
    }
    free(p);
    return dt_error_set(err, DT_ERR_NOMEM, "too many pinned blocks (simulated limit %d)",
                        SIM_MAX_PINNED);
}

static void sim_host_free_pinned(void *ptr)
{
    for (int i = 0; i < SIM_MAX_PINNED; i++) {
        void *expected = ptr;
        if (atomic_compare_exchange_strong(&sim_pinned[i], &expected, NULL))
            break;
    }
    free(ptr);
}

static int sim_host_is_pinned(const void *ptr)
{
    for (int i = 0; i < SIM_MAX_PINNED; i++)
        if (atomic_load(&sim_pinned[i]) == ptr && ptr != NULL)
            return 1;
    return 0;
}

static dt_status sim_copy(dt_copy_kind kind, void *dst, int dst_index, const void *src,
                          int src_index, size_t nbytes, void *stream, int non_blocking,
                          dt_error *err)
{
    (void)stream;
    (void)non_blocking;
    if (kind != DT_COPY_HOST_TO_DEVICE)
        DT_TRY(check_index(src_index, err));
    if (kind != DT_COPY_DEVICE_TO_HOST)
        DT_TRY(check_index(dst_index, err));
    memcpy(dst, src, nbytes);
    return DT_OK;
}

static dt_status sim_run_loop(const dt_loop *loop, dt_error *err)
{
    DT_TRY(check_index(loop->device_index, err));
    return dt_cpu_run_loop(loop, err);
}

static dt_status sim_generate(const dt_gen *gen, dt_error *err)
{
    DT_TRY(check_index(gen->device_index, err));
    return dt_cpu_generate(gen, err);
}

/* ---- streams and events ---- */

static dt_status sim_stream_create(int index, int priority, void **stream, dt_error *err)
{
    DT_TRY(check_index(index, err));
    sim_stream *s = malloc(sizeof *s);
    if (s == NULL)
        return dt_error_set(err, DT_ERR_NOMEM, "out of host memory creating a stream");
    s->device = index;
    s->priority = priority;
    *stream = s;
    return DT_OK;
}

static void sim_stream_destroy(int index, void *stream)
{
    (void)index;
    sim_stream *s = stream;
    if (s == NULL)
        return;
    /* as the real backend does: this thread's current stream never dangles */
    if (s->device >= 0 && s->device < DT_SIM_MAX_DEVICES && sim_current_stream[s->device] == s)
        sim_current_stream[s->device] = NULL;
    free(s);
}

static dt_status check_stream(int index, void *stream, dt_error *err)
{
    DT_TRY(check_index(index, err));
    if (stream != NULL && ((sim_stream *)stream)->device != index)
        return dt_error_set(err, DT_ERR_RUNTIME, "the stream belongs to cuda:%d, not cuda:%d",
                            ((sim_stream *)stream)->device, index);
    return DT_OK;
}

static dt_status sim_stream_synchronize(int index, void *stream, dt_error *err)
{
    return check_stream(index, stream, err);
}

static dt_status sim_stream_query(int index, void *stream, int *done, dt_error *err)
{
    DT_TRY(check_stream(index, stream, err));
    *done = 1;
    return DT_OK;
}

static dt_status sim_stream_wait_event(int index, void *stream, void *event, dt_error *err)
{
    (void)event;
    return check_stream(index, stream, err);
}

static void *sim_get_stream(int index)
{
    return index >= 0 && index < DT_SIM_MAX_DEVICES ? sim_current_stream[index] : NULL;
}

static dt_status sim_set_stream(int index, void *stream, dt_error *err)
{
    DT_TRY(check_stream(index, stream, err));
    sim_current_stream[index] = stream;
    return DT_OK;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static dt_status sim_event_create(int index, int enable_timing, void **event, dt_error *err)
{
    DT_TRY(check_index(index, err));
    sim_event *e = calloc(1, sizeof *e);
    if (e == NULL)
        return dt_error_set(err, DT_ERR_NOMEM, "out of host memory creating an event");
    e->device = index;
    e->timing = enable_timing;
    *event = e;
    return DT_OK;
}

static void sim_event_destroy(int index, void *event)
{
    (void)index;
    free(event);
}

static dt_status sim_event_record(int index, void *event, void *stream, dt_error *err)
{
    DT_TRY(check_stream(index, stream, err));
    sim_event *e = event;
    if (e->device != index)
        return dt_error_set(err, DT_ERR_RUNTIME,
                            "event on cuda:%d cannot be recorded on a stream of cuda:%d",
                            e->device, index);
    e->recorded = 1;
    e->time_ms = now_ms();
    return DT_OK;
}

static dt_status sim_event_synchronize(void *event, dt_error *err)
{
    (void)event;
    (void)err;
    return DT_OK;
}

static dt_status sim_event_query(void *event, int *done, dt_error *err)
{
    (void)event;
    (void)err;
    *done = 1;
    return DT_OK;
}

static dt_status sim_event_elapsed_ms(void *start, void *end, float *ms, dt_error *err)
{
    sim_event *a = start, *b = end;
    if (!a->timing || !b->timing)
        return dt_error_set(err, DT_ERR_RUNTIME,
                            "both events must be created with enable_timing=True");
    if (!a->recorded || !b->recorded)
        return dt_error_set(err, DT_ERR_RUNTIME,
                            "both events must be recorded before calling elapsed_time()");
    *ms = (float)(b->time_ms - a->time_ms);
    return DT_OK;
}

static const dt_backend_iface sim_backend = {
    .abi_version = DT_BACKEND_ABI_VERSION,
    .name = "cuda (simulated)",
    .device_count = sim_device_count,
    .unavailable_reason = sim_unavailable_reason,
    .get_device = sim_get_device,
    .set_device = sim_set_device,
    .device_props = sim_device_props,
    .can_access_peer = sim_can_access_peer,
    .synchronize = sim_synchronize,
    .alloc = sim_alloc,
    .free = sim_free,
    .record_stream = sim_record_stream,
    .memory_stats = sim_memory_stats,
    .reset_peak_stats = sim_reset_peak_stats,
    .empty_cache = sim_empty_cache,
    .mem_get_info = sim_mem_get_info,
    .host_alloc_pinned = sim_host_alloc_pinned,
    .host_free_pinned = sim_host_free_pinned,
    .host_is_pinned = sim_host_is_pinned,
    .copy = sim_copy,
    .run_loop = sim_run_loop,
    .generate = sim_generate,
    .stream_create = sim_stream_create,
    .stream_destroy = sim_stream_destroy,
    .stream_synchronize = sim_stream_synchronize,
    .stream_query = sim_stream_query,
    .stream_wait_event = sim_stream_wait_event,
    .get_stream = sim_get_stream,
    .set_stream = sim_set_stream,
    .event_create = sim_event_create,
    .event_destroy = sim_event_destroy,
    .event_record = sim_event_record,
    .event_synchronize = sim_event_synchronize,
    .event_query = sim_event_query,
    .event_elapsed_ms = sim_event_elapsed_ms,
};

const dt_backend_iface *dt_sim_backend_init(int ndevices, uint64_t memory_bytes)
{
    if (ndevices < 0)
        ndevices = 0;
    if (ndevices > DT_SIM_MAX_DEVICES)
        ndevices = DT_SIM_MAX_DEVICES;
    sim_ndevices = ndevices;
    sim_memory = memory_bytes ? memory_bytes : SIM_DEFAULT_MEMORY;
    return &sim_backend;
}
