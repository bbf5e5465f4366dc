/* cpu_linalg.c - the CPU backend's factorizations (backend.h's
 * dt_linalg_loop): LAPACK through OpenBLAS's LAPACKE (cpu_blas.h), one
 * call per matrix of the batch, in column-major order as the core lays
 * the matrices out.
 *
 * Note [LAPACK routines]
 * The routines NumPy's linalg uses, so the answers are NumPy's up to
 * rounding: getrf/getrs (LU, solve, inv, det), potrf (cholesky),
 * geqrf + orgqr/ungqr (qr), syevd/heevd (eigh), gesdd (svd) and geev
 * (eig).  A real geev gives conjugate pairs as two real columns; they are
 * unpacked into the complex eigenvectors NumPy returns.  LAPACKE
 * allocates the routines' workspaces itself (-1010 when it cannot: a
 * MemoryError); a negative info is an argument LAPACK refused, which the
 * core's checks should make impossible (a RuntimeError naming it).
 */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_blas.h"
#include "cpu_loops.h"

static dt_status lapack_status(lapack_int info, const char *routine, dt_error *err)
{
    if (info == LAPACK_WORK_MEMORY_ERROR || info == LAPACK_TRANSPOSE_MEMORY_ERROR)
        return dt_error_set(err, DT_ERR_NOMEM, "%s: out of memory for LAPACK's workspace", routine);
    return dt_error_set(err, DT_ERR_RUNTIME, "%s: LAPACK refused argument %lld", routine,
                        (long long)-info);
}

static const char *const routine_name[] = {"getrf", "getrs", "potrf", "geqrf/orgqr", "syevd/heevd",
                                           "gesdd", "geev", "lu_det"};

/* One type's routines: T the LAPACK letter, S the storage type, R the real
 * type, ORGQR and SYEVD the names of its Q-forming and Hermitian routines. */
#define DT_CPU_LINALG(T, S, R, ORGQR, SYEVD)                                                     \
    static dt_status T##_problem(const dt_cpu_blas *bl, const dt_linalg_loop *l, int64_t p,     \
                                 dt_error *err)                                                 \
    {                                                                                           \
        int64_t m = l->m, n = l->n, k = m < n ? m : n;                                          \
        S *a = (S *)l->a + p * m * n;                                                           \
        lapack_int info = 0;                                                                    \
        switch (l->kind) {                                                                      \
        case DT_LINALG_LU: {                                                                    \
            lapack_int *piv = (lapack_int *)(l->piv + p * n);                                                      \
            info = bl->T##getrf(LAPACK_COL_MAJOR, n, n, a, n, piv);                             \
            for (int64_t i = 0; i < n; i++)                                                     \
                piv[i] -= 1;                                                                    \
            break;                                                                              \
        }                                                                                       \
        case DT_LINALG_LU_SOLVE: {                                                              \
            lapack_int ipiv_small[64] = {0}, *ipiv = n <= 64 ? ipiv_small : malloc((size_t)n * 8);       \
            if (ipiv == NULL)                                                                   \
                return dt_error_set(err, DT_ERR_NOMEM, "getrs: out of memory");                 \
            for (int64_t i = 0; i < n; i++)                                                     \
                ipiv[i] = l->piv[p * n + i] + 1;                                                \
            info = bl->T##getrs(LAPACK_COL_MAJOR, 'N', n, l->nrhs, a, n, ipiv,                  \
                                (S *)l->b + p * n * l->nrhs, n);                                \
            if (ipiv != ipiv_small)                                                             \
                free(ipiv);                                                                     \
            return info < 0 ? lapack_status(info, #T "getrs", err) : DT_OK;                     \
        }                                                                                       \
        case DT_LINALG_CHOLESKY:                                                                \
            info = bl->T##potrf(LAPACK_COL_MAJOR, 'L', n, a, n);                                \
            for (int64_t j = 1; j < n; j++)                                                     \
                memset(a + j * n, 0, (size_t)j * sizeof(S));                                    \
            break;                                                                              \
        case DT_LINALG_QR: {                                                                    \
            int64_t qcols = l->full ? m : k;                                                    \
            S *tau = malloc((size_t)(k > 0 ? k : 1) * sizeof(S));                               \
            if (tau == NULL)                                                                    \
                return dt_error_set(err, DT_ERR_NOMEM, "geqrf: out of memory");                 \
            info = bl->T##geqrf(LAPACK_COL_MAJOR, m, n, a, m, tau);                             \
            if (info == 0) {                                                                    \
                S *q = (S *)l->q + p * m * qcols;                                               \
                for (int64_t j = 0; j < qcols; j++)                                             \
                    memcpy(q + j * m, a + (j < n ? j : 0) * m, (size_t)m * sizeof(S));          \
                info = bl->ORGQR(LAPACK_COL_MAJOR, m, qcols, k, q, m, tau);                     \
                for (int64_t j = 0; j < n; j++) /* R: zeros below the diagonal */               \
                    if (j + 1 < m)                                                              \
                        memset(a + j * m + j + 1, 0, (size_t)(m - j - 1) * sizeof(S));          \
            }                                                                                   \
            free(tau);                                                                          \
            break;                                                                              \
        }                                                                                       \
        case DT_LINALG_EIGH:                                                                    \
            info = bl->SYEVD(LAPACK_COL_MAJOR, l->vectors ? 'V' : 'N', 'L', n, a, n,            \
                             (R *)l->w + p * n);                                                \
            break;                                                                              \
        case DT_LINALG_SVD: {                                                                   \
            char job = !l->vectors ? 'N' : l->full ? 'A' : 'S';                                 \
            int64_t uc = l->full ? m : k, vr = l->full ? n : k;                                 \
            S *u = l->vectors ? (S *)l->q + p * m * uc : NULL;                                  \
            S *vt = l->vectors ? (S *)l->vt + p * vr * n : NULL;                                \
            info = bl->T##gesdd(LAPACK_COL_MAJOR, job, m, n, a, m, (R *)l->w + p * k, u, m, vt,  \
                                vr > 0 ? vr : 1);                                               \
            break;                                                                              \
        }                                                                                       \
        default:                                                                                \
            return T##_eig(bl, l, p, a, err);                                                   \
        }                                                                                       \
        if (info < 0)                                                                           \
            return lapack_status(info, routine_name[l->kind], err);                    \
        l->info[p] = info;                                                                      \
        return DT_OK;                                                                           \
    }

/* Eigen-decomposition of a general matrix (Note [LAPACK routines]). */
static dt_status s_eig(const dt_cpu_blas *bl, const dt_linalg_loop *l, int64_t p, float *a,
                       dt_error *err);
static dt_status d_eig(const dt_cpu_blas *bl, const dt_linalg_loop *l, int64_t p, double *a,
                       dt_error *err);
static dt_status c_eig(const dt_cpu_blas *bl, const dt_linalg_loop *l, int64_t p,
                       float _Complex *a, dt_error *err);
static dt_status z_eig(const dt_cpu_blas *bl, const dt_linalg_loop *l, int64_t p,
                       double _Complex *a, dt_error *err);

DT_CPU_LINALG(s, float, float, sorgqr, ssyevd)
DT_CPU_LINALG(d, double, double, dorgqr, dsyevd)
DT_CPU_LINALG(c, float _Complex, float, cungqr, cheevd)
DT_CPU_LINALG(z, double _Complex, double, zungqr, zheevd)
#undef DT_CPU_LINALG

#define DT_REAL_EIG(T, R, C)                                                                     \
    static dt_status T##_eig(const dt_cpu_blas *bl, const dt_linalg_loop *l, int64_t p, R *a,   \
                             dt_error *err)                                                     \
    {                                                                                           \
        int64_t n = l->n;                                                                       \
        R *wr = malloc((size_t)n * sizeof(R) * 2), *wi = wr ? wr + n : NULL;                    \
        R *vr = l->vectors ? malloc((size_t)(n * n) * sizeof(R)) : NULL;                        \
        if (wr == NULL || (l->vectors && vr == NULL)) {                                         \
            free(wr);                                                                           \
            free(vr);                                                                           \
            return dt_error_set(err, DT_ERR_NOMEM, "geev: out of memory");                      \
        }                                                                                       \
        lapack_int info = bl->T##geev(LAPACK_COL_MAJOR, 'N', l->vectors ? 'V' : 'N', n, a, n,    \
                                      wr, wi, NULL, 1, vr, n);                                  \
        C *w = (C *)l->w + p * n, *v = l->vectors ? (C *)l->q + p * n * n : NULL;                \
        for (int64_t j = 0; info == 0 && j < n; j++) {                                          \
            w[j] = wr[j] + wi[j] * I;                                                           \
            if (v == NULL)                                                                      \
                continue;                                                                       \
            if (wi[j] == 0) {                                                                   \
                for (int64_t i = 0; i < n; i++)                                                 \
                    v[j * n + i] = vr[j * n + i];                                               \
            } else if (j + 1 < n) { /* a conjugate pair: columns j and j + 1 */                 \
                w[j + 1] = wr[j + 1] + wi[j + 1] * I;                                           \
                for (int64_t i = 0; i < n; i++) {                                               \
                    v[j * n + i] = vr[j * n + i] + vr[(j + 1) * n + i] * I;                     \
                    v[(j + 1) * n + i] = vr[j * n + i] - vr[(j + 1) * n + i] * I;               \
                }                                                                               \
                j++;                                                                            \
            }                                                                                   \
        }                                                                                       \
        free(wr);                                                                               \
        free(vr);                                                                               \
        if (info < 0)                                                                           \
            return lapack_status(info, #T "geev", err);                                         \
        l->info[p] = info;                                                                      \
        return DT_OK;                                                                           \
    }
DT_REAL_EIG(s, float, float _Complex)
DT_REAL_EIG(d, double, double _Complex)
#undef DT_REAL_EIG

#define DT_COMPLEX_EIG(T, C)                                                                     \
    static dt_status T##_eig(const dt_cpu_blas *bl, const dt_linalg_loop *l, int64_t p, C *a,   \
                             dt_error *err)                                                     \
    {                                                                                           \
        int64_t n = l->n;                                                                       \
        C *v = l->vectors ? (C *)l->q + p * n * n : NULL;                                       \
        lapack_int info = bl->T##geev(LAPACK_COL_MAJOR, 'N', l->vectors ? 'V' : 'N', n, a, n,    \
                                      (C *)l->w + p * n, NULL, 1, v, n);                        \
        if (info < 0)                                                                           \
            return lapack_status(info, #T "geev", err);                                         \
        l->info[p] = info;                                                                      \
        return DT_OK;                                                                           \
    }
DT_COMPLEX_EIG(c, float _Complex)
DT_COMPLEX_EIG(z, double _Complex)
#undef DT_COMPLEX_EIG

/* -1 for an odd number of row swaps in LU's pivots, else 1 */
static int lu_parity(const int64_t *piv, int64_t n)
{
    int sign = 1;
    for (int64_t i = 0; i < n; i++)
        if (piv[i] != i)
            sign = -sign;
    return sign;
}

/* LU_DET of matrix p (Note [Determinants from LU] in csrc/core/linalg.c) */
#define DT_REAL_LU_DET(T, R, LOG, EXP)                                                           \
    static void T##_lu_det(const dt_linalg_loop *l, int64_t p)                                  \
    {                                                                                           \
        int64_t n = l->n;                                                                       \
        const R *a = (const R *)l->a + p * n * n;                                               \
        const int64_t *piv = l->piv + p * n;                                                    \
        R sign = 1, logdet = 0;                                                                 \
        if (l->info[p] > 0) {                                                                   \
            sign = 0, logdet = -INFINITY;                                                       \
        } else {                                                                                \
            sign = lu_parity(piv, n);                                                           \
            for (int64_t i = 0; i < n; i++) {                                                   \
                R e = a[i * n + i];                                                             \
                if (e < 0)                                                                      \
                    sign = -sign, e = -e;                                                       \
                logdet += LOG(e);                                                               \
            }                                                                                   \
        }                                                                                       \
        if (l->full) {                                                                          \
            ((R *)l->q)[p] = sign * EXP(logdet);                                                \
        } else {                                                                                \
            ((R *)l->q)[p] = sign;                                                              \
            ((R *)l->w)[p] = logdet;                                                            \
        }                                                                                       \
    }
DT_REAL_LU_DET(s, float, logf, expf)
DT_REAL_LU_DET(d, double, log, exp)
#undef DT_REAL_LU_DET

#define DT_COMPLEX_LU_DET(T, R, C, LOG, EXP, ABS)                                                \
    static void T##_lu_det(const dt_linalg_loop *l, int64_t p)                                  \
    {                                                                                           \
        int64_t n = l->n;                                                                       \
        const R *a = (const R *)l->a + 2 * p * n * n;                                           \
        const int64_t *piv = l->piv + p * n;                                                    \
        R sr = 1, si = 0, logdet = 0;                                                           \
        if (l->info[p] > 0) {                                                                   \
            sr = 0, logdet = -INFINITY;                                                         \
        } else {                                                                                \
            sr = lu_parity(piv, n);                                                             \
            for (int64_t i = 0; i < n; i++) {                                                   \
                R re = a[2 * (i * n + i)], im = a[2 * (i * n + i) + 1];                         \
                R mag = ABS(re + im * I), ur = re / mag, ui = im / mag;                         \
                R nr = sr * ur - si * ui, ni = sr * ui + si * ur;                               \
                sr = nr, si = ni;                                                               \
                logdet += LOG(mag);                                                             \
            }                                                                                   \
        }                                                                                       \
        R *q = (R *)l->q + 2 * p;                                                               \
        if (l->full) { /* NumPy's sign * (exp(logdet) + 0i) */                                  \
            R e = EXP(logdet);                                                                  \
            q[0] = sr * e - si * 0, q[1] = sr * 0 + si * e;                                     \
        } else {                                                                                \
            q[0] = sr, q[1] = si;                                                               \
            ((R *)l->w)[p] = logdet;                                                            \
        }                                                                                       \
    }
DT_COMPLEX_LU_DET(c, float, float _Complex, logf, expf, cabsf)
DT_COMPLEX_LU_DET(z, double, double _Complex, log, exp, cabs)
#undef DT_COMPLEX_LU_DET

dt_status dt_cpu_run_linalg(const dt_linalg_loop *l, dt_error *err)
{
    if (l == NULL || (unsigned)l->kind > DT_LINALG_LU_DET || l->count < 1 || l->m < 1 || l->n < 1 ||
        l->a == NULL || (l->kind != DT_LINALG_LU_SOLVE && l->info == NULL) ||
        (l->kind == DT_LINALG_LU_DET && (l->piv == NULL || l->q == NULL || (!l->full && l->w == NULL))))
        return dt_error_set(err, DT_ERR_VALUE, "run_linalg: a bad loop");
    if (l->kind == DT_LINALG_LU_DET) {
        void (*det)(const dt_linalg_loop *, int64_t) =
            l->dtype == DT_FLOAT32 ? s_lu_det : l->dtype == DT_FLOAT64 ? d_lu_det
            : l->dtype == DT_COMPLEX64 ? c_lu_det : l->dtype == DT_COMPLEX128 ? z_lu_det : NULL;
        if (det == NULL)
            return dt_error_set(err, DT_ERR_TYPE, "run_linalg: no determinant for %s",
                                dt_dtype_get_info(l->dtype)->name);
        for (int64_t p = 0; p < l->count; p++)
            det(l, p);
        return DT_OK;
    }
    const dt_cpu_blas *bl = dt_cpu_blas_get(err);
    if (bl == NULL)
        return err->status;
    dt_status (*problem)(const dt_cpu_blas *, const dt_linalg_loop *, int64_t, dt_error *);
    switch (l->dtype) {
    case DT_FLOAT32: problem = s_problem; break;
    case DT_FLOAT64: problem = d_problem; break;
    case DT_COMPLEX64: problem = c_problem; break;
    case DT_COMPLEX128: problem = z_problem; break;
    default:
        return dt_error_set(err, DT_ERR_TYPE, "run_linalg: no LAPACK routine for %s",
                            dt_dtype_get_info(l->dtype)->name);
    }
    for (int64_t p = 0; p < l->count; p++)
        DT_TRY(problem(bl, l, p, err));
    return DT_OK;
}
