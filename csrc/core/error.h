/* error.h - the C core's error report.
 *
 * Core and backend functions never touch Python: they return a status
 * (DT_OK == 0, anything else is a failure) and, on failure, fill a
 * dt_error with a kind and a message.  The Python wrapper maps each kind
 * to an exception type (csrc/python/errors.c).
 */
#ifndef DT_ERROR_H
#define DT_ERROR_H

#include <stddef.h>
#include "compat.h"

DT_EXTERN_C_BEGIN

typedef enum dt_status {
    DT_OK = 0,
    DT_ERR_VALUE,          /* ValueError */
    DT_ERR_TYPE,           /* TypeError */
    DT_ERR_RUNTIME,        /* RuntimeError */
    DT_ERR_INDEX,          /* IndexError */
    DT_ERR_OVERFLOW,       /* OverflowError: a size does not fit in 64 bits */
    DT_ERR_NOMEM,          /* MemoryError: host allocation failed */
    DT_ERR_DEVICE_OOM,     /* devtensor.cuda.OutOfMemoryError */
    DT_ERR_NOT_IMPLEMENTED /* NotImplementedError */
} dt_status;

#define DT_ERROR_MSG_MAX 512

typedef struct dt_error {
    dt_status status;
    char msg[DT_ERROR_MSG_MAX];
} dt_error;

/* Fill err (may be NULL) and return status, so callers can write
 *     return dt_error_set(err, DT_ERR_VALUE, "bad %s", what);           */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
dt_status dt_error_set(dt_error *err, dt_status status, const char *fmt, ...);

#define DT_TRY(expr)                      \
    do {                                  \
        dt_status dt_try_s_ = (expr);     \
        if (dt_try_s_ != DT_OK)           \
            return dt_try_s_;             \
    } while (0)

DT_EXTERN_C_END

#endif /* DT_ERROR_H */
