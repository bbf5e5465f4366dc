/* backend.c - the registry of backends, one slot per device type (see backend.h). */
#include "backend.h"


#include <stdatomic.h>

static _Atomic(const dt_backend_iface *) slots[DT_NUM_DEVICE_TYPES];
static dt_backend_loader loaders[DT_NUM_DEVICE_TYPES];
static _Atomic(const char *) load_failure[DT_NUM_DEVICE_TYPES];
static atomic_int load_done[DT_NUM_DEVICE_TYPES]; /* the load ran (a slot, or a failure) */
static _Thread_local int loading_here[DT_NUM_DEVICE_TYPES];

void dt_backend_register(dt_device_type type, const dt_backend_iface *iface)
{
    atomic_store(&slots[type], iface);
    atomic_store(&load_done[type], 1);
}

void dt_backend_set_loader(dt_device_type type, dt_backend_loader loader)
{
    loaders[type] = loader;
    atomic_store(&load_done[type], 0);
}

/* Note [Lazy CUDA]
 * Import never touches CUDA: the CUDA slot is filled the first time
 * something asks for it, by the loader the wrapper installed.  A failed
 * load is remembered with its reason; it is not retried.
 *
 * Note [Loading from several threads]
 * The loader imports a Python module, and an import lets other threads run
 * in the middle.  A second thread asking meanwhile must not be told "no
 * CUDA": it runs the loader too, which waits on Python's import lock for
 * the first thread's import and returns the same vtable (the loader is
 * idempotent), so every caller gets the one answer; a failure cannot
 * undo another thread's success (its vtable stays).  Only a call from
 * inside the loader's own thread (the module's import asking again) gets
 * NULL, as a load cannot wait for itself. */
const dt_backend_iface *dt_backend_get(dt_device_type type)
{
    if (type < 0 || type >= DT_NUM_DEVICE_TYPES)
        return NULL;
    const dt_backend_iface *b = atomic_load(&slots[type]);
    if (b != NULL || atomic_load(&load_done[type]) || loaders[type] == NULL || loading_here[type])
        return b;
    loading_here[type] = 1;
    const char *reason = NULL;
    b = loaders[type](&reason);
    loading_here[type] = 0;
    if (b != NULL && b->abi_version != DT_BACKEND_ABI_VERSION) {
        reason = "devtensor._cuda was built for another version of devtensor (backend ABI "
                 "mismatch); reinstall devtensor";
        b = NULL;
    }
    if (b != NULL) {
        atomic_store(&slots[type], b);
    } else {
        const dt_backend_iface *other = atomic_load(&slots[type]);
        if (other != NULL) /* another thread's load succeeded: a failure here does not undo it */
            return other;
        atomic_store(&load_failure[type], reason);
    }
    atomic_store(&load_done[type], 1);
    return b;
}

const char *dt_backend_unavailable_reason(dt_device_type type)
{
    const dt_backend_iface *b = dt_backend_get(type);
    if (b == NULL) {
        const char *failure = atomic_load(&load_failure[type]);
        return failure ? failure : "devtensor was built without CUDA support";
    }
    if (b->device_count() == 0) {
        const char *why = b->unavailable_reason ? b->unavailable_reason() : NULL;
        return why ? why : "no CUDA device was found";
    }
    return "available";
}

int dt_backend_device_count(dt_device_type type)
{
    const dt_backend_iface *b = dt_backend_get(type);
    return b == NULL ? 0 : b->device_count();
}

const dt_backend_iface *dt_device_resolve(dt_device *dev, dt_error *err)
{
    dt_device_type type = (dt_device_type)dev->type;
    const dt_backend_iface *b = dt_backend_get(type);
    if (type == DT_DEVICE_CPU)
        return b;
    int count = b == NULL ? 0 : b->device_count();
    if (count == 0) {
        dt_error_set(err, DT_ERR_RUNTIME, "CUDA is not available: %s",
                     dt_backend_unavailable_reason(type));
        return NULL;
    }
    if (dev->index == DT_INDEX_CURRENT) {
        int current = 0;
        if (b->get_device != NULL && b->get_device(&current, err) != DT_OK)
            return NULL;
        dev->index = (int16_t)current;
    }
    if (dev->index < 0 || dev->index >= count) {
        if (count == 1)
            dt_error_set(err, DT_ERR_RUNTIME,
                         "Invalid device cuda:%d: CUDA device index %d is out of range; 1 CUDA "
                         "device is available (cuda:0)", (int)dev->index, (int)dev->index);
        else
            dt_error_set(err, DT_ERR_RUNTIME,
                         "Invalid device cuda:%d: CUDA device index %d is out of range; %d CUDA "
                         "devices are available (cuda:0 to cuda:%d)",
                         (int)dev->index, (int)dev->index, count, count - 1);
        return NULL;
    }
    return b;
}
