/* search.h - binary search in a sorted 1-d tensor on any device, through
 * the backend's run_search (backend.h's dt_search_loop): the work of
 * NumPy's searchsorted and digitize (devtensor._sorting).
 */
#ifndef DT_SEARCH_H
#define DT_SEARCH_H

#include "compat.h"
#include "tensor.h"

DT_EXTERN_C_BEGIN

/* out[i] = where values[i] goes in sorted (1-d, in NumPy's sort order;
 * unsorted input gives some position in [0, n], never an error): before
 * the equal elements, or after them for `right`.  sorted and values share
 * a dtype and a device; out is int64, C-contiguous, of values' shape. */
dt_status dt_search(const dt_tensor *sorted, const dt_tensor *values, int right, dt_tensor *out, dt_error *err);

DT_EXTERN_C_END

#endif /* DT_SEARCH_H */
