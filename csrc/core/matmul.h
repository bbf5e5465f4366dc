/* matmul.h - the matrix product with NumPy's matmul rules, on any device
 * whose backend fills run_matmul (Note [Matrix products] in matmul.c). */
#ifndef DT_MATMUL_H
#define DT_MATMUL_H

#include "compat.h"
#include "tensor.h"

DT_EXTERN_C_BEGIN

/* out = a @ b computed in dtype (a and b are cast to it when theirs
 * differs): NumPy's matmul, a 1-D operand promoted to a matrix and its
 * axis dropped from the result, the batch axes broadcast.  out is
 * initialised here: a new C-contiguous tensor on the operands' device.
 * ValueError for 0-d operands, mismatched core dimensions and batch shapes
 * that do not broadcast, with NumPy's words; RuntimeError for operands on
 * two devices. */
dt_status dt_matmul(const dt_tensor *a, const dt_tensor *b, dt_dtype dtype, dt_tensor *out,
                    dt_error *err);

/* The same product written into out, when out has exactly the result's
 * shape (*written = 1; else *written = 0 and nothing is done): straight
 * into it when it is C-contiguous, of dtype, and overlaps neither operand,
 * else computed apart and copied in, cast to out's dtype (the caller has
 * checked the casting rule).  RuntimeError for out on another device,
 * ValueError for a read-only out. */
dt_status dt_matmul_into(const dt_tensor *a, const dt_tensor *b, dt_dtype dtype, dt_tensor *out, int *written,
                         dt_error *err);

/* Whether float32 products may use TensorFloat-32 on devices that have it
 * (PyTorch's torch.backends.cuda.matmul.allow_tf32); off by default so
 * results keep float32's precision, as NumPy's. */
int dt_matmul_get_allow_tf32(void);
void dt_matmul_set_allow_tf32(int allow);

DT_EXTERN_C_END

#endif /* DT_MATMUL_H */
