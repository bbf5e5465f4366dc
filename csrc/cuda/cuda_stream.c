/* cuda_stream.c - CUDA streams and events, and the per-thread current stream.
 *
 * Note [Stream handles]
 * The opaque stream the core holds is a dt_cuda_stream (cuda_internal.h),
 * not a bare cudaStream_t: it knows its device, so a stream of cuda:1 used
 * for work on cuda:0 is a clear error instead of undefined behaviour, and it
 * gives the caching allocator a key that is never reused.  Destroying a
 * stream synchronises it, hands its cached memory to the default stream
 * (cuda_alloc.c, dt_cuda_alloc_stream_retire), destroys the CUDA stream and
 * marks the handle destroyed; the small struct itself is never freed,
 * because blocks still allocated on it keep pointing at it (a new stream can
 * then never alias an old one in the allocator).  Streams are created
 * non-blocking (they do not synchronise with the legacy default stream),
 * like PyTorch's.
 * Who destroys a handle, and when, is decided above this file: each handle
 * is owned by one devtensor.cuda.Stream / Event object, destroyed once when
 * it goes, never while it is any thread's current stream (Note [Stream and
 * event ownership] in csrc/python/stream_type.c).  So the "destroyed" flag
 * is a guard for callers of the vtable that break that rule (a destroyed
 * stream gives an error, not undefined behaviour); an event has no such
 * guard: its struct is freed by event_destroy.
 *
 * Note [NULL streams]
 * backend.h uses NULL both for "the default stream" and, in dt_loop, for
 * "the current stream".  Here: the slots that queue work (alloc, copy,
 * run_loop, generate, event_record) read NULL as the thread's current stream
 * of the device (which is itself the legacy default stream unless
 * set_stream chose another); the slots that name a stream to act on
 * (stream_synchronize, stream_query, stream_wait_event, set_stream) read
 * NULL as the legacy default stream.
 */
#include "cuda_internal.h"

#include <stdlib.h>

static _Thread_local dt_cuda_stream *tls_stream[DT_CUDA_MAX_DEVICES];

static dt_status stream_check(int index, dt_cuda_stream *s, dt_error *err)
{
    if (s == NULL)
        return DT_OK;
    if (s->device != index)
        return dt_error_set(err, DT_ERR_VALUE, "a stream of cuda:%d cannot be used for work on cuda:%d",
                            s->device, index);
    if (__atomic_load_n(&s->destroyed, __ATOMIC_ACQUIRE))
        return dt_error_set(err, DT_ERR_RUNTIME, "the CUDA stream (cuda:%d) has been destroyed", s->device);
    return DT_OK;
}

dt_status dt_cuda_stream_resolve(int index, void *stream, dt_cuda_stream **out, cudaStream_t *raw,
                                 dt_error *err)
{
    DT_TRY(dt_cuda_index_check(index, err));
    dt_cuda_stream *s = stream != NULL ? (dt_cuda_stream *)stream : tls_stream[index];
    DT_TRY(stream_check(index, s, err));
    if (out != NULL)
        *out = s;
    if (raw != NULL)
        *raw = dt_cuda_stream_raw(s);
    return DT_OK;
}

/* Note [NULL streams]: NULL is the legacy default stream here. */
static dt_status stream_literal(int index, void *stream, cudaStream_t *raw, dt_error *err)
{
    DT_TRY(dt_cuda_index_check(index, err));
    DT_TRY(stream_check(index, (dt_cuda_stream *)stream, err));
    *raw = dt_cuda_stream_raw((dt_cuda_stream *)stream);
    return DT_OK;
}

dt_status dt_cuda_stream_create(int index, int priority, void **stream, dt_error *err)
{
    *stream = NULL;
    dt_cuda_guard g;
    DT_TRY(dt_cuda_guard_enter(&g, index, err));
    int least = 0, greatest = 0;
    dt_status st = DT_CUDA_CALL(err, index, cudaDeviceGetStreamPriorityRange, (&least, &greatest));
    if (st != DT_OK)
        goto out;
    /* lower numbers are higher priorities: clamp into [greatest, least] */
    if (priority < greatest)
        priority = greatest;
    if (priority > least)
        priority = least;
    dt_cuda_stream *s = (dt_cuda_stream *)calloc(1, sizeof *s);
    if (s == NULL) {
        st = dt_error_set(err, DT_ERR_NOMEM, "out of host memory creating a CUDA stream");
        goto out;
    }
    st = DT_CUDA_CALL(err, index, cudaStreamCreateWithPriority, (&s->handle, cudaStreamNonBlocking, priority));
    if (st != DT_OK) {
        free(s);
        goto out;
    }
    s->device = index;
    s->priority = priority;
    *stream = s;
out:
    dt_cuda_guard_exit(&g);
    return st;
}

void dt_cuda_stream_destroy(int index, void *stream)
{
    dt_cuda_stream *s = (dt_cuda_stream *)stream;
    (void)index;
    if (s == NULL || __atomic_load_n(&s->destroyed, __ATOMIC_ACQUIRE))
        return;
    dt_cuda_guard g;
    if (dt_cuda_guard_enter(&g, s->device, NULL) != DT_OK)
        return;
    /* Note [Stream handles]: finish its work before its memory changes hands */
    if (cudaStreamSynchronize(s->handle) != cudaSuccess)
        (void)cudaGetLastError();
    if (__atomic_exchange_n(&s->destroyed, 1, __ATOMIC_ACQ_REL)) { /* lost a race to destroy it */
        dt_cuda_guard_exit(&g);
        return;
    }
    dt_cuda_blas_stream_retire(s->device, s);
    dt_cuda_alloc_stream_retire(s->device, s);
    if (tls_stream[s->device] == s)
        tls_stream[s->device] = NULL;
    if (cudaStreamDestroy(s->handle) != cudaSuccess)
        (void)cudaGetLastError();
    dt_cuda_guard_exit(&g);
}

dt_status dt_cuda_stream_synchronize(int index, void *stream, dt_error *err)
{
    cudaStream_t raw;
    DT_TRY(stream_literal(index, stream, &raw, err));
    dt_cuda_guard g;
    DT_TRY(dt_cuda_guard_enter(&g, index, err));
    dt_status st = DT_CUDA_CALL(err, index, cudaStreamSynchronize, (raw));
    dt_cuda_guard_exit(&g);
    return st;
}

dt_status dt_cuda_stream_query(int index, void *stream, int *done, dt_error *err)
{
    cudaStream_t raw;
    DT_TRY(stream_literal(index, stream, &raw, err));
    dt_cuda_guard g;
    DT_TRY(dt_cuda_guard_enter(&g, index, err));
    cudaError_t e = cudaStreamQuery(raw);
    dt_status st = DT_OK;
    if (e == cudaSuccess)
        *done = 1;
    else if (e == cudaErrorNotReady) {
        (void)cudaGetLastError();
        *done = 0;
    } else
        st = dt_cuda_error_set(err, e, "cudaStreamQuery", index);
    dt_cuda_guard_exit(&g);
    return st;
}

dt_status dt_cuda_stream_wait_event(int index, void *stream, void *event, dt_error *err)
{
    cudaStream_t raw;
    DT_TRY(stream_literal(index, stream, &raw, err));
    if (event == NULL)
        return dt_error_set(err, DT_ERR_VALUE, "stream_wait_event: no event");
    dt_cuda_event *ev = (dt_cuda_event *)event;
    dt_cuda_guard g;
    DT_TRY(dt_cuda_guard_enter(&g, index, err));
    /* an event of another device is allowed: CUDA orders across devices */
    dt_status st = DT_CUDA_CALL(err, index, cudaStreamWaitEvent, (raw, ev->handle, 0));
    dt_cuda_guard_exit(&g);
    return st;
}

/* The CUDA handle of a stream (0 for the legacy default stream), for other
 * libraries (torch.cuda.ExternalStream, cupy.cuda.ExternalStream). */
dt_status dt_cuda_stream_native(int index, void *stream, uintptr_t *native, dt_error *err)
{
    cudaStream_t raw;
    *native = 0;
    DT_TRY(stream_literal(index, stream, &raw, err));
    *native = (uintptr_t)raw;
    return DT_OK;
}

/* Queue on `stream` a wait for the work queued so far on another library's
 * stream of the same device (a cudaStream_t, 1 or 2 for the legacy and
 * per-thread default streams): an event recorded there, waited on here,
 * destroyed at once (CUDA keeps it until the wait is done).  The handle is
 * the producer's word: CUDA cannot validate it. */
dt_status dt_cuda_stream_wait_native(int index, void *stream, uintptr_t native, dt_error *err)
{
    cudaStream_t raw;
    DT_TRY(stream_literal(index, stream, &raw, err));
    dt_cuda_guard g;
    DT_TRY(dt_cuda_guard_enter(&g, index, err));
    cudaEvent_t ev;
    dt_status st = DT_CUDA_CALL(err, index, cudaEventCreateWithFlags, (&ev, cudaEventDisableTiming));
    if (st == DT_OK) {
        st = DT_CUDA_CALL(err, index, cudaEventRecord, (ev, (cudaStream_t)native));
        if (st == DT_OK)
            st = DT_CUDA_CALL(err, index, cudaStreamWaitEvent, (raw, ev, 0));
        if (cudaEventDestroy(ev) != cudaSuccess)
            (void)cudaGetLastError();
    }
    dt_cuda_guard_exit(&g);
    return st;
}

void *dt_cuda_stream_get(int index)
{
    if (index < 0 || index >= dt_cuda_device_count())
        return NULL;
    return tls_stream[index];
}

dt_status dt_cuda_stream_set(int index, void *stream, dt_error *err)
{
    DT_TRY(dt_cuda_index_check(index, err));
    DT_TRY(stream_check(index, (dt_cuda_stream *)stream, err));
    tls_stream[index] = (dt_cuda_stream *)stream;
    return DT_OK;
}

/* ---- events ---- */

dt_status dt_cuda_event_create(int index, int enable_timing, void **event, dt_error *err)
{
    *event = NULL;
    dt_cuda_guard g;
    DT_TRY(dt_cuda_guard_enter(&g, index, err));
    dt_status st = DT_OK;
    dt_cuda_event *ev = (dt_cuda_event *)calloc(1, sizeof *ev);
    if (ev == NULL) {
        st = dt_error_set(err, DT_ERR_NOMEM, "out of host memory creating a CUDA event");
        goto out;
    }
    unsigned flags = enable_timing ? cudaEventDefault : cudaEventDisableTiming;
    st = DT_CUDA_CALL(err, index, cudaEventCreateWithFlags, (&ev->handle, flags));
    if (st != DT_OK) {
        free(ev);
        goto out;
    }
    ev->device = index;
    ev->timing = enable_timing != 0;
    *event = ev;
out:
    dt_cuda_guard_exit(&g);
    return st;
}

void dt_cuda_event_destroy(int index, void *event)
{
    dt_cuda_event *ev = (dt_cuda_event *)event;
    (void)index;
    if (ev == NULL)
        return;
    dt_cuda_guard g;
    if (dt_cuda_guard_enter(&g, ev->device, NULL) == DT_OK) {
        /* destruction is deferred by CUDA until recorded work completes */
        if (cudaEventDestroy(ev->handle) != cudaSuccess)
            (void)cudaGetLastError();
        dt_cuda_guard_exit(&g);
    }
    free(ev);
}

dt_status dt_cuda_event_record(int index, void *event, void *stream, dt_error *err)
{
    if (event == NULL)
        return dt_error_set(err, DT_ERR_VALUE, "event_record: no event");
    dt_cuda_event *ev = (dt_cuda_event *)event;
    if (ev->device != index)
        return dt_error_set(err, DT_ERR_RUNTIME, /* PyTorch's type */
                            "an event created on cuda:%d cannot be recorded on a stream of cuda:%d",
                            ev->device, index);
    cudaStream_t raw;
    DT_TRY(dt_cuda_stream_resolve(index, stream, NULL, &raw, err));
    dt_cuda_guard g;
    DT_TRY(dt_cuda_guard_enter(&g, index, err));
    dt_status st = DT_CUDA_CALL(err, index, cudaEventRecord, (ev->handle, raw));
    dt_cuda_guard_exit(&g);
    return st;
}

dt_status dt_cuda_event_synchronize(void *event, dt_error *err)
{
    if (event == NULL)
        return dt_error_set(err, DT_ERR_VALUE, "event_synchronize: no event");
    dt_cuda_event *ev = (dt_cuda_event *)event;
    return DT_CUDA_CALL(err, ev->device, cudaEventSynchronize, (ev->handle));
}

dt_status dt_cuda_event_query(void *event, int *done, dt_error *err)
{
    if (event == NULL)
        return dt_error_set(err, DT_ERR_VALUE, "event_query: no event");
    dt_cuda_event *ev = (dt_cuda_event *)event;
    cudaError_t e = cudaEventQuery(ev->handle);
    if (e == cudaSuccess) {
        *done = 1;
        return DT_OK;
    }
    if (e == cudaErrorNotReady) {
        (void)cudaGetLastError();
        *done = 0;
        return DT_OK;
    }
    return dt_cuda_error_set(err, e, "cudaEventQuery", ev->device);
}

dt_status dt_cuda_event_elapsed_ms(void *start, void *end, float *ms, dt_error *err)
{
    if (start == NULL || end == NULL)
        return dt_error_set(err, DT_ERR_VALUE, "elapsed_time: no event");
    dt_cuda_event *a = (dt_cuda_event *)start, *b = (dt_cuda_event *)end;
    if (!a->timing || !b->timing)
        return dt_error_set(err, DT_ERR_RUNTIME,
                            "elapsed_time needs both events created with enable_timing=True");
    if (a->device != b->device)
        return dt_error_set(err, DT_ERR_RUNTIME, "elapsed_time: the events are on cuda:%d and cuda:%d",
                            a->device, b->device);
    cudaError_t e = cudaEventElapsedTime(ms, a->handle, b->handle);
    if (e == cudaErrorNotReady) {
        (void)cudaGetLastError();
        return dt_error_set(err, DT_ERR_RUNTIME,
                            "elapsed_time: an event has not completed yet (synchronize it first)");
    }
    if (e == cudaErrorInvalidResourceHandle) {
        (void)cudaGetLastError();
        return dt_error_set(err, DT_ERR_RUNTIME,
                            "elapsed_time: both events must be recorded first (CUDA error in "
                            "cudaEventElapsedTime on cuda:%d: %s)",
                            a->device, cudaGetErrorString(e));
    }
    return dt_cuda_check(e, "cudaEventElapsedTime", a->device, err);
}
