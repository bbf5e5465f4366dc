/* sort.h - a stable sort along the last axis on any device, through the
 * backend's run_sort (backend.h's dt_sort_loop): the work of NumPy's sort,
 * argsort, partition, unique, median and the set functions
 * (devtensor._sorting, devtensor._sets).
 */
#ifndef DT_SORT_H
#define DT_SORT_H

#include "compat.h"
#include "tensor.h"

DT_EXTERN_C_BEGIN

/* out = src sorted stably along its last axis (a 0-d src as one element),
 * in NumPy's sort order or, for `descending`, its reverse (NaN first);
 * arg: out holds int64 positions along that axis instead of values.  out
 * is C-contiguous, of src's shape, of src's dtype (int64 for arg), on
 * src's device, and does not overlap src. */
dt_status dt_sort(const dt_tensor *src, int descending, int arg, dt_tensor *out, dt_error *err);

DT_EXTERN_C_END

#endif /* DT_SORT_H */
