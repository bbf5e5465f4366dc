/* storage.c - refcounted device memory (see storage.h). */
#include "storage.h"

#include <stdlib.h>

#include "thread_exit.h"

static dt_oom_handler oom_handler;

void dt_storage_set_oom_handler(dt_oom_handler handler) { oom_handler = handler; }

/* Note [Spare storages]
 * A 0-d result (an element, a reduction to a scalar) allocates a storage
 * struct and frees it within the same statement, millions of times in a
 * NumPy loop; each thread keeps a few freed structs for its next ones
 * (a thread's own list: no locks; a struct freed on another thread joins
 * that thread's list, as malloc would let it). */
#define SPARE_STORAGES 16
static __thread dt_storage *spare[SPARE_STORAGES];
static __thread int n_spare, spare_kept; /* spare_kept: freed at the thread's end */

/* Note [Per-thread caches end with their thread] in thread_exit.c */
static void free_spares(void)
{
    while (n_spare > 0)
        free(spare[--n_spare]);
    spare_kept = 0; /* a release after this asks again */
}

static dt_status storage_new(dt_storage **out, dt_error *err)
{
    dt_storage *s = n_spare > 0 ? spare[--n_spare] : malloc(sizeof *s);
    if (s == NULL)
        return dt_error_set(err, DT_ERR_NOMEM, "out of host memory allocating a storage");
    *s = (dt_storage){.ptr = NULL};
    atomic_init(&s->refcount, 1);
    *out = s;
    return DT_OK;
}

dt_status dt_storage_alloc(dt_device device, size_t nbytes, dt_storage **out, dt_error *err)
{
    const dt_backend_iface *b = dt_backend_get((dt_device_type)device.type);
    if (b == NULL)
        return dt_error_set(err, DT_ERR_RUNTIME, "%s", dt_backend_unavailable_reason((dt_device_type)device.type));
    dt_storage *s = NULL;
    DT_TRY(storage_new(&s, err));
    int index = device.index < 0 ? 0 : device.index;
    void *stream = b->get_stream ? b->get_stream(index) : NULL;
    dt_status st = b->alloc(index, nbytes, stream, &s->ptr, &s->alloc_ctx, err);
    if (st == DT_ERR_DEVICE_OOM && (oom_handler != NULL || b->empty_cache != NULL)) {
        /* Note [Out of memory]: collect garbage, return cached blocks, retry once */
        if (oom_handler != NULL)
            oom_handler();
        if (b->empty_cache != NULL)
            b->empty_cache(index, NULL);
        st = b->alloc(index, nbytes, stream, &s->ptr, &s->alloc_ctx, err);
    }
    if (st != DT_OK) {
        free(s);
        return st;
    }
    s->nbytes = nbytes;
    s->device = device;
    s->backend = b;
    *out = s;
    return DT_OK;
}

dt_status dt_storage_alloc_pinned(size_t nbytes, dt_storage **out, dt_error *err)
{
    const dt_backend_iface *b = dt_backend_get(DT_DEVICE_CUDA);
    if (b == NULL || b->host_alloc_pinned == NULL)
        return dt_error_set(err, DT_ERR_RUNTIME, "cannot pin memory: %s",
                            b == NULL ? dt_backend_unavailable_reason(DT_DEVICE_CUDA)
                                      : "the CUDA backend has no pinned memory");
    dt_storage *s = NULL;
    DT_TRY(storage_new(&s, err));
    dt_status st = b->host_alloc_pinned(nbytes, &s->ptr, err);
    if (st != DT_OK) {
        free(s);
        return st;
    }
    s->nbytes = nbytes;
    s->device = dt_device_cpu();
    s->backend = b;
    s->pinned = 1;
    *out = s;
    return DT_OK;
}

dt_status dt_storage_wrap(void *ptr, size_t nbytes, dt_device device, dt_foreign_release release,
                          void *owner, dt_storage **out, dt_error *err)
{
    dt_storage *s = NULL;
    DT_TRY(storage_new(&s, err));
    s->ptr = ptr;
    s->nbytes = nbytes;
    s->device = device;
    s->release = release;
    s->owner = owner;
    *out = s;
    return DT_OK;
}

void dt_storage_release(dt_storage *s)
{
    /* the last reference (the usual case) needs no atomic decrement: no
     * one else holds one to take a new one from */
    if (s == NULL || (atomic_load_explicit(&s->refcount, memory_order_acquire) != 1 &&
                      atomic_fetch_sub_explicit(&s->refcount, 1, memory_order_acq_rel) != 1))
        return;
    if (s->release != NULL)
        s->release(s->owner);
    else if (s->pinned)
        s->backend->host_free_pinned(s->ptr);
    else if (s->backend != NULL)
        s->backend->free(s->device.index < 0 ? 0 : s->device.index, s->ptr, s->alloc_ctx);
    if (n_spare < SPARE_STORAGES && (spare_kept || (spare_kept = dt_at_thread_exit(free_spares) == 0)))
        spare[n_spare++] = s; /* Note [Spare storages] */
    else
        free(s);
}
