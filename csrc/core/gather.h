/* gather.h - advanced indexing on a device: gather (x[idx]), scatter
 * (x[idx] = v, the last write winning) and the positions of a boolean
 * mask's true elements, through the backend's index kernels (backend.h's
 * dt_index_loop).  Note [Advanced indexing on devices] in gather.c.
 *
 * The caller (devtensor._advanced, through csrc/python/advanced.c) turns
 * a NumPy index into this form: a view src or dst of shape R whose axes
 * [b_start, b_start + B.ndim) are the broadcast index space B (stride 0
 * there), and per indexed axis of the user's array an int64 index tensor
 * of shape B with that axis's length and byte stride.
 */
#ifndef DT_GATHER_H
#define DT_GATHER_H

#include <stdint.h>

#include "compat.h"
#include "tensor.h"

DT_EXTERN_C_BEGIN

typedef struct dt_index_axis {
    const dt_tensor *index;  /* int64, shape B, on the data's device */
    int64_t length;          /* the indexed axis's length and byte stride */
    int64_t stride;
    int axis;                /* its number in the user's array (for messages) */
} dt_index_axis;

/* out[p] = src[p] moved by sum_k index_k[p's B part] * stride_k (negative
 * indices wrapped) for every p of R; out and src have R's shape and one
 * dtype.  IndexError "index 7 is out of bounds for axis 0 with size 5"
 * (the first bad index of the first axis that has one, in C order) and
 * nothing written when an index is outside [-length, length). */
dt_status dt_index_take(dt_tensor *out, const dt_tensor *src, int b_start, int nidx, const dt_index_axis *ax,
                        dt_error *err);

/* dst[p] moved as above = val[p]; where several p reach one element, the
 * last p in C order wins (NumPy's x[idx] = v).  val has R's shape and
 * dst's dtype and may overlap dst.  Errors as dt_index_take's. */
dt_status dt_index_put(dt_tensor *dst, const dt_tensor *val, int b_start, int nidx, const dt_index_axis *ax,
                       dt_error *err);

/* out = a new int64 tensor (n,) of the C-order positions of mask's true
 * elements; mask is bool and C-contiguous. */
dt_status dt_index_nonzero(dt_tensor *out, const dt_tensor *mask, dt_error *err);

DT_EXTERN_C_END

#endif /* DT_GATHER_H */
