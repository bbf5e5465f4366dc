/* emu_dense.h - dense linear algebra in complex double on the host: the
 * reference arithmetic behind the emulated cuSOLVER (emu_solver.cpp, which
 * loads every type S, D, C, Z into these matrices and rounds the results
 * back).  LAPACK's definitions of the results (pivots, reflectors, info);
 * plain unblocked algorithms, correct before fast, for the small matrices
 * of CI (Notes in emu_dense.cpp).  Written from the definitions, not from
 * any library's code.
 */
#ifndef DT_EMU_DENSE_H
#define DT_EMU_DENSE_H

#include <stddef.h>
#include <stdint.h>

#include <vector>

namespace dt_emu {

/* A complex double; real types are held with im == 0, which every routine
 * below keeps exactly 0 for real input (Note [Real input stays real] in
 * emu_dense.cpp). */
struct Cx {
    double re, im;
};

/* A column-major rows x cols matrix, leading dimension rows. */
struct Dense {
    int64_t rows = 0, cols = 0;
    std::vector<Cx> a;
    Dense() = default;
    Dense(int64_t r, int64_t c) : rows(r), cols(c), a((size_t)(r * c), Cx{0, 0}) {}
    Cx &operator()(int64_t i, int64_t j) { return a[(size_t)(j * rows + i)]; }
    const Cx &operator()(int64_t i, int64_t j) const { return a[(size_t)(j * rows + i)]; }
};

/* LU in place: P A = L U, L unit lower (below the diagonal), U upper,
 * with partial pivoting recorded in ipiv (min(rows, cols) of them, 0-based:
 * row j was swapped with row ipiv[j]), or without pivoting when ipiv is
 * NULL.  Returns LAPACK's info: 0, or j + 1 for the first exactly zero
 * U(j, j). */
int lu_factor(Dense &a, int *ipiv);

/* op(A) X = B for A's factors from lu_factor (ipiv NULL: no swaps); op is
 * 'N', 'T' or 'C'.  B (n x nrhs) becomes X. */
void lu_solve(const Dense &lu, const int *ipiv, char op, Dense &b);

/* Cholesky A = L L^H on the lower triangle of a (the rest is not read);
 * returns 0, or j + 1 when the leading minor of order j + 1 is not
 * positive definite: then columns < j hold L, a(j, j) the non-positive
 * value met, and the rest is as it was (LAPACK's unblocked order).
 * *done: the columns written (n, or j + 1 on failure). */
int cholesky_lower(Dense &a, int64_t *done);

/* Householder QR in place: R on and above the diagonal, the reflectors'
 * v below it (v(0) = 1 implied), tau[min(rows, cols)]; H(j) = I - tau v v^H
 * and A = H(0) H(1) ... R, beta = -sign(re alpha) norm as LAPACK's larfg. */
void qr_factor(Dense &a, std::vector<Cx> &tau);

/* The first a.cols columns of Q = H(0) ... H(k-1), from the reflectors in
 * the first k columns of a and tau; returns Q (a.rows x a.cols). */
Dense qr_form_q(const Dense &a, const Cx *tau, int64_t k);

/* Hermitian eigendecomposition of a (full, Hermitian: both triangles set,
 * real diagonal): w ascending, v's columns the orthonormal eigenvectors
 * (v may be NULL).  Returns 0, or the number of off-diagonal pairs not
 * annihilated after the sweeps allowed. */
int eigh(const Dense &a, std::vector<double> &w, Dense *v);

/* SVD of a (rows >= cols): s descending (cols of them), u (rows x ucols,
 * ucols = cols or rows: orthonormal columns, completed to a basis where
 * the singular values are zero), v (cols x cols, unitary); u and v may be
 * NULL.  A = u(:, :cols) diag(s) v^H.  Returns 0, or the number of column
 * pairs not orthogonalised after the sweeps allowed. */
int svd(const Dense &a, std::vector<double> &s, Dense *u, int64_t ucols, Dense *v);

/* The eigenvalues w and, where v is not NULL, the unit right eigenvectors
 * (v's columns, largest component real) of the general square a (Note
 * [General eigenproblem] in emu_dense.cpp).  For a real a (real: of a
 * real type, S or D), LAPACK's real layout: conjugate pairs exact and adjacent, positive imaginary part
 * first, real eigenvalues with real vectors (Note [Real matrices in the
 * general eigenproblem]).  Returns 0, or the number of eigenvalues not
 * found (w and v then unset). */
int64_t eig(const Dense &a, bool real, std::vector<Cx> &w, Dense *v);

} // namespace dt_emu

#endif /* DT_EMU_DENSE_H */
