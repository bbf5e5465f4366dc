/* cuda_solver.c - the CUDA backend's factorizations (backend.h's
 * dt_linalg_loop) through cuSOLVER's dense API, and the small kernels
 * around it (cuda_solver_kernels.cu).
 *
 * Note [Loading cuSOLVER]
 * As cuBLAS (Note [Loading cuBLAS] in cuda_blas.c, Note [Libraries opened
 * on first use] in library.h): opened with dlopen on the first
 * factorization on a CUDA device, by soname and then from the
 * toolkit devtensor was built with; the emulated build links the
 * reference implementation in csrc/emu/emu_solver.cpp.  One handle per
 * device, kept for the process and used under the device's lock; each
 * routine's workspace is asked of its _bufferSize function and taken from
 * the caching allocator on the stream the work is queued on, so it is
 * freed right after queueing (the allocator reuses it only for work
 * queued after).
 *
 * Note [cuSOLVER's conventions]
 * cuSOLVER takes int sizes and int pivots and info (1-based pivots, as
 * LAPACK); backend.h's loop has int64 (0-based pivots): the kernels of
 * cuda_solver_kernels.cu convert on the device.  Each matrix of the batch is one
 * call, except batches of small Cholesky and LU factorizations and LU
 * solves, eigh and the SVD (Note [Batched factorizations]).  gesvd needs
 * m >= n: a wide matrix is factored as its conjugate transpose,
 * A^H = U' S V'^H, so A = V' S U'^H: U is (V'^H)^H and V^H is U'^H.  eig
 * of a general matrix: Note [eig through Xgeev].
 */
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cusolverDn.h>

#include "cuda_internal.h"
#include "library.h"

/* ---- the library ---- */

typedef cusolverDnHandle_t H;
typedef struct solver_fns {
    cusolverStatus_t (*getrf_bs)(H, int, int, void *, int, int *);
    cusolverStatus_t (*getrf)(H, int, int, void *, int, void *, int *, int *);
    cusolverStatus_t (*getrs)(H, cublasOperation_t, int, int, const void *, int, const int *, void *,
                              int, int *);
    cusolverStatus_t (*potrf_bs)(H, cublasFillMode_t, int, void *, int, int *);
    cusolverStatus_t (*potrf)(H, cublasFillMode_t, int, void *, int, void *, int, int *);
    cusolverStatus_t (*potrf_batched)(H, cublasFillMode_t, int, void **, int, int *, int);
    cusolverStatus_t (*geqrf_bs)(H, int, int, void *, int, int *);
    cusolverStatus_t (*geqrf)(H, int, int, void *, int, void *, void *, int, int *);
    cusolverStatus_t (*orgqr_bs)(H, int, int, int, const void *, int, const void *, int *);
    cusolverStatus_t (*orgqr)(H, int, int, int, void *, int, const void *, void *, int, int *);
    cusolverStatus_t (*syevd_bs)(H, cusolverEigMode_t, cublasFillMode_t, int, const void *, int,
                                 const void *, int *);
    cusolverStatus_t (*syevd)(H, cusolverEigMode_t, cublasFillMode_t, int, void *, int, void *,
                              void *, int, int *);
    cusolverStatus_t (*syevj_batched_bs)(H, cusolverEigMode_t, cublasFillMode_t, int, const void *, int,
                                         const void *, int *, syevjInfo_t, int);
    cusolverStatus_t (*syevj_batched)(H, cusolverEigMode_t, cublasFillMode_t, int, void *, int, void *, void *,
                                      int, int *, syevjInfo_t, int);
    cusolverStatus_t (*gesvd_bs)(H, int, int, int *);
    cusolverStatus_t (*gesvd)(H, signed char, signed char, int, int, void *, int, void *, void *,
                              int, void *, int, void *, int, void *, int *);
    cusolverStatus_t (*gesvdj_batched_bs)(H, cusolverEigMode_t, int, int, const void *, int, const void *,
                                          const void *, int, const void *, int, int *, gesvdjInfo_t, int);
    cusolverStatus_t (*gesvdj_batched)(H, cusolverEigMode_t, int, int, void *, int, void *, void *, int, void *,
                                       int, void *, int, int *, gesvdjInfo_t, int);
} solver_fns;

/* X(field, S name, D name, C name, Z name) */
#define DT_SOLVER_FUNCTIONS(X)                                                                   \
    X(getrf_bs, cusolverDnSgetrf_bufferSize, cusolverDnDgetrf_bufferSize,                       \
      cusolverDnCgetrf_bufferSize, cusolverDnZgetrf_bufferSize)                                 \
    X(getrf, cusolverDnSgetrf, cusolverDnDgetrf, cusolverDnCgetrf, cusolverDnZgetrf)            \
    X(getrs, cusolverDnSgetrs, cusolverDnDgetrs, cusolverDnCgetrs, cusolverDnZgetrs)            \
    X(potrf_bs, cusolverDnSpotrf_bufferSize, cusolverDnDpotrf_bufferSize,                       \
      cusolverDnCpotrf_bufferSize, cusolverDnZpotrf_bufferSize)                                 \
    X(potrf, cusolverDnSpotrf, cusolverDnDpotrf, cusolverDnCpotrf, cusolverDnZpotrf)            \
    X(potrf_batched, cusolverDnSpotrfBatched, cusolverDnDpotrfBatched, cusolverDnCpotrfBatched,  \
      cusolverDnZpotrfBatched)                                                                  \
    X(geqrf_bs, cusolverDnSgeqrf_bufferSize, cusolverDnDgeqrf_bufferSize,                       \
      cusolverDnCgeqrf_bufferSize, cusolverDnZgeqrf_bufferSize)                                 \
    X(geqrf, cusolverDnSgeqrf, cusolverDnDgeqrf, cusolverDnCgeqrf, cusolverDnZgeqrf)            \
    X(orgqr_bs, cusolverDnSorgqr_bufferSize, cusolverDnDorgqr_bufferSize,                       \
      cusolverDnCungqr_bufferSize, cusolverDnZungqr_bufferSize)                                 \
    X(orgqr, cusolverDnSorgqr, cusolverDnDorgqr, cusolverDnCungqr, cusolverDnZungqr)            \
    X(syevd_bs, cusolverDnSsyevd_bufferSize, cusolverDnDsyevd_bufferSize,                       \
      cusolverDnCheevd_bufferSize, cusolverDnZheevd_bufferSize)                                 \
    X(syevd, cusolverDnSsyevd, cusolverDnDsyevd, cusolverDnCheevd, cusolverDnZheevd)            \
    X(syevj_batched_bs, cusolverDnSsyevjBatched_bufferSize, cusolverDnDsyevjBatched_bufferSize,   \
      cusolverDnCheevjBatched_bufferSize, cusolverDnZheevjBatched_bufferSize)                     \
    X(syevj_batched, cusolverDnSsyevjBatched, cusolverDnDsyevjBatched, cusolverDnCheevjBatched,   \
      cusolverDnZheevjBatched)                                                                    \
    X(gesvd_bs, cusolverDnSgesvd_bufferSize, cusolverDnDgesvd_bufferSize,                       \
      cusolverDnCgesvd_bufferSize, cusolverDnZgesvd_bufferSize)                                 \
    X(gesvd, cusolverDnSgesvd, cusolverDnDgesvd, cusolverDnCgesvd, cusolverDnZgesvd)            \
    X(gesvdj_batched_bs, cusolverDnSgesvdjBatched_bufferSize, cusolverDnDgesvdjBatched_bufferSize, \
      cusolverDnCgesvdjBatched_bufferSize, cusolverDnZgesvdjBatched_bufferSize)                    \
    X(gesvdj_batched, cusolverDnSgesvdjBatched, cusolverDnDgesvdjBatched, cusolverDnCgesvdjBatched, \
      cusolverDnZgesvdjBatched)

typedef struct solver_api {
    cusolverStatus_t (*create)(cusolverDnHandle_t *);
    cusolverStatus_t (*set_stream)(cusolverDnHandle_t, cudaStream_t);
    cusolverStatus_t (*create_syevj_info)(syevjInfo_t *);
    cusolverStatus_t (*create_gesvdj_info)(gesvdjInfo_t *);
    solver_fns t[4]; /* S, D, C, Z */
} solver_api;

static dt_library library = DT_LIBRARY_INIT;
static solver_api api;

#ifdef DEVTENSOR_EMULATED
static int load(char *error, size_t size)
{
    (void)error, (void)size;
    api.create = cusolverDnCreate;
    api.set_stream = cusolverDnSetStream;
    api.create_syevj_info = cusolverDnCreateSyevjInfo;
    api.create_gesvdj_info = cusolverDnCreateGesvdjInfo;
#define DT_SOLVER_LINK_(F, S, D, C, Z)                  \
    api.t[0].F = (__typeof__(api.t[0].F))(void (*)(void))S; \
    api.t[1].F = (__typeof__(api.t[0].F))(void (*)(void))D; \
    api.t[2].F = (__typeof__(api.t[0].F))(void (*)(void))C; \
    api.t[3].F = (__typeof__(api.t[0].F))(void (*)(void))Z;
    DT_SOLVER_FUNCTIONS(DT_SOLVER_LINK_)
#undef DT_SOLVER_LINK_
    return 1;
}
#else
#define DT_STR2_(x) #x
#define DT_STR_(x) DT_STR2_(x)
#define DT_CUSOLVER_SONAME "libcusolver.so." DT_STR_(CUSOLVER_VER_MAJOR)

/* the names in the order load() reads them back */
static const char *const symbols[] = {
    "cusolverDnCreate", "cusolverDnSetStream", "cusolverDnCreateSyevjInfo", "cusolverDnCreateGesvdjInfo",
#define DT_SOLVER_NAME_(F, S, D, C, Z) #S, #D, #C, #Z,
    DT_SOLVER_FUNCTIONS(DT_SOLVER_NAME_)
#undef DT_SOLVER_NAME_
};
#define N_SYMBOLS (sizeof symbols / sizeof *symbols)

static int load(char *error, size_t size)
{
    static const char *const paths[] = {
        DT_CUSOLVER_SONAME,
#ifdef DT_CUDA_LIB_DIR
        DT_CUDA_LIB_DIR "/" DT_CUSOLVER_SONAME,
#endif
    };
    void *slot[N_SYMBOLS];
    if (!dt_library_load("cuSOLVER", paths, sizeof paths / sizeof *paths,
                         "factorizations on CUDA devices", symbols, slot, N_SYMBOLS, error, size))
        return 0;
    size_t i = 0;
    api.create = (__typeof__(api.create))slot[i++];
    api.set_stream = (__typeof__(api.set_stream))slot[i++];
    api.create_syevj_info = (__typeof__(api.create_syevj_info))slot[i++];
    api.create_gesvdj_info = (__typeof__(api.create_gesvdj_info))slot[i++];
#define DT_SOLVER_READ_(F, S, D, C, Z)                          \
    for (int k = 0; k < 4; k++)                                 \
        api.t[k].F = (__typeof__(api.t[k].F))slot[i++];
    DT_SOLVER_FUNCTIONS(DT_SOLVER_READ_)
#undef DT_SOLVER_READ_
    return 1;
}
#endif

static const solver_api *get_api(dt_error *err)
{
    return dt_library_ensure(&library, load, err) == DT_OK ? &api : NULL;
}

static dt_status solver_check(cusolverStatus_t s, const char *call, int device, dt_error *err)
{
    if (s == CUSOLVER_STATUS_SUCCESS)
        return DT_OK;
    return dt_error_set(err, s == CUSOLVER_STATUS_ALLOC_FAILED ? DT_ERR_DEVICE_OOM : DT_ERR_RUNTIME,
                        "cuSOLVER error in %s on cuda:%d (status %d)", call, device, (int)s);
}

/* ---- handles ---- */

typedef struct device_solver {
    pthread_mutex_t lock;
    cusolverDnHandle_t handle;
    cusolverDnParams_t params; /* eig's (Note [eig through Xgeev]), made on first use */
    syevjInfo_t syevj;         /* syevjBatched's options (the defaults), made on first use */
    gesvdjInfo_t gesvdj;       /* gesvdjBatched's, the same */
} device_solver;

static device_solver devices[DT_CUDA_MAX_DEVICES];
static pthread_once_t devices_once = PTHREAD_ONCE_INIT;

static void init_devices(void)
{
    for (int i = 0; i < DT_CUDA_MAX_DEVICES; i++)
        pthread_mutex_init(&devices[i].lock, NULL);
}

/* ---- one loop ---- */

/* What one run needs beside the loop: the API, the handle and stream, and
 * device scratch (int pivots, int info, workspace) taken from the caching
 * allocator and given back when the work is queued. */
typedef struct run_ctx {
    const dt_linalg_loop *l;
    const solver_fns *f;
    cusolverDnHandle_t h;
    syevjInfo_t syevj;         /* batched eigh: the device's options object */
    gesvdjInfo_t gesvdj;       /* batched SVD: the device's options object */
    dt_cuda_stream *stream;
    cudaStream_t raw;
    int dev;
    int64_t item, real_item;
    void *scratch[4], *scratch_ctx[4];
    int nscratch;
} run_ctx;

static dt_status scratch(run_ctx *c, int64_t bytes, void **ptr, dt_error *err)
{
    if (c->nscratch == 4)
        return dt_error_set(err, DT_ERR_RUNTIME, "run_linalg: internal error: scratch");
    int i = c->nscratch;
    DT_TRY(dt_cuda_alloc(c->dev, (size_t)(bytes > 0 ? bytes : 1), c->stream, &c->scratch[i],
                         &c->scratch_ctx[i], err));
    c->nscratch++;
    *ptr = c->scratch[i];
    return DT_OK;
}

static void scratch_free(run_ctx *c)
{
    for (int i = 0; i < c->nscratch; i++)
        dt_cuda_free(c->dev, c->scratch[i], c->scratch_ctx[i]);
    c->nscratch = 0;
}

#define CHECK(call, what) DT_TRY(solver_check((call), what, c->dev, err))

static dt_status workspace(run_ctx *c, int lwork, void **work, dt_error *err)
{
    return scratch(c, (int64_t)(lwork > 0 ? lwork : 1) * c->item, work, err);
}

/* Note [Batched factorizations]
 * A batch of small matrices goes to the batched routine in one call (one
 * launch or a few for the batch, where the loop makes a few per matrix),
 * as PyTorch's and CuPy's do: Cholesky to cuSOLVER's potrfBatched, LU and
 * the LU solve to cuBLAS's getrfBatched and getrsBatched (through
 * cuda_blas.c, which owns the cuBLAS handles; that lock is taken inside
 * this device's solver lock, never the other way).  From two matrices of
 * at most DT_SOLVER_BATCHED_N rows, the size up to which the batched
 * kernels keep a matrix in one thread block; larger matrices keep the
 * loop, whose blocked routine is faster there.  The routines read the
 * matrices' device pointers from device memory: a small kernel writes
 * them.  getrfBatched's pivots and infos have the layout of the loop's
 * (n and one per matrix, contiguous).  eigh's batches go to syevjBatched
 * (Jacobi, for n <= 32, matrices packed as the loop's; its options
 * object keeps the defaults: eigenvalues ascending, tolerance machine
 * precision, at most 100 sweeps); a matrix that does not converge has
 * info n + 1, which eigh raises as LinAlgError like syevd's info.  The
 * SVD's batches of matrices of at most 32 rows and columns go to
 * gesvdjBatched (Jacobi; its options object keeps the defaults too:
 * singular values descending), whose info min(m, n) + 1 on
 * non-convergence is the SVD's LinAlgError as gesvd's info is. */
#define DT_SOLVER_BATCHED_N 32

static int batched(const dt_linalg_loop *l)
{
    return l->count >= 2 && l->n <= DT_SOLVER_BATCHED_N && l->count <= INT_MAX;
}

/* the device pointers of the count matrices of `bytes` each from base */
static dt_status pointers(run_ctx *c, char *base, int64_t bytes, void ***ptrs, dt_error *err)
{
    DT_TRY(scratch(c, c->l->count * (int64_t)sizeof(char *), (void **)ptrs, err));
    return dt_cuda_solver_pointers(base, bytes, c->l->count, (char **)*ptrs, c->raw, c->dev, err);
}

static dt_status run_lu(run_ctx *c, int *info32, dt_error *err)
{
    const dt_linalg_loop *l = c->l;
    int n = (int)l->n, lwork = 0;
    int *piv32;
    DT_TRY(scratch(c, l->count * l->n * (int64_t)sizeof(int), (void **)&piv32, err));
    if (batched(l)) {
        void **ptrs;
        DT_TRY(pointers(c, l->a, l->n * l->n * c->item, &ptrs, err));
        DT_TRY(dt_cuda_blas_lu_batched(c->dev, c->stream, l->dtype, n, ptrs, piv32, info32,
                                       (int)l->count, err));
    } else {
        void *work;
        CHECK(c->f->getrf_bs(c->h, n, n, l->a, n, &lwork), "getrf_bufferSize");
        DT_TRY(workspace(c, lwork, &work, err));
        for (int64_t p = 0; p < l->count; p++)
            CHECK(c->f->getrf(c->h, n, n, l->a + p * l->n * l->n * c->item, n, work, piv32 + p * n,
                              info32 + p), "getrf");
    }
    return dt_cuda_solver_pivots(piv32, l->piv, l->count * l->n, 1, c->raw, c->dev, err);
}

static dt_status run_lu_solve(run_ctx *c, int *info32, dt_error *err)
{
    const dt_linalg_loop *l = c->l;
    int n = (int)l->n, nrhs = (int)l->nrhs;
    int *piv32;
    DT_TRY(scratch(c, l->count * l->n * (int64_t)sizeof(int), (void **)&piv32, err));
    DT_TRY(dt_cuda_solver_pivots(piv32, l->piv, l->count * l->n, 0, c->raw, c->dev, err));
    if (batched(l)) {
        void **a_ptrs, **b_ptrs;
        DT_TRY(pointers(c, l->a, l->n * l->n * c->item, &a_ptrs, err));
        DT_TRY(pointers(c, l->b, l->n * l->nrhs * c->item, &b_ptrs, err));
        return dt_cuda_blas_lu_solve_batched(c->dev, c->stream, l->dtype, n, nrhs, a_ptrs, piv32,
                                             b_ptrs, (int)l->count, err);
    }
    for (int64_t p = 0; p < l->count; p++)
        CHECK(c->f->getrs(c->h, CUBLAS_OP_N, n, nrhs, l->a + p * l->n * l->n * c->item, n,
                          piv32 + p * n, l->b + p * l->n * l->nrhs * c->item, n, info32 + p),
              "getrs");
    return DT_OK;
}

static dt_status run_cholesky(run_ctx *c, int *info32, dt_error *err)
{
    const dt_linalg_loop *l = c->l;
    int n = (int)l->n, lwork = 0;
    if (batched(l)) {
        void **ptrs;
        DT_TRY(pointers(c, l->a, l->n * l->n * c->item, &ptrs, err));
        CHECK(c->f->potrf_batched(c->h, CUBLAS_FILL_MODE_LOWER, n, (void **)ptrs, n, info32,
                                  (int)l->count), "potrfBatched");
    } else {
        void *work;
        CHECK(c->f->potrf_bs(c->h, CUBLAS_FILL_MODE_LOWER, n, l->a, n, &lwork), "potrf_bufferSize");
        DT_TRY(workspace(c, lwork, &work, err));
        for (int64_t p = 0; p < l->count; p++)
            CHECK(c->f->potrf(c->h, CUBLAS_FILL_MODE_LOWER, n, l->a + p * l->n * l->n * c->item, n,
                              work, lwork, info32 + p), "potrf");
    }
    return dt_cuda_solver_zero_triangle(l->a, l->count, l->n, l->n, 1, (int)c->item, c->raw, c->dev, err);
}

static dt_status run_qr(run_ctx *c, int *info32, dt_error *err)
{
    const dt_linalg_loop *l = c->l;
    int m = (int)l->m, n = (int)l->n, k = m < n ? m : n, qcols = l->full ? m : k;
    int lw1 = 0, lw2 = 0;
    void *work, *tau;
    CHECK(c->f->geqrf_bs(c->h, m, n, l->a, m, &lw1), "geqrf_bufferSize");
    DT_TRY(scratch(c, (int64_t)k * c->item, &tau, err));
    CHECK(c->f->orgqr_bs(c->h, m, qcols, k, l->q, m, tau, &lw2), "orgqr_bufferSize");
    DT_TRY(workspace(c, lw1 > lw2 ? lw1 : lw2, &work, err));
    int lwork = lw1 > lw2 ? lw1 : lw2;
    for (int64_t p = 0; p < l->count; p++) {
        char *a = l->a + p * l->m * l->n * c->item, *q = l->q + p * l->m * qcols * c->item;
        CHECK(c->f->geqrf(c->h, m, n, a, m, tau, work, lwork, info32 + p), "geqrf");
        int64_t cols = qcols < n ? qcols : n; /* the reflectors, into q's first columns */
        DT_TRY(DT_CUDA_CALL(err, c->dev, cudaMemcpyAsync,
                            (q, a, (size_t)(cols * l->m * c->item), cudaMemcpyDeviceToDevice, c->raw)));
        CHECK(c->f->orgqr(c->h, m, qcols, k, q, m, tau, work, lwork, info32 + p), "orgqr");
    }
    return dt_cuda_solver_zero_triangle(l->a, l->count, l->m, l->n, 0, (int)c->item, c->raw, c->dev, err);
}

static dt_status run_eigh(run_ctx *c, int *info32, dt_error *err)
{
    const dt_linalg_loop *l = c->l;
    int n = (int)l->n, lwork = 0;
    cusolverEigMode_t jobz = l->vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
    void *work;
    if (batched(l)) { /* Note [Batched factorizations]: syevjBatched */
        int count = (int)l->count;
        CHECK(c->f->syevj_batched_bs(c->h, jobz, CUBLAS_FILL_MODE_LOWER, n, l->a, n, l->w, &lwork, c->syevj,
                                     count), "syevjBatched_bufferSize");
        DT_TRY(workspace(c, lwork, &work, err));
        CHECK(c->f->syevj_batched(c->h, jobz, CUBLAS_FILL_MODE_LOWER, n, l->a, n, l->w, work, lwork, info32,
                                  c->syevj, count), "syevjBatched");
        return DT_OK;
    }
    CHECK(c->f->syevd_bs(c->h, jobz, CUBLAS_FILL_MODE_LOWER, n, l->a, n, l->w, &lwork),
          "syevd_bufferSize");
    DT_TRY(workspace(c, lwork, &work, err));
    for (int64_t p = 0; p < l->count; p++)
        CHECK(c->f->syevd(c->h, jobz, CUBLAS_FILL_MODE_LOWER, n, l->a + p * l->n * l->n * c->item, n,
                          l->w + p * l->n * c->real_item, work, lwork, info32 + p), "syevd");
    return DT_OK;
}

/* Note [Batched factorizations]: gesvdjBatched, for matrices of at most
 * 32 rows and columns.  It writes all of U (m x m) and V (n x n, V and not
 * V^H): U is the loop's q when full, else its first k columns are; V^H (or
 * its first k rows) is the conjugate transpose of V (of its first k
 * columns), for the whole batch at once.  Without vectors U and V are
 * NULL (CUSOLVER_EIG_MODE_NOVECTOR does not reference them). */
static dt_status run_svd_batched(run_ctx *c, int *info32, dt_error *err)
{
    const dt_linalg_loop *l = c->l;
    const int m = (int)l->m, n = (int)l->n, count = (int)l->count;
    const int64_t k = m < n ? m : n;
    const cusolverEigMode_t jobz = l->vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
    char *u = NULL, *v = NULL;
    if (l->vectors) { /* V, and U unless it is q itself */
        int64_t elems = (int64_t)n * n + (l->full ? 0 : (int64_t)m * m);
        DT_TRY(scratch(c, l->count * elems * c->item, (void **)&v, err));
        u = l->full ? l->q : v + l->count * n * n * c->item;
    }
    int lwork = 0;
    void *work;
    CHECK(c->f->gesvdj_batched_bs(c->h, jobz, m, n, l->a, m, l->w, u, m, v, n, &lwork, c->gesvdj, count),
          "gesvdjBatched_bufferSize");
    DT_TRY(workspace(c, lwork, &work, err));
    CHECK(c->f->gesvdj_batched(c->h, jobz, m, n, l->a, m, l->w, u, m, v, n, work, lwork, info32, c->gesvdj,
                               count), "gesvdjBatched");
    if (!l->vectors)
        return DT_OK;
    if (!l->full)
        DT_TRY(dt_cuda_solver_copy_blocks(u, (int64_t)m * k, l->count, (int64_t)m * m, l->q, (int64_t)m * k,
                                          (int)c->item, c->raw, c->dev, err));
    const int64_t vr = l->full ? n : k; /* V^H's rows: V's first vr columns, conjugated and transposed */
    return dt_cuda_solver_conj_transpose(v, n, vr, l->count, (int64_t)n * n, l->vt, vr * n, l->dtype, c->raw,
                                         c->dev, err);
}

/* Note [cuSOLVER's conventions]: gesvd of a tall (m >= n) matrix; a wide
 * one through its conjugate transpose */
static dt_status run_svd(run_ctx *c, int *info32, dt_error *err)
{
    const dt_linalg_loop *l = c->l;
    if (batched(l) && l->m <= DT_SOLVER_BATCHED_N)
        return run_svd_batched(c, info32, err);
    int64_t m = l->m, n = l->n, k = m < n ? m : n;
    int wide = m < n;
    int64_t M = wide ? n : m, N = wide ? m : n; /* the tall problem */
    int64_t uc = l->full ? M : k, vr = l->full ? N : k;
    signed char job = !l->vectors ? 'N' : l->full ? 'A' : 'S';
    int lwork = 0;
    void *work, *tall = NULL, *u2 = NULL, *vt2 = NULL;
    CHECK(c->f->gesvd_bs(c->h, (int)M, (int)N, &lwork), "gesvd_bufferSize");
    DT_TRY(workspace(c, lwork, &work, err));
    void *rwork;
    DT_TRY(scratch(c, (N > 1 ? N : 2) * c->real_item, &rwork, err));
    if (wide) {
        /* tall = A^H (n x m); its U (n x uc) and V^H (vr x m) land in u2 and vt2 */
        int64_t per = M * N + (l->vectors ? M * uc + vr * N : 0);
        DT_TRY(scratch(c, per * c->item, &tall, err));
        u2 = (char *)tall + M * N * c->item;
        vt2 = (char *)u2 + M * uc * c->item;
    }
    for (int64_t p = 0; p < l->count; p++) {
        char *a = l->a + p * m * n * c->item;
        char *s = l->w + p * k * c->real_item;
        char *u = l->vectors ? l->q + p * m * (l->full ? m : k) * c->item : NULL;
        char *vt = l->vectors ? l->vt + p * (l->full ? n : k) * n * c->item : NULL;
        if (!wide) {
            CHECK(c->f->gesvd(c->h, job, job, (int)M, (int)N, a, (int)M, s, u, (int)M, vt,
                              (int)(vr > 0 ? vr : 1), work, lwork, rwork, info32 + p), "gesvd");
            continue;
        }
        DT_TRY(dt_cuda_solver_conj_transpose(a, m, n, 1, 0, tall, 0, l->dtype, c->raw, c->dev, err));
        CHECK(c->f->gesvd(c->h, job, job, (int)M, (int)N, tall, (int)M, s, u2, (int)M, vt2,
                          (int)(vr > 0 ? vr : 1), work, lwork, rwork, info32 + p), "gesvd");
        if (l->vectors) { /* U = (V'^H)^H (m x vr), V^H = U'^H (uc x n) */
            DT_TRY(dt_cuda_solver_conj_transpose(vt2, vr, N, 1, 0, u, 0, l->dtype, c->raw, c->dev, err));
            DT_TRY(dt_cuda_solver_conj_transpose(u2, M, uc, 1, 0, vt, 0, l->dtype, c->raw, c->dev, err));
        }
    }
    return DT_OK;
}

/* Note [eig through Xgeev]
 * The general eigenproblem is cusolverDnXgeev, of the 64-bit generic API
 * (CUDA 12.6 and later): its symbols are loaded apart from the rest of
 * cuSOLVER, on the first eig, so that an older cuSOLVER still serves every
 * other factorization and eig says why it cannot run
 * (DT_ERR_NOT_IMPLEMENTED).  One call per matrix, with every type that of
 * A: for float32 and float64 that is LAPACK's layout, W the real parts and
 * then the imaginary parts, VR a conjugate pair's vector as the real and
 * imaginary parts in two adjacent columns (the first with the positive
 * imaginary part); a small kernel turns both into the complex w and q
 * that backend.h's loop has.  Complex matrices write w and q directly.
 * Xgeev also takes a host workspace: it is reused for the next matrix and
 * freed only after the stream has finished the work (the documentation
 * does not say whether the library is done with it when the call
 * returns), so eig synchronises the stream after each matrix, as reading
 * its info would anyway. */
typedef struct geev_api {
    cusolverStatus_t (*create_params)(cusolverDnParams_t *);
    cusolverStatus_t (*buffer_size)(H, cusolverDnParams_t, cusolverEigMode_t, cusolverEigMode_t, int64_t,
                                    cudaDataType, const void *, int64_t, cudaDataType, const void *,
                                    cudaDataType, const void *, int64_t, cudaDataType, const void *, int64_t,
                                    cudaDataType, size_t *, size_t *);
    cusolverStatus_t (*geev)(H, cusolverDnParams_t, cusolverEigMode_t, cusolverEigMode_t, int64_t,
                             cudaDataType, void *, int64_t, cudaDataType, void *, cudaDataType, void *,
                             int64_t, cudaDataType, void *, int64_t, cudaDataType, void *, size_t, void *,
                             size_t, int *);
} geev_api;

static dt_library geev_library = DT_LIBRARY_INIT;
static geev_api geev_fns;

#ifdef DEVTENSOR_EMULATED
static int load_geev(char *error, size_t size)
{
    (void)error, (void)size;
    geev_fns.create_params = cusolverDnCreateParams;
    geev_fns.buffer_size = cusolverDnXgeev_bufferSize;
    geev_fns.geev = cusolverDnXgeev;
    return 1;
}
#else
static int load_geev(char *error, size_t size)
{
    static const char *const paths[] = {
        DT_CUSOLVER_SONAME,
#ifdef DT_CUDA_LIB_DIR
        DT_CUDA_LIB_DIR "/" DT_CUSOLVER_SONAME,
#endif
    };
    static const char *const names[] = {"cusolverDnCreateParams", "cusolverDnXgeev_bufferSize",
                                        "cusolverDnXgeev"};
    void *slot[3];
    if (!dt_library_load("cuSOLVER", paths, sizeof paths / sizeof *paths,
                         "eig and eigvals on CUDA devices (cuSOLVER's Xgeev, CUDA 12.6 and later)", names,
                         slot, 3, error, size))
        return 0;
    geev_fns.create_params = (__typeof__(geev_fns.create_params))slot[0];
    geev_fns.buffer_size = (__typeof__(geev_fns.buffer_size))slot[1];
    geev_fns.geev = (__typeof__(geev_fns.geev))slot[2];
    return 1;
}
#endif

static dt_status run_eig(run_ctx *c, cusolverDnParams_t params, int *info32, dt_error *err)
{
    const dt_linalg_loop *l = c->l;
    const geev_api *g = &geev_fns;
    const int real = l->dtype == DT_FLOAT32 || l->dtype == DT_FLOAT64;
    const cudaDataType type = l->dtype == DT_FLOAT32 ? CUDA_R_32F : l->dtype == DT_FLOAT64 ? CUDA_R_64F
                            : l->dtype == DT_COMPLEX64 ? CUDA_C_32F : CUDA_C_64F;
    const int64_t n = l->n, citem = real ? 2 * c->item : c->item; /* w's and q's items are complex */
    const cusolverEigMode_t jobvr = l->vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
    void *wr = NULL, *vr = NULL, *work;
    if (real) {
        DT_TRY(scratch(c, 2 * n * c->item, &wr, err));
        if (l->vectors)
            DT_TRY(scratch(c, n * n * c->item, &vr, err));
    }
    size_t dev_bytes = 0, host_bytes = 0;
    CHECK(g->buffer_size(c->h, params, CUSOLVER_EIG_MODE_NOVECTOR, jobvr, n, type, l->a, n, type,
                         real ? wr : l->w, type, NULL, 1, type, real ? vr : l->q, l->vectors ? n : 1, type,
                         &dev_bytes, &host_bytes), "Xgeev_bufferSize");
    if (dev_bytes > (size_t)INT64_MAX / 2)
        return dt_error_set(err, DT_ERR_DEVICE_OOM, "eig: cuSOLVER asks for %zu bytes of workspace",
                            dev_bytes);
    DT_TRY(scratch(c, (int64_t)dev_bytes, &work, err));
    void *host = malloc(host_bytes > 0 ? host_bytes : 1);
    if (host == NULL)
        return dt_error_set(err, DT_ERR_NOMEM, "eig: out of host memory (%zu bytes for cuSOLVER)",
                            host_bytes);
    dt_status st = DT_OK;
    for (int64_t p = 0; p < l->count && st == DT_OK; p++) {
        char *a = l->a + p * n * n * c->item, *w = l->w + p * n * citem;
        char *q = l->vectors ? l->q + p * n * n * citem : NULL;
        st = solver_check(g->geev(c->h, params, CUSOLVER_EIG_MODE_NOVECTOR, jobvr, n, type, a, n, type,
                                  real ? wr : w, type, NULL, 1, type, real ? vr : q, l->vectors ? n : 1,
                                  type, work, dev_bytes, host, host_bytes, info32 + p),
                          "Xgeev", c->dev, err);
        if (st == DT_OK && real)
            st = dt_cuda_solver_eig_unpack(wr, vr, w, q, n, l->dtype, c->raw, c->dev, err);
        if (st == DT_OK && p + 1 < l->count) /* the host workspace is the next matrix's too */
            st = DT_CUDA_CALL(err, c->dev, cudaStreamSynchronize, (c->raw));
    }
    /* Note [eig through Xgeev]: the host workspace outlives the work */
    dt_status synced = DT_CUDA_CALL(err, c->dev, cudaStreamSynchronize, (c->raw));
    free(host);
    return st != DT_OK ? st : synced;
}

dt_status dt_cuda_solver_load(int geev, dt_error *err)
{
    if (geev)
        return dt_library_ensure(&geev_library, load_geev, err);
    return get_api(err) != NULL ? DT_OK : err->status;
}

/* LU_DET: our kernel alone, no cuSOLVER */
static dt_status lu_det(const dt_linalg_loop *l, dt_error *err)
{
    dt_cuda_stream *stream;
    cudaStream_t raw;
    DT_TRY(dt_cuda_stream_resolve(l->device_index, l->stream, &stream, &raw, err));
    dt_cuda_guard g;
    DT_TRY(dt_cuda_guard_enter(&g, l->device_index, err));
    dt_status st = dt_cuda_solver_lu_det(l, raw, l->device_index, err);
    dt_cuda_guard_exit(&g);
    return st;
}

static int fits_int(int64_t v) { return v >= 0 && v <= INT_MAX; }

dt_status dt_cuda_linalg_run(const dt_linalg_loop *l, dt_error *err)
{
    if (l == NULL || (unsigned)l->kind > DT_LINALG_LU_DET || l->count < 1 || l->m < 1 || l->n < 1 ||
        l->a == NULL || (l->kind != DT_LINALG_LU_SOLVE && l->info == NULL) ||
        (l->kind == DT_LINALG_LU_DET && (l->piv == NULL || l->q == NULL || (!l->full && l->w == NULL))))
        return dt_error_set(err, DT_ERR_VALUE, "run_linalg: a bad loop");
    int t = l->dtype == DT_FLOAT32 ? 0 : l->dtype == DT_FLOAT64 ? 1 : l->dtype == DT_COMPLEX64 ? 2
          : l->dtype == DT_COMPLEX128 ? 3 : -1;
    if (t < 0)
        return dt_error_set(err, DT_ERR_TYPE, "run_linalg: no cuSOLVER routine for %s",
                            dt_dtype_get_info(l->dtype)->name);
    DT_TRY(dt_cuda_index_check(l->device_index, err));
    if (!fits_int(l->m) || !fits_int(l->n) || !fits_int(l->nrhs) || !fits_int(l->m * l->n))
        return dt_error_set(err, DT_ERR_NOT_IMPLEMENTED, "run_linalg: matrices above 2**31 - 1 "
                            "elements are not supported on CUDA devices yet");
    if (l->kind == DT_LINALG_LU_DET)
        return lu_det(l, err);
    const solver_api *a = get_api(err);
    if (a == NULL)
        return err->status;
    if (l->kind == DT_LINALG_EIG && dt_library_ensure(&geev_library, load_geev, err) != DT_OK)
        return err->status = DT_ERR_NOT_IMPLEMENTED; /* Note [eig through Xgeev] */
    run_ctx c;
    memset(&c, 0, sizeof c);
    c.l = l;
    c.f = &a->t[t];
    c.dev = l->device_index;
    c.item = dt_dtype_get_info(l->dtype)->itemsize;
    c.real_item = t == 0 || t == 2 ? 4 : 8;
    DT_TRY(dt_cuda_stream_resolve(c.dev, l->stream, &c.stream, &c.raw, err));
    dt_cuda_guard g;
    DT_TRY(dt_cuda_guard_enter(&g, c.dev, err));
    pthread_once(&devices_once, init_devices);
    device_solver *d = &devices[c.dev];
    pthread_mutex_lock(&d->lock);
    dt_status st = DT_OK;
    if (d->handle == NULL) {
        cusolverDnHandle_t h = NULL;
        st = solver_check(a->create(&h), "cusolverDnCreate", c.dev, err);
        if (st == DT_OK)
            d->handle = h;
    }
    int *info32 = NULL;
    if (st == DT_OK && l->kind == DT_LINALG_EIG && d->params == NULL) {
        cusolverDnParams_t params = NULL;
        st = solver_check(geev_fns.create_params(&params), "cusolverDnCreateParams", c.dev, err);
        if (st == DT_OK)
            d->params = params;
    }
    if (st == DT_OK && l->kind == DT_LINALG_EIGH && batched(l) && d->syevj == NULL) {
        syevjInfo_t info = NULL;
        st = solver_check(a->create_syevj_info(&info), "cusolverDnCreateSyevjInfo", c.dev, err);
        if (st == DT_OK)
            d->syevj = info;
    }
    if (st == DT_OK && l->kind == DT_LINALG_SVD && batched(l) && d->gesvdj == NULL) {
        gesvdjInfo_t info = NULL;
        st = solver_check(a->create_gesvdj_info(&info), "cusolverDnCreateGesvdjInfo", c.dev, err);
        if (st == DT_OK)
            d->gesvdj = info;
    }
    c.syevj = d->syevj;
    c.gesvdj = d->gesvdj;
    if (st == DT_OK)
        st = solver_check(a->set_stream(d->handle, c.raw), "cusolverDnSetStream", c.dev, err);
    c.h = d->handle;
    if (st == DT_OK)
        st = scratch(&c, l->count * (int64_t)sizeof(int), (void **)&info32, err);
    if (st == DT_OK) {
        switch (l->kind) {
        case DT_LINALG_LU: st = run_lu(&c, info32, err); break;
        case DT_LINALG_LU_SOLVE: st = run_lu_solve(&c, info32, err); break;
        case DT_LINALG_CHOLESKY: st = run_cholesky(&c, info32, err); break;
        case DT_LINALG_QR: st = run_qr(&c, info32, err); break;
        case DT_LINALG_EIGH: st = run_eigh(&c, info32, err); break;
        case DT_LINALG_EIG: st = run_eig(&c, d->params, info32, err); break;
        default: st = run_svd(&c, info32, err); break;
        }
    }
    if (st == DT_OK && l->kind != DT_LINALG_LU_SOLVE)
        st = dt_cuda_solver_info(info32, l->info, l->count, c.raw, c.dev, err);
    scratch_free(&c);
    pthread_mutex_unlock(&d->lock);
    dt_cuda_guard_exit(&g);
    return st;
}
