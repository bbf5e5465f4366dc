/* reshape.h - the geometry of reshape: NumPy's inference of one unknown
 * (-1) dimension, and the strides that give a tensor a new shape without
 * copying, when they exist (NumPy's _attempt_nocopy_reshape).  Shapes and
 * strides only: the same on every device.
 */
#ifndef DT_RESHAPE_H
#define DT_RESHAPE_H

#include <stdint.h>

#include "compat.h"
#include "error.h"

DT_EXTERN_C_BEGIN

/* shape[0..ndim) with at most one negative entry (unknown) filled in so
 * that the product is numel; ValueError with NumPy's message otherwise. */
dt_status dt_reshape_infer(int64_t numel, int ndim, int64_t *shape, dt_error *err);

/* Byte strides for a tensor (old_ndim, old_shape, old_strides, numel
 * elements of itemsize bytes, contiguous or not) seen with new_shape
 * (already inferred): 1 with new_strides filled when no copy is needed,
 * 0 when the old axes a new axis spans are not contiguous with each other. */
int dt_reshape_nocopy(int old_ndim, const int64_t *old_shape, const int64_t *old_strides, int64_t itemsize,
                      int64_t numel, int contiguous, int new_ndim, const int64_t *new_shape,
                      int64_t *new_strides);

DT_EXTERN_C_END

#endif /* DT_RESHAPE_H */
