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

/* Whether float32 products may use TensorFloat-32 on devices that have it
 * (PyTorch's torch.backends.cuda.matmul.allow_tf32); off by default so
 * results keep float32's precision, as NumPy's. */
int dt_matmul_get_allow_tf32(void);
void dt_matmul_set_allow_tf32(int allow);

DT_EXTERN_C_END

#endif /* DT_MATMUL_H */
