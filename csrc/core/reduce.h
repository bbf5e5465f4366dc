/* reduce.h - reductions over any set of axes, and scans along one, on any
 * device, through the backend's run_reduce and run_scan (backend.h's dt_reduce_loop).  Note [Reductions] in
 * reduce.c.  The NumPy-level functions (sum, mean, argmax, ... with axis,
 * keepdims, dtype, out, initial, where) are devtensor._reductions, which
 * reaches this through csrc/python/reduce.c.
 */
#ifndef DT_REDUCE_H
#define DT_REDUCE_H

#include <stdint.h>

#include "backend.h"
#include "compat.h"
#include "tensor.h"

DT_EXTERN_C_BEGIN

/* NumPy's result dtype of op on an input dtype: SUM and PROD give int64
 * for bool and signed integers narrower than 64 bits, uint64 for narrower
 * unsigned ones, the input's otherwise; MIN and MAX the input's; ARGMIN
 * and ARGMAX int64; ANY and ALL bool. */
dt_dtype dt_reduce_result_dtype(dt_reduce_op op, dt_dtype in);

/* 1 if run_reduce takes op from `in` to `out` directly: the result dtype,
 * and for SUM and PROD also the input's own dtype or, for a bool or
 * integer input, any integer dtype (the 64-bit sum wraps to it exactly). */
int dt_reduce_takes(dt_reduce_op op, dt_dtype in, dt_dtype out);

/* out = op over the axes of src whose bits are set in `axes` (bit d: axis
 * d); out is an existing tensor of src's shape without those axes, on
 * src's device, of a dtype dt_reduce_takes, not overlapping src.  An empty
 * reduction fills out with the op's identity; MIN, MAX, ARGMIN and ARGMAX
 * have none and raise NumPy's ValueError. */
dt_status dt_reduce(dt_reduce_op op, const dt_tensor *src, uint64_t axes, dt_tensor *out, dt_error *err);

/* out = the running op (DT_REDUCE_SUM: cumsum, DT_REDUCE_PROD: cumprod,
 * DT_REDUCE_MIN/MAX: minimum/maximum.accumulate) of src along `axis`; out
 * has src's shape, a dtype dt_reduce_takes for the op, src's device, and
 * does not overlap src. */
dt_status dt_scan(dt_reduce_op op, const dt_tensor *src, int axis, dt_tensor *out, dt_error *err);

/* NumPy's name of op (its ufunc's, or argmin/argmax). */
const char *dt_reduce_name(dt_reduce_op op);

DT_EXTERN_C_END

#endif /* DT_REDUCE_H */
