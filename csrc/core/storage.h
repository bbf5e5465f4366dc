/* storage.h - refcounted device memory shared by a tensor and its views.
 *
 * A storage is either allocated through its device's backend (released
 * through backend->free) or foreign: memory owned by someone else (a NumPy
 * array, a DLPack capsule) and released by calling `release(owner)`.
 */
#ifndef DT_STORAGE_H
#define DT_STORAGE_H

#include <stdatomic.h>
#include <stddef.h>
#include "backend.h"
#include "device.h"
#include "error.h"

typedef void (*dt_foreign_release)(void *owner);

typedef struct dt_storage {
    atomic_long refcount;
    void *ptr;
    size_t nbytes;
    dt_device device;
    const dt_backend_iface *backend;  /* NULL for foreign memory */
    void *alloc_ctx;                  /* backend->alloc's ctx */
    dt_foreign_release release;       /* foreign memory only */
    void *owner;                      /* foreign memory only */
    int pinned;                       /* host memory from host_alloc_pinned */
    int readonly;                     /* foreign memory its owner lets us read only */
    void *wrapper;                    /* the language binding's object that owns this storage
                                         (borrowed, NULL for none; the Python layer's Note
                                         [A view's base]); the core only zeroes it */
} dt_storage;

/* New storage of nbytes on a resolved device (see dt_device_resolve). */
dt_status dt_storage_alloc(dt_device device, size_t nbytes, dt_storage **out, dt_error *err);
/* Page-locked host memory from the CUDA backend (for fast transfers). */
dt_status dt_storage_alloc_pinned(size_t nbytes, dt_storage **out, dt_error *err);
/* Wrap memory owned by `owner`; on failure release(owner) is not called. */
dt_status dt_storage_wrap(void *ptr, size_t nbytes, dt_device device, dt_foreign_release release,
                          void *owner, dt_storage **out, dt_error *err);

/* Called once when a device allocation runs out of memory, before the
 * cache is emptied and the allocation retried (the wrapper runs Python's
 * garbage collector, which may free tensors nobody can reach). */
typedef void (*dt_oom_handler)(void);
void dt_storage_set_oom_handler(dt_oom_handler handler);

static inline void dt_storage_retain(dt_storage *s)
{
    atomic_fetch_add_explicit(&s->refcount, 1, memory_order_relaxed);
}
void dt_storage_release(dt_storage *s);

#endif /* DT_STORAGE_H */
