/* emu_solver_routines.cpp - cuSOLVER's dense API on the CPU, second half
 * (the first, emu_solver.cpp, has handles, extents, queueing and
 * refusals): each routine's argument checks, workspace size and queued
 * work, for the four types S, D, C, Z, and the typed entry points of
 * cusolverDn.h.  The arithmetic is emu_dense.cpp's, in complex double.
 */
#include "emu_solver.h"

#include "emu_library.h"

#include <math.h>

#include <algorithm>
#include <cstring>
#include <new>
#include <vector>

namespace {

using dt_emu::Cx;
using dt_emu::Dense;
using dt_emu::host_out;
using namespace dt_emu::solver;

const Cx nan_cx = {NAN, NAN}; /* what "destroyed" outputs hold (Note [Destroyed outputs]) */

/* ---- workspace sizes ---- */

/* Note [Workspace sizes]
 * What the bufferSize calls answer, in elements of the routine's type, and
 * what the computing calls then require of their lwork (any more is
 * fine): LAPACK's documented minimum workspace of the same routine where it
 * has one, and max(1, n) otherwise, so the answer is always positive:
 *   getrf, potrf    max(1, n) (LAPACK's need none)
 *   geqrf, orgqr    max(1, n) (dgeqrf's and dorgqr's minimum)
 *   syevd  S, D     1 + 6n + 2n^2 (VECTOR) or 2n + 1 (NOVECTOR), 1 for n <= 1
 *   heevd  C, Z     2n + n^2 (VECTOR) or n + 1 (NOVECTOR), 1 for n <= 1
 *   gesvd  S, D     max(1, 3 min(m,n) + max(m,n), 5 min(m,n))
 *          C, Z     max(1, 2 min(m,n) + max(m,n))
 * The reference computes in host memory of its own and needs none of it;
 * it fills the whole workspace given with 0xFF bytes (NaN in every type)
 * before computing, as the real library's use of it would change it, so
 * a workspace that overlaps an operand shows.  The real library's answers
 * differ (and getrf has no lwork argument: it uses the bufferSize answer
 * for the same m and n). */
int64_t lwork_for(int64_t n) { return std::max<int64_t>(1, n); }
int64_t lwork_syevd(Ty t, bool vectors, int64_t n)
{
    if (n <= 1)
        return 1;
    if (t == Ty::S || t == Ty::D)
        return vectors ? 1 + 6 * n + 2 * n * n : 2 * n + 1;
    return vectors ? 2 * n + n * n : n + 1;
}
int64_t lwork_gesvd(Ty t, int64_t m, int64_t n)
{
    int64_t lo = std::min(m, n), hi = std::max(m, n);
    if (t == Ty::S || t == Ty::D)
        return std::max<int64_t>({1, 3 * lo + hi, 5 * lo});
    return std::max<int64_t>(1, 2 * lo + hi);
}

/* ---- LU ---- */

struct GetrfJob : Job {
    char *A;
    int64_t m, n, lda;
    int *ipiv;
    cudaError_t compute(int *info) override
    {
        Dense a = read(t, A, lda, m, n);
        std::vector<int> piv((size_t)std::min(m, n));
        *info = dt_emu::lu_factor(a, ipiv != nullptr ? piv.data() : nullptr);
        write(t, A, lda, a, m, n);
        if (ipiv != nullptr)
            for (size_t j = 0; j < piv.size(); j++)
                ipiv[j] = piv[j] + 1;
        return cudaSuccess;
    }
};

cusolverStatus_t getrf_size(cusolverDnHandle_t handle, int m, int n, int lda, int *lwork)
{
    Handle h;
    cusolverStatus_t st = get(handle, &h);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    if (m < 0 || n < 0 || lda < std::max(1, m))
        return CUSOLVER_STATUS_INVALID_VALUE;
    return answer(lwork_for(n), lwork);
}

/* Note [Pivots] in emu_dense.cpp; devIpiv NULL: no pivoting, as documented. */
cusolverStatus_t getrf(Ty t, cusolverDnHandle_t handle, int m, int n, void *A, int lda, void *work, int *ipiv,
                       int *info)
{
    Handle h;
    cusolverStatus_t st = get(handle, &h);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    if (m < 0)
        return refuse(h, t, info, 1);
    if (n < 0)
        return refuse(h, t, info, 2);
    if (lda < std::max(1, m))
        return refuse(h, t, info, 4);
    if (m == 0 || n == 0)
        return quick(h, t, info);
    int64_t lw = lwork_for(n);
    GetrfJob *j = new (std::nothrow) GetrfJob();
    if (j != nullptr) {
        j->A = (char *)A, j->m = m, j->n = n, j->lda = lda, j->ipiv = ipiv;
        j->work = (char *)work, j->work_bytes = (size_t)lw * esize(t);
    }
    return launch(h, t, info,
                  {Extent{A, m, n, lda, esize(t)}, vec(work, lw, esize(t)),
                   vec(ipiv, ipiv != nullptr ? std::min(m, n) : 0, sizeof(int))},
                  j);
}

/* Note [Pivots in getrs]
 * A pivot outside 1..n (not from getrf) sends the real library's row
 * interchange outside B; the emulation makes it the device's sticky
 * cudaErrorIllegalAddress, B and devInfo untouched.  devIpiv NULL is taken
 * as no interchanges, like getrf's documented NULL (getrs's documentation
 * does not say). */
struct GetrsJob : Job {
    char op;
    const char *A;
    char *B;
    int64_t n, nrhs, lda, ldb;
    const int *ipiv;
    cudaError_t compute(int *info) override
    {
        std::vector<int> piv;
        if (ipiv != nullptr) {
            piv.assign(ipiv, ipiv + n);
            for (int &p : piv) {
                if (p < 1 || p > n)
                    return cudaErrorIllegalAddress;
                p -= 1;
            }
        }
        Dense lu = read(t, A, lda, n, n), b = read(t, B, ldb, n, nrhs);
        dt_emu::lu_solve(lu, ipiv != nullptr ? piv.data() : nullptr, op, b);
        write(t, B, ldb, b, n, nrhs);
        *info = 0;
        return cudaSuccess;
    }
};

cusolverStatus_t getrs(Ty t, cusolverDnHandle_t handle, cublasOperation_t trans, int n, int nrhs, const void *A,
                       int lda, const int *ipiv, void *B, int ldb, int *info)
{
    Handle h;
    cusolverStatus_t st = get(handle, &h);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    if (trans != CUBLAS_OP_N && trans != CUBLAS_OP_T && trans != CUBLAS_OP_C)
        return refuse(h, t, info, 1);
    if (n < 0)
        return refuse(h, t, info, 2);
    if (nrhs < 0)
        return refuse(h, t, info, 3);
    if (lda < std::max(1, n))
        return refuse(h, t, info, 5);
    if (ldb < std::max(1, n))
        return refuse(h, t, info, 8);
    if (n == 0 || nrhs == 0)
        return quick(h, t, info);
    GetrsJob *j = new (std::nothrow) GetrsJob();
    if (j != nullptr) {
        /* CUBLAS_OP_C on a real type is CUBLAS_OP_T: conjugation does nothing */
        j->op = trans == CUBLAS_OP_N ? 'N' : trans == CUBLAS_OP_T ? 'T' : 'C';
        j->A = (const char *)A, j->B = (char *)B, j->n = n, j->nrhs = nrhs, j->lda = lda, j->ldb = ldb;
        j->ipiv = ipiv;
    }
    return launch(h, t, info,
                  {Extent{A, n, n, lda, esize(t)}, vec(ipiv, ipiv != nullptr ? n : 0, sizeof(int)),
                   Extent{B, n, nrhs, ldb, esize(t)}},
                  j);
}

/* ---- Cholesky ---- */

/* Only the uplo triangle is read and written (the upper case factors the
 * lower triangle of A^H with cholesky_lower, emu_dense.cpp).  On
 * failure at column j (devInfo = j + 1) the columns (upper: rows) before
 * j hold the factor, A(j, j) the non-positive value met, the rest of the
 * triangle is as it was: LAPACK's unblocked potf2; the real library's
 * blocked one may have updated more of the trailing matrix. */
bool fill_ok(cublasFillMode_t uplo) { return uplo == CUBLAS_FILL_MODE_LOWER || uplo == CUBLAS_FILL_MODE_UPPER; }

/* every infoArray[j] = 0 (a batch of empty matrices) */
struct BatchedInfoJob : Job {
    int *infos;
    int64_t batch;
    BatchedInfoJob(int *i, int64_t b) : infos(i), batch(b) {}
    cudaError_t compute(int *info) override
    {
        *info = 0;
        for (int64_t j = 1; j < batch; j++)
            memset(infos + j, 0, sizeof *infos);
        return cudaSuccess;
    }
};

/* The Cholesky factor of the n x n matrix at A (leading dimension lda) in
 * place; LAPACK's info. */
int potrf_one(Ty t, bool lower, char *A, int64_t n, int64_t lda)
{
    Dense l(n, n);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = j; i < n; i++) {
            Cx v = lower ? load(t, A, j * lda + i) : load(t, A, i * lda + j);
            l(i, j) = lower ? v : Cx{v.re, -v.im};
        }
    int64_t done = 0;
    int info = dt_emu::cholesky_lower(l, &done);
    for (int64_t j = 0; j < done; j++)
        for (int64_t i = j; i < n && (info == 0 || j + 1 < done || i == j); i++) {
            Cx v = l(i, j);
            if (lower)
                store(t, A, j * lda + i, v);
            else
                store(t, A, i * lda + j, Cx{v.re, -v.im});
        }
    return info;
}

struct PotrfJob : Job {
    bool lower;
    char *A;
    int64_t n, lda;
    cudaError_t compute(int *info) override
    {
        *info = potrf_one(t, lower, A, n, lda);
        return cudaSuccess;
    }
};

/* Note [Batched Cholesky]
 * potrfBatched: batchSize matrices, each at the device pointer in
 * Aarray[j] (the array itself in device memory), infoArray[j] each one's
 * info.  The pointers are read when the work runs, as the library's kernel
 * reads them; a matrix outside the memory the handle's device may access
 * is then an illegal address, the device's sticky error, as a fault would
 * be on a GPU.  Arguments as potrf's (uplo 1, n 2, lda 4), batchSize 6;
 * the array and infoArray must lie in accessible memory (Note [Extents]).
 * infoArray[0] is written by the queueing (launch), the others here. */
struct PotrfBatchedJob : Job {
    bool lower;
    char *const *Aarray;
    int *infos;
    int device;
    int64_t n, lda, batch;
    cudaError_t compute(int *info) override
    {
        for (int64_t j = 0; j < batch; j++) {
            char *A = nullptr;
            memcpy(&A, (const char *)Aarray + j * sizeof A, sizeof A);
            if (!inside(device, Extent{A, n, n, lda, esize(t)}))
                return cudaErrorIllegalAddress;
            int v = potrf_one(t, lower, A, n, lda);
            if (j == 0)
                *info = v;
            else
                memcpy(infos + j, &v, sizeof v);
        }
        return cudaSuccess;
    }
};

cusolverStatus_t potrf_batched(Ty t, cusolverDnHandle_t handle, cublasFillMode_t uplo, int n, void **Aarray,
                               int lda, int *infoArray, int batchSize)
{
    Handle h;
    cusolverStatus_t st = get(handle, &h);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    if (!fill_ok(uplo) || n < 0 || lda < std::max(1, n) || batchSize < 1)
        return CUSOLVER_STATUS_INVALID_VALUE;
    if (n == 0) /* every info 0 */
        return launch(h, t, infoArray, {vec(infoArray, batchSize, sizeof(int))},
                      new (std::nothrow) BatchedInfoJob(infoArray, batchSize));
    PotrfBatchedJob *j = new (std::nothrow) PotrfBatchedJob();
    if (j != nullptr) {
        j->lower = uplo == CUBLAS_FILL_MODE_LOWER, j->Aarray = (char *const *)Aarray, j->infos = infoArray;
        j->device = h.device, j->n = n, j->lda = lda, j->batch = batchSize;
    }
    return launch(h, t, infoArray, {vec(Aarray, batchSize, sizeof(void *)), vec(infoArray, batchSize, sizeof(int))},
                  j);
}

cusolverStatus_t potrf_size(cusolverDnHandle_t handle, cublasFillMode_t uplo, int n, int lda, int *lwork)
{
    Handle h;
    cusolverStatus_t st = get(handle, &h);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    if (!fill_ok(uplo) || n < 0 || lda < std::max(1, n))
        return CUSOLVER_STATUS_INVALID_VALUE;
    return answer(lwork_for(n), lwork);
}

cusolverStatus_t potrf(Ty t, cusolverDnHandle_t handle, cublasFillMode_t uplo, int n, void *A, int lda, void *work,
                       int lwork, int *info)
{
    Handle h;
    cusolverStatus_t st = get(handle, &h);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    if (!fill_ok(uplo))
        return refuse(h, t, info, 1);
    if (n < 0)
        return refuse(h, t, info, 2);
    if (lda < std::max(1, n))
        return refuse(h, t, info, 4);
    if (lwork < lwork_for(n))
        return refuse(h, t, info, 6);
    if (n == 0)
        return quick(h, t, info);
    PotrfJob *j = new (std::nothrow) PotrfJob();
    if (j != nullptr) {
        j->lower = uplo == CUBLAS_FILL_MODE_LOWER, j->A = (char *)A, j->n = n, j->lda = lda;
        j->work = (char *)work, j->work_bytes = (size_t)lwork * esize(t);
    }
    return launch(h, t, info, {Extent{A, n, n, lda, esize(t)}, vec(work, lwork, esize(t))}, j);
}

/* ---- QR ---- */

/* Note [Reflectors] in emu_dense.cpp: LAPACK's tau and v. */
struct GeqrfJob : Job {
    char *A, *tau;
    int64_t m, n, lda;
    cudaError_t compute(int *info) override
    {
        Dense a = read(t, A, lda, m, n);
        std::vector<Cx> tv;
        dt_emu::qr_factor(a, tv);
        write(t, A, lda, a, m, n);
        for (size_t i = 0; i < tv.size(); i++)
            store(t, tau, (int64_t)i, tv[i]);
        *info = 0;
        return cudaSuccess;
    }
};

cusolverStatus_t geqrf_size(cusolverDnHandle_t handle, int m, int n, int lda, int *lwork)
{
    Handle h;
    cusolverStatus_t st = get(handle, &h);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    if (m < 0 || n < 0 || lda < std::max(1, m))
        return CUSOLVER_STATUS_INVALID_VALUE;
    return answer(lwork_for(n), lwork);
}

cusolverStatus_t geqrf(Ty t, cusolverDnHandle_t handle, int m, int n, void *A, int lda, void *tau, void *work,
                       int lwork, int *info)
{
    Handle h;
    cusolverStatus_t st = get(handle, &h);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    if (m < 0)
        return refuse(h, t, info, 1);
    if (n < 0)
        return refuse(h, t, info, 2);
    if (lda < std::max(1, m))
        return refuse(h, t, info, 4);
    if (lwork < lwork_for(n))
        return refuse(h, t, info, 7);
    if (m == 0 || n == 0)
        return quick(h, t, info);
    GeqrfJob *j = new (std::nothrow) GeqrfJob();
    if (j != nullptr) {
        j->A = (char *)A, j->tau = (char *)tau, j->m = m, j->n = n, j->lda = lda;
        j->work = (char *)work, j->work_bytes = (size_t)lwork * esize(t);
    }
    return launch(h, t, info,
                  {Extent{A, m, n, lda, esize(t)}, vec(tau, std::min(m, n), esize(t)), vec(work, lwork, esize(t))},
                  j);
}

/* A becomes the first n columns of Q; only the reflectors (below the
 * diagonal of A's first k columns) and tau[k] are read. */
struct OrgqrJob : Job {
    char *A;
    const char *tau;
    int64_t m, n, k, lda;
    cudaError_t compute(int *info) override
    {
        Dense a = read(t, A, lda, m, n);
        std::vector<Cx> tv((size_t)k);
        for (int64_t i = 0; i < k; i++)
            tv[i] = load(t, tau, i);
        write(t, A, lda, dt_emu::qr_form_q(a, tv.data(), k), m, n);
        *info = 0;
        return cudaSuccess;
    }
};

/* m >= n >= k >= 0 and lda >= max(1, m), as LAPACK's orgqr */
int orgqr_bad(int m, int n, int k, int lda)
{
    return m < 0 ? 1 : n < 0 || n > m ? 2 : k < 0 || k > n ? 3 : lda < std::max(1, m) ? 5 : 0;
}

cusolverStatus_t orgqr_size(cusolverDnHandle_t handle, int m, int n, int k, int lda, int *lwork)
{
    Handle h;
    cusolverStatus_t st = get(handle, &h);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    if (orgqr_bad(m, n, k, lda) != 0)
        return CUSOLVER_STATUS_INVALID_VALUE;
    return answer(lwork_for(n), lwork);
}

cusolverStatus_t orgqr(Ty t, cusolverDnHandle_t handle, int m, int n, int k, void *A, int lda, const void *tau,
                       void *work, int lwork, int *info)
{
    Handle h;
    cusolverStatus_t st = get(handle, &h);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    if (int bad = orgqr_bad(m, n, k, lda))
        return refuse(h, t, info, bad);
    if (lwork < lwork_for(n))
        return refuse(h, t, info, 8);
    if (n == 0)
        return quick(h, t, info);
    OrgqrJob *j = new (std::nothrow) OrgqrJob();
    if (j != nullptr) {
        j->A = (char *)A, j->tau = (const char *)tau, j->m = m, j->n = n, j->k = k, j->lda = lda;
        j->work = (char *)work, j->work_bytes = (size_t)lwork * esize(t);
    }
    return launch(h, t, info, {Extent{A, m, n, lda, esize(t)}, vec(tau, k, esize(t)), vec(work, lwork, esize(t))},
                  j);
}

/* ---- the Hermitian eigenproblem ---- */

/* Note [Destroyed outputs]
 * Where LAPACK says an argument's contents are destroyed on exit (syevd's
 * uplo triangle of A with CUSOLVER_EIG_MODE_NOVECTOR, gesvd's A unless
 * jobu or jobvt is 'O', the rows of A below VT with jobvt = 'O'), the
 * emulation leaves NaN there (the real library leaves intermediate
 * results), so that a caller who reads them sees it. */

/* Only the uplo triangle is read; the diagonal's imaginary part is taken
 * as zero (LAPACK's heevd).  Eigenvalues ascending; each eigenvector's sign
 * (phase) is arbitrary, as in the real library.  Computed by Jacobi
 * (emu_dense.cpp) where the real library divides and conquers; devInfo > 0
 * counts the off-diagonal pairs Jacobi left (never seen in practice). */
struct SyevdJob : Job {
    bool vectors, lower;
    char *A, *W;
    int64_t n, lda;
    cudaError_t compute(int *info) override
    {
        Dense a(n, n), v;
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = j; i < n; i++) {
                Cx x = lower ? load(t, A, j * lda + i) : load(t, A, i * lda + j);
                if (!lower)
                    x.im = -x.im; /* A(i, j) = conj(A(j, i)) */
                if (i == j)
                    x.im = 0;
                a(i, j) = x;
                a(j, i) = Cx{x.re, -x.im};
            }
        std::vector<double> w;
        *info = dt_emu::eigh(a, w, vectors ? &v : nullptr);
        for (int64_t i = 0; i < n; i++)
            store_real(t, W, i, w[i]);
        if (vectors) {
            write(t, A, lda, v, n, n);
            return cudaSuccess;
        }
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = j; i < n; i++)
                store(t, A, lower ? j * lda + i : i * lda + j, nan_cx);
        return cudaSuccess;
    }
};

int syevd_bad(cusolverEigMode_t jobz, cublasFillMode_t uplo, int n, int lda)
{
    bool job_ok = jobz == CUSOLVER_EIG_MODE_NOVECTOR || jobz == CUSOLVER_EIG_MODE_VECTOR;
    return !job_ok ? 1 : !fill_ok(uplo) ? 2 : n < 0 ? 3 : lda < std::max(1, n) ? 5 : 0;
}

cusolverStatus_t syevd_size(Ty t, cusolverDnHandle_t handle, cusolverEigMode_t jobz, cublasFillMode_t uplo, int n,
                            int lda, int *lwork)
{
    Handle h;
    cusolverStatus_t st = get(handle, &h);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    if (syevd_bad(jobz, uplo, n, lda) != 0)
        return CUSOLVER_STATUS_INVALID_VALUE;
    return answer(lwork_syevd(t, jobz == CUSOLVER_EIG_MODE_VECTOR, n), lwork);
}

cusolverStatus_t syevd(Ty t, cusolverDnHandle_t handle, cusolverEigMode_t jobz, cublasFillMode_t uplo, int n,
                       void *A, int lda, void *W, void *work, int lwork, int *info)
{
    Handle h;
    cusolverStatus_t st = get(handle, &h);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    if (int bad = syevd_bad(jobz, uplo, n, lda))
        return refuse(h, t, info, bad);
    if (lwork < lwork_syevd(t, jobz == CUSOLVER_EIG_MODE_VECTOR, n))
        return refuse(h, t, info, 8);
    if (n == 0)
        return quick(h, t, info);
    SyevdJob *j = new (std::nothrow) SyevdJob();
    if (j != nullptr) {
        j->vectors = jobz == CUSOLVER_EIG_MODE_VECTOR, j->lower = uplo == CUBLAS_FILL_MODE_LOWER;
        j->A = (char *)A, j->W = (char *)W, j->n = n, j->lda = lda;
        j->work = (char *)work, j->work_bytes = (size_t)lwork * esize(t);
    }
    return launch(h, t, info, {Extent{A, n, n, lda, esize(t)}, vec(W, n, rsize(t)), vec(work, lwork, esize(t))},
                  j);
}

/* Note [syevjBatched]
 * batchSize n x n Hermitian matrices packed one after the other (matrix j
 * at A + j * lda * n elements, its eigenvalues at W + j * n, its info in
 * info[j]), each as syevd above (the same reference, the uplo triangle
 * read, eigenvalues ascending: the default of the options object, whose
 * setters are not emulated).  cuSOLVER documents n <= 32 for the batched
 * Jacobi routine: a larger n is an invalid 3rd argument here.  Arguments
 * in order with devInfo = -i as Note [Invalid arguments] (jobz 1, uplo 2,
 * n 3, lda 5, lwork 8, params 10, batchSize 11: a NULL or destroyed
 * syevjInfo, batchSize < 1); the bufferSize call refuses the same ones
 * but lwork with CUSOLVER_STATUS_INVALID_VALUE alone.  The workspace asked
 * for is syevd's per matrix times batchSize.  info[0] is written by the
 * queueing (launch), the others by the work. */
constexpr int syevj_batched_max_n = 32;

int64_t lwork_syevj_batched(Ty t, bool vectors, int64_t n, int64_t batch)
{
    return lwork_syevd(t, vectors, n) * std::max<int64_t>(1, batch);
}

/* the first invalid argument (lwork < 0: not checked), or 0 */
int syevj_batched_bad(Ty t, cusolverEigMode_t jobz, cublasFillMode_t uplo, int n, int lda, int lwork,
                      syevjInfo_t params, int batch)
{
    int bad = syevd_bad(jobz, uplo, n, lda);
    if (bad == 0 && n > syevj_batched_max_n)
        bad = 3;
    if (bad == 0 && lwork >= 0 && lwork < lwork_syevj_batched(t, jobz == CUSOLVER_EIG_MODE_VECTOR, n, batch))
        bad = 8;
    return bad != 0 ? bad : !syevj_info_live(params) ? 10 : batch < 1 ? 11 : 0;
}

struct SyevjBatchedJob : Job {
    SyevdJob one;
    int *infos;
    int64_t batch;
    cudaError_t compute(int *info) override
    {
        char *A = one.A, *W = one.W;
        for (int64_t j = 0; j < batch; j++) {
            int v = 0;
            one.t = t, one.A = A + j * one.lda * one.n * (int64_t)esize(t), one.W = W + j * one.n * (int64_t)rsize(t);
            cudaError_t e = one.compute(&v);
            if (e != cudaSuccess)
                return e;
            if (j == 0)
                *info = v;
            else
                memcpy(infos + j, &v, sizeof v);
        }
        return cudaSuccess;
    }
};

cusolverStatus_t syevj_batched_size(Ty t, cusolverDnHandle_t handle, cusolverEigMode_t jobz, cublasFillMode_t uplo,
                                    int n, int lda, int *lwork, syevjInfo_t params, int batch)
{
    Handle h;
    cusolverStatus_t st = get(handle, &h);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    if (syevj_batched_bad(t, jobz, uplo, n, lda, -1, params, batch) != 0)
        return CUSOLVER_STATUS_INVALID_VALUE;
    return answer(lwork_syevj_batched(t, jobz == CUSOLVER_EIG_MODE_VECTOR, n, batch), lwork);
}

cusolverStatus_t syevj_batched(Ty t, cusolverDnHandle_t handle, cusolverEigMode_t jobz, cublasFillMode_t uplo, int n,
                               void *A, int lda, void *W, void *work, int lwork, int *info, syevjInfo_t params,
                               int batch)
{
    Handle h;
    cusolverStatus_t st = get(handle, &h);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    bool vectors = jobz == CUSOLVER_EIG_MODE_VECTOR;
    if (int bad = syevj_batched_bad(t, jobz, uplo, n, lda, std::max(lwork, 0), params, batch))
        return refuse(h, t, info, bad);
    if (n == 0) /* every info 0 */
        return launch(h, t, info, {vec(info, batch, sizeof(int))}, new (std::nothrow) BatchedInfoJob(info, batch));
    SyevjBatchedJob *j = new (std::nothrow) SyevjBatchedJob();
    if (j != nullptr) {
        j->one.vectors = vectors, j->one.lower = uplo == CUBLAS_FILL_MODE_LOWER;
        j->one.A = (char *)A, j->one.W = (char *)W, j->one.n = n, j->one.lda = lda;
        j->infos = info, j->batch = batch;
        j->work = (char *)work, j->work_bytes = (size_t)lwork * esize(t);
    }
    return launch(h, t, info,
                  {Extent{A, n, (int64_t)n * batch, lda, esize(t)}, vec(W, (int64_t)n * batch, rsize(t)),
                   vec(work, lwork, esize(t)), vec(info, batch, sizeof(int))},
                  j);
}

/* ---- the SVD ---- */

/* Note [gesvd]
 * m >= n only, as cuSOLVER documents ("gesvd only supports m>=n"; m < n is
 * an invalid 4th parameter here).  jobu and jobvt as LAPACK's, upper or
 * lower case: 'A' all m columns of U (m x m) / all n rows of VT (n x n);
 * 'S' the first min(m, n) = n of them (U m x n, VT n x n); 'O' those
 * written over A instead (U's n columns are A; VT's n rows are A's first
 * n rows); 'N' none; not both 'O'.  ldu >= 1, and >= m for 'A' or 'S';
 * ldvt >= 1, and >= n for 'A' or 'S'.  S descending.  Computed by one-sided
 * Jacobi (emu_dense.cpp; the real library bidiagonalises and runs QR
 * iterations): singular vectors of a repeated or zero singular value may
 * differ from the real library's, U and V are orthonormal either way.
 * devInfo > 0 counts the column pairs Jacobi left (never seen in practice);
 * rwork, when not NULL, must hold min(m, n) - 1 reals and is not written
 * (the real library leaves the unconverged superdiagonal there). */
struct GesvdJob : Job {
    char ju, jvt;
    char *A, *S, *U, *VT;
    int64_t m, n, lda, ldu, ldvt;
    cudaError_t compute(int *info) override
    {
        Dense a = read(t, A, lda, m, n), u, v;
        const bool want_u = ju != 'N', want_v = jvt != 'N';
        const int64_t ucols = ju == 'A' ? m : n;
        std::vector<double> s;
        *info = dt_emu::svd(a, s, want_u ? &u : nullptr, ucols, want_v ? &v : nullptr);
        for (int64_t i = 0; i < n; i++)
            store_real(t, S, i, s[i]);
        if (ju == 'A' || ju == 'S')
            write(t, U, ldu, u, m, ucols);
        Dense vt(n, n);
        for (int64_t i = 0; i < n && want_v; i++)
            for (int64_t j = 0; j < n; j++)
                vt(i, j) = Cx{v(j, i).re, -v(j, i).im};
        if (jvt == 'A' || jvt == 'S')
            write(t, VT, ldvt, vt, n, n);
        if (ju == 'O') {
            write(t, A, lda, u, m, n);
        } else if (jvt == 'O') {
            write(t, A, lda, vt, n, n);
            for (int64_t j = 0; j < n; j++)
                for (int64_t i = n; i < m; i++)
                    store(t, A, j * lda + i, nan_cx);
        } else {
            for (int64_t j = 0; j < n; j++)
                for (int64_t i = 0; i < m; i++)
                    store(t, A, j * lda + i, nan_cx);
        }
        return cudaSuccess;
    }
};

char job_of(signed char c)
{
    char u = c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : (char)c;
    return u == 'A' || u == 'S' || u == 'O' || u == 'N' ? u : 0;
}

cusolverStatus_t gesvd_size(Ty t, cusolverDnHandle_t handle, int m, int n, int *lwork)
{
    Handle h;
    cusolverStatus_t st = get(handle, &h);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    if (m < 0 || n < 0)
        return CUSOLVER_STATUS_INVALID_VALUE;
    return answer(lwork_gesvd(t, m, n), lwork);
}

cusolverStatus_t gesvd(Ty t, cusolverDnHandle_t handle, signed char jobu, signed char jobvt, int m, int n, void *A,
                       int lda, void *S, void *U, int ldu, void *VT, int ldvt, void *work, int lwork, void *rwork,
                       int *info)
{
    Handle h;
    cusolverStatus_t st = get(handle, &h);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    const char ju = job_of(jobu), jvt = job_of(jobvt);
    if (ju == 0)
        return refuse(h, t, info, 1);
    if (jvt == 0 || (ju == 'O' && jvt == 'O'))
        return refuse(h, t, info, 2);
    if (m < 0)
        return refuse(h, t, info, 3);
    if (n < 0 || n > m)
        return refuse(h, t, info, 4);
    if (lda < std::max(1, m))
        return refuse(h, t, info, 6);
    if (ldu < 1 || ((ju == 'A' || ju == 'S') && ldu < m))
        return refuse(h, t, info, 9);
    if (ldvt < 1 || ((jvt == 'A' || jvt == 'S') && ldvt < n))
        return refuse(h, t, info, 11);
    if (lwork < lwork_gesvd(t, m, n))
        return refuse(h, t, info, 13);
    if (m == 0 || n == 0)
        return quick(h, t, info);
    GesvdJob *j = new (std::nothrow) GesvdJob();
    if (j != nullptr) {
        j->ju = ju, j->jvt = jvt, j->A = (char *)A, j->S = (char *)S, j->U = (char *)U, j->VT = (char *)VT;
        j->m = m, j->n = n, j->lda = lda, j->ldu = ldu, j->ldvt = ldvt;
        j->work = (char *)work, j->work_bytes = (size_t)lwork * esize(t);
    }
    const bool u = ju == 'A' || ju == 'S', vt = jvt == 'A' || jvt == 'S';
    return launch(h, t, info,
                  {Extent{A, m, n, lda, esize(t)}, vec(S, n, rsize(t)),
                   Extent{U, u ? m : 0, ju == 'A' ? m : n, ldu, esize(t)}, Extent{VT, vt ? n : 0, n, ldvt, esize(t)},
                   vec(work, lwork, esize(t)), vec(rwork, rwork != nullptr ? n - 1 : 0, rsize(t))},
                  j);
}


/* Note [gesvdjBatched]
 * batchSize m x n matrices (m, n <= 32, either the larger) packed one
 * after the other: matrix j at A + j * lda * n elements, its min(m, n)
 * singular values at S + j * min(m, n), descending (the options object's
 * default; its setters are not emulated), and with
 * CUSOLVER_EIG_MODE_VECTOR all of U (m x m at U + j * ldu * m) and of V,
 * not V^H (n x n at V + j * ldv * n); A is destroyed (Note [Destroyed
 * outputs]).  Each matrix is gesvd's reference above, of A^H when m < n
 * (A^H = U' S V'^H gives U = V', V = U').  A matrix the reference leaves
 * unconverged has info min(m, n) + 1, the real library's "did not
 * converge".  cuSOLVER documents m, n <= 32: larger is an invalid
 * argument here.  Arguments in order with devInfo = -i as Note [Invalid
 * arguments] (jobz 1, m 2, n 3, lda 5, ldu 8, ldv 10, lwork 12, params
 * 14: a NULL or destroyed gesvdjInfo, batchSize 15: < 1); the bufferSize
 * call refuses the same ones but lwork with CUSOLVER_STATUS_INVALID_VALUE
 * alone.  ldu >= max(1, m) and ldv >= max(1, n) are asked even with
 * CUSOLVER_EIG_MODE_NOVECTOR, where U and V are neither read nor written
 * and may be NULL.  The workspace asked for is gesvd's per matrix times
 * batchSize.  info[0] is written by the queueing (launch), the others by
 * the work. */
constexpr int gesvdj_batched_max = 32;

int64_t lwork_gesvdj_batched(Ty t, int64_t m, int64_t n, int64_t batch)
{
    return lwork_gesvd(t, std::max(m, n), std::min(m, n)) * std::max<int64_t>(1, batch);
}

/* the first invalid argument (lwork < 0: not checked), or 0 */
int gesvdj_batched_bad(Ty t, cusolverEigMode_t jobz, int m, int n, int lda, int ldu, int ldv, int lwork,
                       gesvdjInfo_t params, int batch)
{
    if (jobz != CUSOLVER_EIG_MODE_NOVECTOR && jobz != CUSOLVER_EIG_MODE_VECTOR)
        return 1;
    if (m < 0 || m > gesvdj_batched_max)
        return 2;
    if (n < 0 || n > gesvdj_batched_max)
        return 3;
    if (lda < std::max(1, m))
        return 5;
    if (ldu < std::max(1, m))
        return 8;
    if (ldv < std::max(1, n))
        return 10;
    if (lwork >= 0 && lwork < lwork_gesvdj_batched(t, m, n, batch))
        return 12;
    return !gesvdj_info_live(params) ? 14 : batch < 1 ? 15 : 0;
}

struct GesvdjBatchedJob : Job {
    bool vectors;
    char *A, *S, *U, *V;
    int *infos;
    int64_t m, n, lda, ldu, ldv, batch;
    cudaError_t compute(int *info) override
    {
        const int64_t k = std::min(m, n), es = (int64_t)esize(t);
        const bool wide = m < n;
        for (int64_t j = 0; j < batch; j++) {
            char *a = A + j * lda * n * es;
            Dense x = read(t, a, lda, m, n), u, v;
            if (wide) {
                Dense h(n, m);
                for (int64_t c = 0; c < n; c++)
                    for (int64_t r = 0; r < m; r++)
                        h(c, r) = Cx{x(r, c).re, -x(r, c).im};
                x = h;
            }
            std::vector<double> s;
            int left = dt_emu::svd(x, s, vectors ? &u : nullptr, x.rows, vectors ? &v : nullptr);
            for (int64_t i = 0; i < k; i++)
                store_real(t, S, j * k + i, s[i]);
            if (vectors) {
                write(t, U + j * ldu * m * es, ldu, wide ? v : u, m, m);
                write(t, V + j * ldv * n * es, ldv, wide ? u : v, n, n);
            }
            for (int64_t c = 0; c < n; c++)
                for (int64_t r = 0; r < m; r++)
                    store(t, a, c * lda + r, nan_cx);
            int value = left != 0 ? (int)k + 1 : 0;
            if (j == 0)
                *info = value;
            else
                memcpy(infos + j, &value, sizeof value);
        }
        return cudaSuccess;
    }
};

cusolverStatus_t gesvdj_batched_size(Ty t, cusolverDnHandle_t handle, cusolverEigMode_t jobz, int m, int n, int lda,
                                     int ldu, int ldv, int *lwork, gesvdjInfo_t params, int batch)
{
    Handle h;
    cusolverStatus_t st = get(handle, &h);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    if (gesvdj_batched_bad(t, jobz, m, n, lda, ldu, ldv, -1, params, batch) != 0)
        return CUSOLVER_STATUS_INVALID_VALUE;
    return answer(lwork_gesvdj_batched(t, m, n, batch), lwork);
}

cusolverStatus_t gesvdj_batched(Ty t, cusolverDnHandle_t handle, cusolverEigMode_t jobz, int m, int n, void *A,
                                int lda, void *S, void *U, int ldu, void *V, int ldv, void *work, int lwork, int *info,
                                gesvdjInfo_t params, int batch)
{
    Handle h;
    cusolverStatus_t st = get(handle, &h);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    if (int bad = gesvdj_batched_bad(t, jobz, m, n, lda, ldu, ldv, std::max(lwork, 0), params, batch))
        return refuse(h, t, info, bad);
    if (m == 0 || n == 0) /* every info 0 */
        return launch(h, t, info, {vec(info, batch, sizeof(int))}, new (std::nothrow) BatchedInfoJob(info, batch));
    const bool vectors = jobz == CUSOLVER_EIG_MODE_VECTOR;
    GesvdjBatchedJob *j = new (std::nothrow) GesvdjBatchedJob();
    if (j != nullptr) {
        j->vectors = vectors, j->A = (char *)A, j->S = (char *)S, j->U = (char *)U, j->V = (char *)V;
        j->infos = info, j->m = m, j->n = n, j->lda = lda, j->ldu = ldu, j->ldv = ldv, j->batch = batch;
        j->work = (char *)work, j->work_bytes = (size_t)lwork * esize(t);
    }
    const int64_t b = batch;
    return launch(h, t, info,
                  {Extent{A, m, n * b, lda, esize(t)}, vec(S, std::min(m, n) * b, rsize(t)),
                   Extent{U, vectors ? m : 0, m * b, ldu, esize(t)}, Extent{V, vectors ? n : 0, n * b, ldv, esize(t)},
                   vec(work, lwork, esize(t)), vec(info, batch, sizeof(int))},
                  j);
}

/* ---- the general eigenproblem (the 64-bit generic API) ---- */

/* Note [Xgeev]
 * cusolverDnXgeev of the types csrc/cuda uses: A, W, VL, VR and the
 * compute type all one of CUDA_R_32F, CUDA_R_64F, CUDA_C_32F, CUDA_C_64F;
 * for a real type W holds 2n reals (the real parts, then the imaginary
 * parts) and VR LAPACK's real layout (a conjugate pair j, j + 1 as the
 * real and imaginary parts of v(j) in columns j and j + 1).  The real
 * library's other combination (real A with complex W) and left
 * eigenvectors (jobvl = CUSOLVER_EIG_MODE_VECTOR) are not emulated:
 * CUSOLVER_STATUS_NOT_SUPPORTED.  Arguments are checked in their order
 * (Note [Invalid arguments]); the i-th counts params as the first.
 * Workspace: the device part as Note [Workspace sizes] with LAPACK's geev
 * minimum (4n for S and D, 2n for C and Z, at least 1) in bytes of the
 * type, the host part max(1, n) elements: both filled with 0xFF bytes when
 * the work runs on the stream, so a caller that frees the host part before
 * the stream is done is a use after free under AddressSanitizer (whether
 * the real library reads the host part only during the call, its
 * documentation does not say).  A is destroyed (Note [Destroyed outputs]);
 * devInfo > 0 counts the eigenvalues not found (Note [General
 * eigenproblem] in emu_dense.cpp), and then W and VR are not written. */
struct GeevJob : Job {
    bool vectors;
    char *A, *W, *VR, *host;
    size_t host_bytes;
    int64_t n, lda, ldvr;
    cudaError_t compute(int *info) override
    {
        memset(host, 0xFF, host_bytes);
        Dense a = read(t, A, lda, n, n), v;
        std::vector<Cx> w;
        const bool real = t == Ty::S || t == Ty::D;
        const int64_t left = dt_emu::eig(a, real, w, vectors ? &v : nullptr);
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i < n; i++)
                store(t, A, j * lda + i, nan_cx);
        *info = (int)std::min<int64_t>(left, n);
        if (left != 0)
            return cudaSuccess;
        for (int64_t j = 0; j < n; j++) {
            if (!real) {
                store(t, W, j, w[(size_t)j]);
                continue;
            }
            store_real(t, W, j, w[(size_t)j].re);
            store_real(t, W, n + j, w[(size_t)j].im);
        }
        if (!vectors)
            return cudaSuccess;
        if (!real) {
            write(t, VR, ldvr, v, n, n);
            return cudaSuccess;
        }
        for (int64_t j = 0; j < n; j++) {
            const bool pair = w[(size_t)j].im > 0 && j + 1 < n;
            for (int64_t i = 0; i < n; i++) {
                store_real(t, VR, j * ldvr + i, v(i, j).re);
                if (pair)
                    store_real(t, VR, (j + 1) * ldvr + i, v(i, j).im);
            }
            j += pair;
        }
        return cudaSuccess;
    }
};

bool type_of(cudaDataType d, Ty *t)
{
    switch (d) {
    case CUDA_R_32F: *t = Ty::S; return true;
    case CUDA_R_64F: *t = Ty::D; return true;
    case CUDA_C_32F: *t = Ty::C; return true;
    case CUDA_C_64F: *t = Ty::Z; return true;
    default: return false;
    }
}

int64_t geev_device_bytes(Ty t, int64_t n)
{
    return std::max<int64_t>(1, (t == Ty::S || t == Ty::D ? 4 : 2) * n) * (int64_t)esize(t);
}
int64_t geev_host_bytes(Ty t, int64_t n) { return std::max<int64_t>(1, n) * (int64_t)esize(t); }

bool eig_mode_ok(cusolverEigMode_t m) { return m == CUSOLVER_EIG_MODE_NOVECTOR || m == CUSOLVER_EIG_MODE_VECTOR; }

/* The checks both calls share: 0, the argument number of the first bad
 * one (Note [Xgeev]), or -1 for a combination not emulated; *t set from
 * dataTypeA when it is one of the four. */
int geev_bad(cusolverDnParams_t params, cusolverEigMode_t jobvl, cusolverEigMode_t jobvr, int64_t n, cudaDataType ta,
             int64_t lda, cudaDataType tw, cudaDataType tvl, int64_t ldvl, cudaDataType tvr, int64_t ldvr,
             cudaDataType tc, Ty *t)
{
    if (!params_live(params))
        return 1;
    if (!eig_mode_ok(jobvl))
        return 2;
    if (!eig_mode_ok(jobvr))
        return 3;
    if (n < 0)
        return 4;
    if (!type_of(ta, t))
        return 5;
    if (jobvl == CUSOLVER_EIG_MODE_VECTOR || tw != ta || tvl != ta || tvr != ta || tc != ta)
        return -1;
    if (lda < std::max<int64_t>(1, n))
        return 7;
    if (ldvl < 1)
        return 12;
    if (ldvr < 1 || (jobvr == CUSOLVER_EIG_MODE_VECTOR && ldvr < n))
        return 15;
    return 0;
}

cusolverStatus_t geev_size(cusolverDnHandle_t handle, cusolverDnParams_t params, cusolverEigMode_t jobvl,
                           cusolverEigMode_t jobvr, int64_t n, cudaDataType ta, int64_t lda, cudaDataType tw,
                           cudaDataType tvl, int64_t ldvl, cudaDataType tvr, int64_t ldvr, cudaDataType tc,
                           size_t *device_bytes, size_t *host_bytes)
{
    Handle h;
    cusolverStatus_t st = get(handle, &h);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    Ty t = Ty::S;
    int bad = geev_bad(params, jobvl, jobvr, n, ta, lda, tw, tvl, ldvl, tvr, ldvr, tc, &t);
    if (bad != 0)
        return bad < 0 ? CUSOLVER_STATUS_NOT_SUPPORTED : CUSOLVER_STATUS_INVALID_VALUE;
    if (!host_out(device_bytes, sizeof *device_bytes) || !host_out(host_bytes, sizeof *host_bytes))
        return CUSOLVER_STATUS_INVALID_VALUE;
    *device_bytes = (size_t)geev_device_bytes(t, n);
    *host_bytes = (size_t)geev_host_bytes(t, n);
    return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t geev(cusolverDnHandle_t handle, cusolverDnParams_t params, cusolverEigMode_t jobvl,
                      cusolverEigMode_t jobvr, int64_t n, cudaDataType ta, void *A, int64_t lda, cudaDataType tw,
                      void *W, cudaDataType tvl, int64_t ldvl, cudaDataType tvr, void *VR, int64_t ldvr,
                      cudaDataType tc, void *device_work, size_t device_bytes, void *host_work, size_t host_bytes,
                      int *info)
{
    Handle h;
    cusolverStatus_t st = get(handle, &h);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    Ty t = Ty::S;
    int bad = geev_bad(params, jobvl, jobvr, n, ta, lda, tw, tvl, ldvl, tvr, ldvr, tc, &t);
    if (bad < 0)
        return CUSOLVER_STATUS_NOT_SUPPORTED;
    if (bad > 0)
        return refuse(h, t, info, bad);
    if (device_bytes < (size_t)geev_device_bytes(t, n))
        return refuse(h, t, info, 18);
    if (host_bytes < (size_t)geev_host_bytes(t, n) || !host_out(host_work, host_bytes))
        return refuse(h, t, info, 20);
    if (n == 0)
        return quick(h, t, info);
    const bool vectors = jobvr == CUSOLVER_EIG_MODE_VECTOR, real = t == Ty::S || t == Ty::D;
    GeevJob *j = new (std::nothrow) GeevJob();
    if (j != nullptr) {
        j->vectors = vectors, j->A = (char *)A, j->W = (char *)W, j->VR = (char *)VR;
        j->host = (char *)host_work, j->host_bytes = host_bytes;
        j->n = n, j->lda = lda, j->ldvr = ldvr;
        j->work = (char *)device_work, j->work_bytes = device_bytes;
    }
    return launch(h, t, info,
                  {Extent{A, n, n, lda, esize(t)}, vec(W, real ? 2 * n : n, real ? rsize(t) : esize(t)),
                   Extent{VR, vectors ? n : 0, n, ldvr, esize(t)}, vec(device_work, (int64_t)device_bytes, 1)},
                  j);
}


} /* namespace */

/* ================= the typed entry points ================= */

extern "C" {

/* The typed entry points: each the generic routine above with its type (EV:
 * sye or hee, the stem of syevd and syevjBatched, heevd and heevjBatched). */
#define DT_SOLVER_TYPED(X, E, R, ORGQR, EV)                                                                      \
    cusolverStatus_t cusolverDn##X##potrf_bufferSize(cusolverDnHandle_t handle, cublasFillMode_t uplo, int n,   \
                                                     E *A, int lda, int *Lwork)                                 \
    {                                                                                                           \
        (void)A;                                                                                                \
        return potrf_size(handle, uplo, n, lda, Lwork);                                                  \
    }                                                                                                           \
    cusolverStatus_t cusolverDn##X##potrf(cusolverDnHandle_t handle, cublasFillMode_t uplo, int n, E *A,        \
                                          int lda, E *Workspace, int Lwork, int *devInfo)                       \
    {                                                                                                           \
        return potrf(Ty::X, handle, uplo, n, A, lda, Workspace, Lwork, devInfo);                                \
    }                                                                                                           \
    cusolverStatus_t cusolverDn##X##potrfBatched(cusolverDnHandle_t handle, cublasFillMode_t uplo, int n,       \
                                                 E *Aarray[], int lda, int *infoArray, int batchSize)           \
    {                                                                                                           \
        return potrf_batched(Ty::X, handle, uplo, n, (void **)Aarray, lda, infoArray, batchSize);               \
    }                                                                                                           \
    cusolverStatus_t cusolverDn##X##getrf_bufferSize(cusolverDnHandle_t handle, int m, int n, E *A, int lda,    \
                                                     int *Lwork)                                                \
    {                                                                                                           \
        (void)A;                                                                                                \
        return getrf_size(handle, m, n, lda, Lwork);                                                     \
    }                                                                                                           \
    cusolverStatus_t cusolverDn##X##getrf(cusolverDnHandle_t handle, int m, int n, E *A, int lda, E *Workspace, \
                                          int *devIpiv, int *devInfo)                                           \
    {                                                                                                           \
        return getrf(Ty::X, handle, m, n, A, lda, Workspace, devIpiv, devInfo);                                 \
    }                                                                                                           \
    cusolverStatus_t cusolverDn##X##getrs(cusolverDnHandle_t handle, cublasOperation_t trans, int n, int nrhs,  \
                                          const E *A, int lda, const int *devIpiv, E *B, int ldb,               \
                                          int *devInfo)                                                         \
    {                                                                                                           \
        return getrs(Ty::X, handle, trans, n, nrhs, A, lda, devIpiv, B, ldb, devInfo);                          \
    }                                                                                                           \
    cusolverStatus_t cusolverDn##X##geqrf_bufferSize(cusolverDnHandle_t handle, int m, int n, E *A, int lda,    \
                                                     int *lwork)                                                \
    {                                                                                                           \
        (void)A;                                                                                                \
        return geqrf_size(handle, m, n, lda, lwork);                                                     \
    }                                                                                                           \
    cusolverStatus_t cusolverDn##X##geqrf(cusolverDnHandle_t handle, int m, int n, E *A, int lda, E *TAU,       \
                                          E *Workspace, int Lwork, int *devInfo)                                \
    {                                                                                                           \
        return geqrf(Ty::X, handle, m, n, A, lda, TAU, Workspace, Lwork, devInfo);                              \
    }                                                                                                           \
    cusolverStatus_t cusolverDn##X##ORGQR##_bufferSize(cusolverDnHandle_t handle, int m, int n, int k,          \
                                                       const E *A, int lda, const E *tau, int *lwork)           \
    {                                                                                                           \
        (void)A, (void)tau;                                                                                     \
        return orgqr_size(handle, m, n, k, lda, lwork);                                                  \
    }                                                                                                           \
    cusolverStatus_t cusolverDn##X##ORGQR(cusolverDnHandle_t handle, int m, int n, int k, E *A, int lda,        \
                                          const E *tau, E *work, int lwork, int *info)                          \
    {                                                                                                           \
        return orgqr(Ty::X, handle, m, n, k, A, lda, tau, work, lwork, info);                                   \
    }                                                                                                           \
    cusolverStatus_t cusolverDn##X##EV##vd_bufferSize(cusolverDnHandle_t handle, cusolverEigMode_t jobz,          \
                                                       cublasFillMode_t uplo, int n, const E *A, int lda,       \
                                                       const R *W, int *lwork)                                  \
    {                                                                                                           \
        (void)A, (void)W;                                                                                       \
        return syevd_size(Ty::X, handle, jobz, uplo, n, lda, lwork);                                            \
    }                                                                                                           \
    cusolverStatus_t cusolverDn##X##EV##vd(cusolverDnHandle_t handle, cusolverEigMode_t jobz,                       \
                                          cublasFillMode_t uplo, int n, E *A, int lda, R *W, E *work,           \
                                          int lwork, int *info)                                                 \
    {                                                                                                           \
        return syevd(Ty::X, handle, jobz, uplo, n, A, lda, W, work, lwork, info);                               \
    }                                                                                                           \
    cusolverStatus_t cusolverDn##X##EV##vjBatched_bufferSize(                                                    \
        cusolverDnHandle_t handle, cusolverEigMode_t jobz, cublasFillMode_t uplo, int n, const E *A, int lda,   \
        const R *W, int *lwork, syevjInfo_t params, int batchSize)                                              \
    {                                                                                                           \
        (void)A, (void)W;                                                                                       \
        return syevj_batched_size(Ty::X, handle, jobz, uplo, n, lda, lwork, params, batchSize);                 \
    }                                                                                                           \
    cusolverStatus_t cusolverDn##X##EV##vjBatched(cusolverDnHandle_t handle, cusolverEigMode_t jobz,             \
                                                    cublasFillMode_t uplo, int n, E *A, int lda, R *W, E *work, \
                                                    int lwork, int *info, syevjInfo_t params, int batchSize)    \
    {                                                                                                           \
        return syevj_batched(Ty::X, handle, jobz, uplo, n, A, lda, W, work, lwork, info, params, batchSize);    \
    }                                                                                                           \
    cusolverStatus_t cusolverDn##X##gesvdjBatched_bufferSize(                                                   \
        cusolverDnHandle_t handle, cusolverEigMode_t jobz, int m, int n, const E *A, int lda, const R *S,         \
        const E *U, int ldu, const E *V, int ldv, int *lwork, gesvdjInfo_t params, int batchSize)               \
    {                                                                                                           \
        (void)A, (void)S, (void)U, (void)V;                                                                     \
        return gesvdj_batched_size(Ty::X, handle, jobz, m, n, lda, ldu, ldv, lwork, params, batchSize);         \
    }                                                                                                           \
    cusolverStatus_t cusolverDn##X##gesvdjBatched(cusolverDnHandle_t handle, cusolverEigMode_t jobz, int m,     \
                                                  int n, E *A, int lda, R *S, E *U, int ldu, E *V, int ldv,     \
                                                  E *work, int lwork, int *info, gesvdjInfo_t params,           \
                                                  int batchSize)                                                \
    {                                                                                                           \
        return gesvdj_batched(Ty::X, handle, jobz, m, n, A, lda, S, U, ldu, V, ldv, work, lwork, info, params,  \
                              batchSize);                                                                       \
    }                                                                                                           \
    cusolverStatus_t cusolverDn##X##gesvd_bufferSize(cusolverDnHandle_t handle, int m, int n, int *lwork)       \
    {                                                                                                           \
        return gesvd_size(Ty::X, handle, m, n, lwork);                                                          \
    }                                                                                                           \
    cusolverStatus_t cusolverDn##X##gesvd(cusolverDnHandle_t handle, signed char jobu, signed char jobvt,       \
                                          int m, int n, E *A, int lda, R *S, E *U, int ldu, E *VT, int ldvt,    \
                                          E *work, int lwork, R *rwork, int *info)                              \
    {                                                                                                           \
        return gesvd(Ty::X, handle, jobu, jobvt, m, n, A, lda, S, U, ldu, VT, ldvt, work, lwork, rwork, info);  \
    }

DT_SOLVER_TYPED(S, float, float, orgqr, sye)
DT_SOLVER_TYPED(D, double, double, orgqr, sye)
DT_SOLVER_TYPED(C, cuComplex, float, ungqr, hee)
DT_SOLVER_TYPED(Z, cuDoubleComplex, double, ungqr, hee)

#undef DT_SOLVER_TYPED

cusolverStatus_t cusolverDnXgeev_bufferSize(cusolverDnHandle_t handle, cusolverDnParams_t params,
                                            cusolverEigMode_t jobvl, cusolverEigMode_t jobvr, int64_t n,
                                            cudaDataType dataTypeA, const void *A, int64_t lda,
                                            cudaDataType dataTypeW, const void *W, cudaDataType dataTypeVL,
                                            const void *VL, int64_t ldvl, cudaDataType dataTypeVR, const void *VR,
                                            int64_t ldvr, cudaDataType computeType, size_t *workspaceInBytesOnDevice,
                                            size_t *workspaceInBytesOnHost)
{
    (void)A, (void)W, (void)VL, (void)VR;
    return geev_size(handle, params, jobvl, jobvr, n, dataTypeA, lda, dataTypeW, dataTypeVL, ldvl, dataTypeVR, ldvr,
                     computeType, workspaceInBytesOnDevice, workspaceInBytesOnHost);
}

cusolverStatus_t cusolverDnXgeev(cusolverDnHandle_t handle, cusolverDnParams_t params, cusolverEigMode_t jobvl,
                                 cusolverEigMode_t jobvr, int64_t n, cudaDataType dataTypeA, void *A, int64_t lda,
                                 cudaDataType dataTypeW, void *W, cudaDataType dataTypeVL, void *VL, int64_t ldvl,
                                 cudaDataType dataTypeVR, void *VR, int64_t ldvr, cudaDataType computeType,
                                 void *bufferOnDevice, size_t workspaceInBytesOnDevice, void *bufferOnHost,
                                 size_t workspaceInBytesOnHost, int *info)
{
    (void)VL;
    return geev(handle, params, jobvl, jobvr, n, dataTypeA, A, lda, dataTypeW, W, dataTypeVL, ldvl, dataTypeVR, VR,
                ldvr, computeType, bufferOnDevice, workspaceInBytesOnDevice, bufferOnHost, workspaceInBytesOnHost,
                info);
}

} /* extern "C" */
