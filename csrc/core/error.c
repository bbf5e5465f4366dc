/* error.c - filling dt_error reports (see error.h). */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>

dt_status dt_error_set(dt_error *err, dt_status status, const char *fmt, ...)
{
    if (err != NULL) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
        err->status = status;
    }
    return status;
}
