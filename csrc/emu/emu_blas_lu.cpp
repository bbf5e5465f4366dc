/* emu_blas_lu.cpp - cuBLAS's batched LU routines on the CPU
 * (cublas<t>getrfBatched, cublas<t>getrsBatched, declared by our own
 * csrc/emu/include/cublas_v2.h): argument checks and statuses as cuBLAS
 * documents them, the work queued on the handle's stream like the real
 * library's kernels, the arithmetic emu_dense.cpp's (in complex double for
 * every type, with emu_solver.h's element access).  Handles are
 * emu_blas.cpp's (emu_blas.h).
 *
 * Note [Batched LU]
 * getrfBatched factors batchSize n x n matrices P A = L U in place, each
 * at the device pointer Aarray[i] (the array itself in device memory),
 * with LAPACK's partial pivoting: PivotArray[i * n + j] is the 1-based row
 * swapped with row j of matrix i, infoArray[i] LAPACK's info (0, or j + 1
 * for the first exactly zero U(j, j); the factorization goes on).
 * PivotArray NULL factors without pivoting, as documented.  getrsBatched
 * solves op(A_i) X = B_i with those factors, B_i (n x nrhs) at Barray[i]
 * overwritten; its info is one int in host memory that says which
 * argument was invalid (-j, the arguments counted after the handle), else
 * 0; a devIpiv of NULL is refused (argument 6): the documentation gives
 * it no meaning.  Order of checks, each answering before the next:
 *   a NULL or destroyed handle                  CUBLAS_STATUS_NOT_INITIALIZED
 *   an invalid argument (n, nrhs or batchSize < 0, lda or ldb < max(1, n),
 *   trans not N, T or C; getrs: info NULL or in device memory)
 *                                               CUBLAS_STATUS_INVALID_VALUE
 *   n, nrhs or batchSize 0                      CUBLAS_STATUS_SUCCESS, nothing
 *                                               done (getrs: *info = 0)
 *   another device than the handle's current    CUBLAS_STATUS_EXECUTION_FAILED
 *   an array (pointers, pivots, infos) outside memory the handle's device
 *   may access                                  CUBLAS_STATUS_INVALID_VALUE
 *   a launch the stream refuses                 CUBLAS_STATUS_EXECUTION_FAILED
 * The matrices' pointers are read when the work runs, as the library's
 * kernel reads them: a matrix outside the device's memory, or a pivot
 * outside 1..n given to getrs, is then cudaErrorIllegalAddress, the
 * device's sticky error, with nothing of that matrix written (a fault on a
 * GPU), as emu_solver_routines.cpp's potrfBatched and getrs do.
 */
#include <cublas_v2.h>

#include "emu_blas.h"
#include "emu_library.h"
#include "emu_runtime.h"
#include "emu_solver.h" /* Ty, read, write, Extent, inside */

#include <string.h>

#include <algorithm>
#include <new>
#include <vector>

namespace {

using dt_emu::Dense;
using dt_emu::solver::Extent;
using dt_emu::solver::Ty;
using dt_emu::solver::esize;
using dt_emu::solver::inside;
using dt_emu::solver::vec;

struct Queue {
    int device;
    cudaStream_t stream;
};


/* The matrix pointer j of a pointer array in device memory */
char *pointer_at(const void *array, int64_t j)
{
    char *p = nullptr;
    memcpy(&p, (const char *)array + j * (int64_t)sizeof p, sizeof p);
    return p;
}

struct Work {
    Ty t;
    int device;
    int64_t n, nrhs, lda, ldb, batch;
    char op;                /* getrs */
    const void *A, *B;      /* the pointer arrays */
    int *piv, *infos;       /* getrf; getrs reads piv */
    virtual ~Work() {}
    virtual cudaError_t run() = 0;
};

struct Getrf : Work {
    cudaError_t run() override
    {
        std::vector<int> p((size_t)n);
        for (int64_t j = 0; j < batch; j++) {
            char *a = pointer_at(A, j);
            if (!inside(device, Extent{a, n, n, lda, esize(t)}))
                return cudaErrorIllegalAddress;
            Dense m = dt_emu::solver::read(t, a, lda, n, n);
            int info = dt_emu::lu_factor(m, piv != nullptr ? p.data() : nullptr);
            dt_emu::solver::write(t, a, lda, m, n, n);
            if (piv != nullptr)
                for (int64_t i = 0; i < n; i++) {
                    int one_based = p[(size_t)i] + 1;
                    memcpy(piv + j * n + i, &one_based, sizeof one_based);
                }
            memcpy(infos + j, &info, sizeof info);
        }
        return cudaSuccess;
    }
};

struct Getrs : Work {
    cudaError_t run() override
    {
        std::vector<int> p((size_t)n);
        for (int64_t j = 0; j < batch; j++) {
            char *a = pointer_at(A, j), *b = pointer_at(B, j);
            if (!inside(device, Extent{a, n, n, lda, esize(t)}) ||
                !inside(device, Extent{b, n, nrhs, ldb, esize(t)}))
                return cudaErrorIllegalAddress;
            memcpy(p.data(), piv + j * n, (size_t)n * sizeof(int));
            for (int &v : p) {
                if (v < 1 || v > n)
                    return cudaErrorIllegalAddress;
                v -= 1;
            }
            Dense lu = dt_emu::solver::read(t, a, lda, n, n), x = dt_emu::solver::read(t, b, ldb, n, nrhs);
            dt_emu::lu_solve(lu, p.data(), op, x);
            dt_emu::solver::write(t, b, ldb, x, n, nrhs);
        }
        return cudaSuccess;
    }
};

cudaError_t work_run(void *arg) { return static_cast<Work *>(arg)->run(); }
void work_release(void *arg) { delete static_cast<Work *>(arg); }

/* The tail both routines share once their arguments passed: the device,
 * the arrays' extents, the queueing (Note [Batched LU]).  Takes w. */
cublasStatus_t queue_work(const Queue &q, Work *w, std::initializer_list<Extent> arrays)
{
    if (w == nullptr)
        return CUBLAS_STATUS_ALLOC_FAILED;
    cublasStatus_t st = CUBLAS_STATUS_SUCCESS;
    if (dt_emu::current_device() != q.device)
        st = CUBLAS_STATUS_EXECUTION_FAILED; /* Note [The handle's device] in emu_blas.cpp */
    for (const Extent &e : arrays)
        if (st == CUBLAS_STATUS_SUCCESS && !inside(q.device, e))
            st = CUBLAS_STATUS_INVALID_VALUE;
    if (st != CUBLAS_STATUS_SUCCESS) {
        delete w;
        return st;
    }
    dt_emu::Quiet quiet;
    return emu_runtime_enqueue(q.stream, work_run, w, work_release) == cudaSuccess ? CUBLAS_STATUS_SUCCESS
                                                                                   : CUBLAS_STATUS_EXECUTION_FAILED;
}

cublasStatus_t getrf_batched(Ty t, cublasHandle_t handle, int n, const void *Aarray, int lda, int *PivotArray,
                             int *infoArray, int batchSize)
{
    Queue q;
    cublasStatus_t st = dt_emu::blas_handle(handle, &q.device, &q.stream);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    if (n < 0 || lda < std::max(1, n) || batchSize < 0)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (n == 0 || batchSize == 0)
        return CUBLAS_STATUS_SUCCESS;
    Getrf *w = new (std::nothrow) Getrf();
    if (w != nullptr) {
        w->t = t, w->device = q.device, w->n = n, w->lda = lda, w->batch = batchSize;
        w->A = Aarray, w->piv = PivotArray, w->infos = infoArray;
    }
    return queue_work(q, w,
                      {vec(Aarray, batchSize, sizeof(void *)), vec(infoArray, batchSize, sizeof(int)),
                       vec(PivotArray, PivotArray != nullptr ? (int64_t)n * batchSize : 0, sizeof(int))});
}

cublasStatus_t getrs_batched(Ty t, cublasHandle_t handle, cublasOperation_t trans, int n, int nrhs,
                             const void *Aarray, int lda, const int *devIpiv, const void *Barray, int ldb, int *info,
                             int batchSize)
{
    Queue q;
    cublasStatus_t st = dt_emu::blas_handle(handle, &q.device, &q.stream);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    if (!dt_emu::host_out(info, sizeof *info))
        return CUBLAS_STATUS_INVALID_VALUE;
    int op; /* as an int: a caller's out-of-range value is no valid cublasOperation_t */
    memcpy(&op, &trans, sizeof op);
    int bad = op != CUBLAS_OP_N && op != CUBLAS_OP_T && op != CUBLAS_OP_C ? 1
            : n < 0                                                               ? 2
            : nrhs < 0                                                            ? 3
            : lda < std::max(1, n)                                                ? 5
            : devIpiv == nullptr                                                  ? 6
            : ldb < std::max(1, n)                                                ? 8
            : batchSize < 0                                                       ? 10
                                                                                  : 0;
    *info = -bad;
    if (bad != 0)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (n == 0 || nrhs == 0 || batchSize == 0)
        return CUBLAS_STATUS_SUCCESS;
    Getrs *w = new (std::nothrow) Getrs();
    if (w != nullptr) {
        /* CUBLAS_OP_C on a real type is CUBLAS_OP_T: conjugation does nothing */
        w->op = op == CUBLAS_OP_N ? 'N' : op == CUBLAS_OP_T ? 'T' : 'C';
        w->t = t, w->device = q.device, w->n = n, w->nrhs = nrhs, w->lda = lda, w->ldb = ldb;
        w->batch = batchSize, w->A = Aarray, w->B = Barray, w->piv = const_cast<int *>(devIpiv);
        w->infos = nullptr;
    }
    return queue_work(q, w,
                      {vec(Aarray, batchSize, sizeof(void *)), vec(Barray, batchSize, sizeof(void *)),
                       vec(devIpiv, (int64_t)n * batchSize, sizeof(int))});
}

} /* namespace */

/* ================= the API ================= */

extern "C" {

#define DT_EMU_LU_BATCHED(X, T)                                                                                   \
    cublasStatus_t cublas##X##getrfBatched(cublasHandle_t handle, int n, T *const Aarray[], int lda,              \
                                           int *PivotArray, int *infoArray, int batchSize)                      \
    {                                                                                                            \
        return getrf_batched(Ty::X, handle, n, Aarray, lda, PivotArray, infoArray, batchSize);                  \
    }                                                                                                            \
    cublasStatus_t cublas##X##getrsBatched(cublasHandle_t handle, cublasOperation_t trans, int n, int nrhs,       \
                                           const T *const Aarray[], int lda, const int *devIpiv,                 \
                                           T *const Barray[], int ldb, int *info, int batchSize)                 \
    {                                                                                                            \
        return getrs_batched(Ty::X, handle, trans, n, nrhs, Aarray, lda, devIpiv, Barray, ldb, info, batchSize); \
    }

DT_EMU_LU_BATCHED(S, float)
DT_EMU_LU_BATCHED(D, double)
DT_EMU_LU_BATCHED(C, cuComplex)
DT_EMU_LU_BATCHED(Z, cuDoubleComplex)

#undef DT_EMU_LU_BATCHED

} /* extern "C" */
