/* elementwise.h - broadcasting, type resolution and launch of elementwise ops.
 *
 * The core builds a dt_loop (backend.h) from operands: it broadcasts their
 * shapes with NumPy's rules, drops unit dimensions, coalesces dimensions
 * that are contiguous for every operand, and hands the result to the
 * device's backend.  Type resolution (which dtype an op computes in) lives
 * here too, so every backend sees operands that already agree.
 */
#ifndef DT_ELEMENTWISE_H
#define DT_ELEMENTWISE_H

#include "tensor.h"

/* An input: a tensor, or a scalar value that takes the device of the
 * tensors beside it.  The caller resolves a Python scalar's dtype with
 * dt_promote_weak before building the operand. */
typedef struct dt_operand {
    const dt_tensor *tensor;   /* NULL for a scalar */
    dt_dtype dtype;            /* the scalar's dtype (ignored for tensors) */
    union {
        unsigned char bytes[16];
        double align_;
    } value;                   /* the scalar, stored as dtype */
} dt_operand;

static inline dt_dtype dt_operand_dtype(const dt_operand *o)
{
    return o->tensor ? o->tensor->dtype : o->dtype;
}

/* NumPy broadcasting; the error names every shape as NumPy does:
 * "operands could not be broadcast together with shapes (2,3) (4,) ". */
dt_status dt_broadcast_shapes(int n, const int *ndims, const int64_t *const *shapes,
                              int *out_ndim, int64_t *out_shape, dt_error *err);

/* Convert one scalar value between dtypes (NumPy's cast). */
void dt_scalar_cast(dt_dtype from, const void *src, dt_dtype to, void *dst);

/* The device all tensor operands share; RuntimeError naming the first two
 * distinct devices otherwise.  Fails if no operand is a tensor. */
dt_status dt_operands_device(int n, const dt_operand *ops, dt_device *device, dt_error *err);

/* out = a op b with NumPy's promotion of a's and b's dtypes.  out must be
 * uninitialised (dt_tensor_init_empty); it is created on the operands'
 * device with the broadcast shape. */
dt_status dt_binary(dt_op op, const dt_operand *a, const dt_operand *b, dt_tensor *out,
                    dt_error *err);
/* The dtype dt_binary computes in and the dtype it returns. */
dt_status dt_binary_result_type(dt_op op, dt_dtype a, dt_dtype b, dt_dtype *compute,
                                dt_dtype *result, dt_error *err);

/* Run `op` with out already allocated (same device, broadcast-compatible)
 * and every input already of the loop's dtypes.  Used by copy and dt_binary. */
dt_status dt_launch(dt_op op, dt_tensor *out, int nin, const dt_operand *in, dt_error *err);

#endif /* DT_ELEMENTWISE_H */
