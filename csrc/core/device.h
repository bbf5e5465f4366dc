/* device.h - where a tensor lives: a device type and, for CUDA, an index.
 *
 * A tensor's device always carries a concrete index (cuda:0, never bare
 * "cuda"); DT_INDEX_CURRENT only appears in a user's request and is
 * resolved through the backend's current device before use.
 */
#ifndef DT_DEVICE_H
#define DT_DEVICE_H

#include <stddef.h>
#include <stdint.h>
#include "compat.h"
#include "error.h"

DT_EXTERN_C_BEGIN

typedef enum dt_device_type {
    DT_DEVICE_CPU = 0,
    DT_DEVICE_CUDA = 1,
    DT_NUM_DEVICE_TYPES
} dt_device_type;

#define DT_INDEX_NONE (-1)     /* cpu: no index */
#define DT_INDEX_CURRENT (-2)  /* "cuda" without an index: the current device */
#define DT_MAX_DEVICE_INDEX 32767

typedef struct dt_device {
    int8_t type;    /* dt_device_type */
    int16_t index;  /* DT_INDEX_NONE for cpu */
} dt_device;

static inline dt_device dt_device_cpu(void)
{
    dt_device d = {DT_DEVICE_CPU, DT_INDEX_NONE};
    return d;
}

static inline int dt_device_equal(dt_device a, dt_device b)
{
    return a.type == b.type && a.index == b.index;
}

const char *dt_device_type_name(dt_device_type t);

/* Parse "cpu", "cuda", "cuda:N".  Does not touch any hardware. */
dt_status dt_device_parse(const char *s, dt_device *out, dt_error *err);

/* Writes "cpu", "cuda" or "cuda:N" into buf. */
void dt_device_format(dt_device d, char *buf, size_t size);

DT_EXTERN_C_END

#endif /* DT_DEVICE_H */
