/* backend.c - the registry of backends, one slot per device type (see backend.h). */
#include "backend.h"


static const dt_backend_iface *slots[DT_NUM_DEVICE_TYPES];
static dt_backend_loader loaders[DT_NUM_DEVICE_TYPES];
static const char *load_failure[DT_NUM_DEVICE_TYPES];
static int load_tried[DT_NUM_DEVICE_TYPES];

void dt_backend_register(dt_device_type type, const dt_backend_iface *iface)
{
    slots[type] = iface;
    load_tried[type] = 1;
}

void dt_backend_set_loader(dt_device_type type, dt_backend_loader loader)
{
    loaders[type] = loader;
    load_tried[type] = 0;
}

/* Note [Lazy CUDA]
 * Import never touches CUDA: the CUDA slot is filled the first time
 * something asks for it, by the loader the wrapper installed.  A failed
 * load is remembered with its reason; it is not retried. */
const dt_backend_iface *dt_backend_get(dt_device_type type)
{
    if (type < 0 || type >= DT_NUM_DEVICE_TYPES)
        return NULL;
    if (slots[type] == NULL && !load_tried[type] && loaders[type] != NULL) {
        load_tried[type] = 1;
        const char *reason = NULL;
        const dt_backend_iface *b = loaders[type](&reason);
        if (b != NULL && b->abi_version != DT_BACKEND_ABI_VERSION) {
            reason = "devtensor._cuda was built for another version of devtensor (backend ABI "
                     "mismatch); reinstall devtensor";
            b = NULL;
        }
        slots[type] = b;
        load_failure[type] = reason;
    }
    return slots[type];
}

const char *dt_backend_unavailable_reason(dt_device_type type)
{
    const dt_backend_iface *b = dt_backend_get(type);
    if (b == NULL)
        return load_failure[type] ? load_failure[type] : "devtensor was built without CUDA support";
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
