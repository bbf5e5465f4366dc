/* linalg.h - dense factorizations on any device whose backend fills
 * run_linalg (Note [Factorizations] in linalg.c): the primitives
 * devtensor.linalg builds solve, inv, det, cholesky, qr, eigh, svd, eig
 * and the rest on. */
#ifndef DT_LINALG_H
#define DT_LINALG_H

#include "compat.h"
#include "tensor.h"

DT_EXTERN_C_BEGIN

/* What a factorization gives; a member a kind does not produce stays an
 * empty tensor (no storage).  Matrices are column-major views (Note
 * [Factorizations]); info has a's batch shape. */
typedef struct dt_linalg_result {
    dt_tensor a;     /* LU: L and U; CHOLESKY: L; QR: R (m x n); EIGH: vectors; LU_SOLVE: x */
    dt_tensor piv;   /* LU: (..., n) int64, 0-based */
    dt_tensor w;     /* EIGH, SVD: real values; EIG: complex values; det: log|det| */
    dt_tensor q;     /* QR: Q; SVD: U; EIG: vectors; det: the sign or det */
    dt_tensor vt;    /* SVD: V^H */
    dt_tensor info;  /* (...) int64: LAPACK's info per matrix */
} dt_linalg_result;

void dt_linalg_result_init(dt_linalg_result *r);
void dt_linalg_result_clear(dt_linalg_result *r);

/* kind (LU, CHOLESKY, QR, EIGH, SVD or EIG) of a (..., m, n): float32,
 * float64, complex64 or complex128; square for all but QR and SVD.
 * vectors: EIGH, SVD, EIG; full: QR's complete Q, SVD's full U and V. */
dt_status dt_linalg_factor(dt_linalg_kind kind, const dt_tensor *a, int vectors, int full,
                           dt_linalg_result *out, dt_error *err);

/* out->a = the solution x of A x = b for A given by LU's factors: lu
 * (..., n, n), piv (..., n) int64 and b (..., n, k) of lu's dtype, with
 * one batch shape. */
dt_status dt_linalg_lu_solve(const dt_tensor *lu, const dt_tensor *piv, const dt_tensor *b,
                             dt_linalg_result *out, dt_error *err);

/* The determinants of a (..., n, n), n >= 1, from its LU factors (Note
 * [Determinants from LU] in linalg.c): with want_det, out->q := det a;
 * else out->q := the sign and out->w := log|det a| (real), as slogdet. */
dt_status dt_linalg_det(const dt_tensor *a, int want_det, dt_linalg_result *out, dt_error *err);

DT_EXTERN_C_END

#endif /* DT_LINALG_H */
