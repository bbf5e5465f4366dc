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

/* 0-d CPU tensor inputs beside a tensor on another device (an input or out,
 * which may be NULL) become scalar operands of their dtype (Note [0-d CPU
 * tensors as scalars] in elementwise.c). */
void dt_operands_lift_cpu_scalars(int nin, dt_operand *in, const dt_tensor *out);

/* NumPy's casting rules, for dtype= and out= of dt_ufunc. */
typedef enum dt_casting {
    DT_CASTING_NO = 0, DT_CASTING_EQUIV, DT_CASTING_SAFE, DT_CASTING_SAME_KIND, DT_CASTING_UNSAFE
} dt_casting;
int dt_can_cast(dt_dtype from, dt_dtype to, dt_casting casting);

/* The number of inputs and NumPy's name of an op. */
int dt_op_nin(dt_op op);
const char *dt_op_name(dt_op op);

/* Type resolution (Note [Type resolution] in elementwise.c): the dtype the
 * inputs are cast to (loop[k], one per input) and the output's dtype, from
 * the inputs' dtypes; `forced` is dtype= (or -1).  TypeError, with NumPy's
 * wording, when the op has no loop for those dtypes. */
dt_status dt_ufunc_resolve(dt_op op, const dt_dtype *in, int forced, dt_casting casting,
                           dt_dtype *loop, dt_dtype *out, dt_error *err);

/* The dtype a Python scalar of `kind` takes in `op` beside tensors whose
 * promoted dtype is `peer` (NEP 50, plus NumPy's rule that float-only ops
 * read Python ints and bools directly in their float loop). */
dt_dtype dt_ufunc_weak_dtype(dt_op op, dt_dtype peer, dt_weak_kind kind);

/* out = op(in...) with NumPy's semantics: broadcasting, promotion (the
 * caller turned Python scalars into operands with dt_promote_weak), dtype=
 * (`forced`, -1 for none) and out=.  If out_given, *out is an existing tensor
 * written in place (after the casting check; overlapping inputs are read
 * before anything is written); otherwise *out must be uninitialised
 * (dt_tensor_init_empty) and receives a new tensor. */
dt_status dt_ufunc(dt_op op, const dt_operand *in, dt_tensor *out, int out_given, int forced,
                   dt_casting casting, dt_error *err);

/* Run `op` with out already allocated (same device, broadcast-compatible)
 * and every input already of the loop's dtypes.  Used by copies, fills and dt_ufunc. */
dt_status dt_launch(dt_op op, dt_tensor *out, int nin, const dt_operand *in, dt_error *err);

/* perm := the axes of a result of t's shape in NumPy's order='K' for t
 * alone (Note [Results in the inputs' order] in elementwise.c), outermost
 * first, for dt_tensor_init_new_ordered: t's own layout when it is dense. */
void dt_tensor_k_order(const dt_tensor *t, int *perm);

#endif /* DT_ELEMENTWISE_H */
