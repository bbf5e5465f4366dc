/* cuda_blas.c - the CUDA backend's matrix products (backend.h's
 * dt_matmul_loop): cuBLAS for floating and complex dtypes, our kernel
 * (cuda_matmul.cu) for integers and bool.
 *
 * Note [Loading cuBLAS]
 * libcublas is about 100 MB, and a machine may have a driver without it:
 * it is opened with dlopen on the first product on a CUDA device, never at
 * import (Note [Libraries opened on first use] in library.h), by its soname (LD_LIBRARY_PATH, the system's paths) and then
 * from the toolkit devtensor was built with (DT_CUDA_LIB_DIR).  Without it
 * a product raises a RuntimeError saying so; everything else keeps
 * working.  The emulated build (DEVTENSOR_EMULATED) links the reference
 * implementation in csrc/emu/emu_blas.cpp instead, so this calling code
 * runs in CI unchanged.
 *
 * Note [cuBLAS handles and workspaces]
 * One handle per device, made on first use with that device current and
 * kept for the process (destroying handles at exit races the driver's own
 * teardown).  A handle is not safe for two host threads at once: each call
 * holds the device's lock while it sets the stream and queues the product.
 * cuBLAS's workspace comes from our caching allocator, one per (device,
 * stream) as cuBLAS asks (a workspace must not serve two streams at
 * once): 32 MiB on Hopper and later, 4 MiB before (the sizes the cuBLAS
 * documentation recommends), freed when its stream is destroyed.
 *
 * Note [Row-major products on a column-major library]
 * cuBLAS reads matrices column by column.  Our out is row-major m x n,
 * which is the column-major n x m matrix out^T = b^T a^T: so cuBLAS is
 * asked for b^T a^T with b as its first operand.  A row-major operand
 * (unit column stride) is, read column-major, its own transpose: op N
 * with its row stride as leading dimension; a column-major one (unit row
 * stride) is op T with its column stride.  Broadcast batch axes are
 * strides of 0, which strided-batched GEMM takes.
 */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <cublas_v2.h>

#include "cuda_internal.h"
#include "library.h"
#include "loop_check.h"

/* ---- the library ---- */

#define DT_CUBLAS_FUNCTIONS(X)                                                      \
    X(create, cublasCreate_v2) X(set_stream, cublasSetStream_v2)                    \
    X(set_workspace, cublasSetWorkspace_v2) X(set_math_mode, cublasSetMathMode)     \
    X(gemm_strided_batched_ex, cublasGemmStridedBatchedEx)                          \
    X(status_string, cublasGetStatusString)                                         \
    X(sgetrf_batched, cublasSgetrfBatched) X(dgetrf_batched, cublasDgetrfBatched)   \
    X(cgetrf_batched, cublasCgetrfBatched) X(zgetrf_batched, cublasZgetrfBatched)   \
    X(sgetrs_batched, cublasSgetrsBatched) X(dgetrs_batched, cublasDgetrsBatched)   \
    X(cgetrs_batched, cublasCgetrsBatched) X(zgetrs_batched, cublasZgetrsBatched)

typedef struct cublas_api {
#define DT_CUBLAS_FIELD_(FIELD, SYMBOL) __typeof__(&SYMBOL) FIELD;
    DT_CUBLAS_FUNCTIONS(DT_CUBLAS_FIELD_)
#undef DT_CUBLAS_FIELD_
} cublas_api;

static dt_library library = DT_LIBRARY_INIT;

#ifdef DEVTENSOR_EMULATED
static cublas_api api;

static int load(char *error, size_t size)
{
    (void)error, (void)size;
#define DT_CUBLAS_LINK_(FIELD, SYMBOL) api.FIELD = SYMBOL;
    DT_CUBLAS_FUNCTIONS(DT_CUBLAS_LINK_)
#undef DT_CUBLAS_LINK_
    return 1;
}
#define API (&api)
#else
#define DT_STR2_(x) #x
#define DT_STR_(x) DT_STR2_(x)
#define DT_CUBLAS_SONAME "libcublas.so." DT_STR_(CUBLAS_VER_MAJOR)

static const char *const symbols[] = {
#define DT_CUBLAS_NAME_(FIELD, SYMBOL) #SYMBOL,
    DT_CUBLAS_FUNCTIONS(DT_CUBLAS_NAME_)
#undef DT_CUBLAS_NAME_
};
#define N_SYMBOLS (sizeof symbols / sizeof *symbols)

static union {
    cublas_api functions;
    void *slots[N_SYMBOLS];
} table;
_Static_assert(sizeof(cublas_api) == sizeof(void *[N_SYMBOLS]), "one pointer per function");

static int load(char *error, size_t size)
{
    static const char *const paths[] = {
        DT_CUBLAS_SONAME,
#ifdef DT_CUDA_LIB_DIR
        DT_CUDA_LIB_DIR "/" DT_CUBLAS_SONAME,
#endif
    };
    return dt_library_load("cuBLAS", paths, sizeof paths / sizeof *paths,
                           "matrix products on CUDA devices", symbols, table.slots, N_SYMBOLS,
                           error, size);
}
#define API (&table.functions)
#endif

static const cublas_api *get_api(dt_error *err)
{
    return dt_library_ensure(&library, load, err) == DT_OK ? API : NULL;
}

dt_status dt_cuda_blas_load(dt_error *err)
{
    return get_api(err) != NULL ? DT_OK : err->status;
}

static dt_status cublas_check(const cublas_api *a, cublasStatus_t s, const char *call, int device,
                              dt_error *err)
{
    if (s == CUBLAS_STATUS_SUCCESS)
        return DT_OK;
    const char *text = a->status_string ? a->status_string(s) : NULL;
    return dt_error_set(err, s == CUBLAS_STATUS_ALLOC_FAILED ? DT_ERR_DEVICE_OOM : DT_ERR_RUNTIME,
                        "cuBLAS error in %s on cuda:%d: %s (status %d)", call, device,
                        text ? text : "unknown", (int)s);
}

/* ---- handles and workspaces (Note [cuBLAS handles and workspaces]) ---- */

#define DT_CUBLAS_WORKSPACES 16

typedef struct workspace {
    dt_cuda_stream *stream;    /* NULL: the legacy default stream */
    void *ptr, *ctx;
    size_t bytes;
} workspace;

typedef struct device_blas {
    pthread_mutex_t lock;
    cublasHandle_t handle;
    int nworkspaces;
    workspace ws[DT_CUBLAS_WORKSPACES];
} device_blas;

static device_blas devices[DT_CUDA_MAX_DEVICES];
static pthread_once_t devices_once = PTHREAD_ONCE_INIT;

static void init_devices(void)
{
    for (int i = 0; i < DT_CUDA_MAX_DEVICES; i++)
        pthread_mutex_init(&devices[i].lock, NULL);
}

static size_t workspace_bytes(int index)
{
    dt_device_props p;
    dt_error ignored;
    if (dt_cuda_device_props(index, &p, &ignored) == DT_OK && p.major >= 9)
        return (size_t)32 << 20;
    return (size_t)4 << 20;
}

/* With d->lock held and the device current: the handle, bound to stream s
 * and to s's workspace (made on first use). */
static dt_status bind_locked(const cublas_api *a, device_blas *d, int index, dt_cuda_stream *s,
                             dt_error *err)
{
    if (d->handle == NULL) {
        cublasHandle_t h = NULL;
        DT_TRY(cublas_check(a, a->create(&h), "cublasCreate", index, err));
        d->handle = h;
    }
    DT_TRY(cublas_check(a, a->set_stream(d->handle, dt_cuda_stream_raw(s)), "cublasSetStream",
                        index, err));
    workspace *w = NULL;
    for (int i = 0; i < d->nworkspaces; i++)
        if (d->ws[i].stream == s)
            w = &d->ws[i];
    if (w == NULL && d->nworkspaces < DT_CUBLAS_WORKSPACES) {
        workspace fresh = {s, NULL, NULL, workspace_bytes(index)};
        DT_TRY(dt_cuda_alloc(index, fresh.bytes, s, &fresh.ptr, &fresh.ctx, err));
        d->ws[d->nworkspaces] = fresh;
        w = &d->ws[d->nworkspaces++];
    }
    /* past DT_CUBLAS_WORKSPACES streams, cuBLAS's own workspace serves */
    return cublas_check(a, a->set_workspace(d->handle, w ? w->ptr : NULL, w ? w->bytes : 0),
                        "cublasSetWorkspace", index, err);
}

void dt_cuda_blas_stream_retire(int index, dt_cuda_stream *s)
{
    if (index < 0 || index >= DT_CUDA_MAX_DEVICES)
        return;
    pthread_once(&devices_once, init_devices);
    device_blas *d = &devices[index];
    pthread_mutex_lock(&d->lock);
    for (int i = 0; i < d->nworkspaces; i++) {
        if (d->ws[i].stream != s)
            continue;
        dt_cuda_free(index, d->ws[i].ptr, d->ws[i].ctx);
        d->ws[i] = d->ws[--d->nworkspaces];
        break;
    }
    pthread_mutex_unlock(&d->lock);
}

/* ---- the products ---- */

typedef struct gemm_types {
    cudaDataType_t data;
    cublasComputeType_t compute;
    int wide_scalars;          /* alpha and beta are double (else float) */
} gemm_types;

static int types_of(dt_dtype d, int allow_tf32, gemm_types *t)
{
    switch (d) {
    case DT_FLOAT16: *t = (gemm_types){CUDA_R_16F, CUBLAS_COMPUTE_32F, 0}; return 1;
    case DT_BFLOAT16: *t = (gemm_types){CUDA_R_16BF, CUBLAS_COMPUTE_32F, 0}; return 1;
    case DT_FLOAT32:
        *t = (gemm_types){CUDA_R_32F, allow_tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F, 0};
        return 1;
    case DT_FLOAT64: *t = (gemm_types){CUDA_R_64F, CUBLAS_COMPUTE_64F, 1}; return 1;
    case DT_COMPLEX64:
        *t = (gemm_types){CUDA_C_32F, allow_tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F, 0};
        return 1;
    case DT_COMPLEX128: *t = (gemm_types){CUDA_C_64F, CUBLAS_COMPUTE_64F, 1}; return 1;
    default: return 0;
    }
}

static int fits_int(int64_t v) { return v >= 0 && v <= INT_MAX; }

/* The batch minus its last axis, walked by cublasGemmStridedBatchedEx
 * once per position of the outer axes (Note [Row-major products on a
 * column-major library]). */
static dt_status blas_products(const cublas_api *a, cublasHandle_t h, const dt_matmul_loop *l,
                               dt_error *err)
{
    int64_t s = dt_dtype_get_info(l->dtype)->itemsize;
    gemm_types t;
    types_of(l->dtype, l->allow_tf32, &t);
    int b_rowmajor = l->b_cs == s, a_rowmajor = l->a_cs == s;
    cublasOperation_t op1 = b_rowmajor ? CUBLAS_OP_N : CUBLAS_OP_T;
    cublasOperation_t op2 = a_rowmajor ? CUBLAS_OP_N : CUBLAS_OP_T;
    int64_t ld1 = (b_rowmajor ? l->b_rs : l->b_cs) / s, ld2 = (a_rowmajor ? l->a_rs : l->a_cs) / s;
    int nb = l->batch_ndim;
    int64_t inner = nb > 0 ? l->batch_shape[nb - 1] : 1, outer = 1;
    for (int d = 0; d + 1 < nb; d++)
        outer *= l->batch_shape[d];
    if (!fits_int(l->m) || !fits_int(l->n) || !fits_int(l->k) || !fits_int(ld1) || !fits_int(ld2) ||
        !fits_int(inner))
        return dt_error_set(err, DT_ERR_NOT_IMPLEMENTED, "matmul on CUDA: a size or leading "
                            "dimension above 2**31 - 1 is not supported yet");
    int64_t st_a = nb > 0 ? l->batch_strides[0][nb - 1] / s : 0;
    int64_t st_b = nb > 0 ? l->batch_strides[1][nb - 1] / s : 0;
    int64_t st_o = l->m * l->n;
    float f_one[2] = {1.0f, 0.0f}, f_zero[2] = {0.0f, 0.0f};
    double d_one[2] = {1.0, 0.0}, d_zero[2] = {0.0, 0.0};
    const void *one = t.wide_scalars ? (const void *)d_one : (const void *)f_one;
    const void *zero = t.wide_scalars ? (const void *)d_zero : (const void *)f_zero;
    for (int64_t p = 0; p < outer; p++) {
        int64_t off[3] = {0, 0, 0}, rest = p;
        for (int d = nb - 2; d >= 0; d--) {
            int64_t i = rest % l->batch_shape[d];
            rest /= l->batch_shape[d];
            for (int k = 0; k < 3; k++)
                off[k] += i * l->batch_strides[k][d];
        }
        cublasStatus_t r = a->gemm_strided_batched_ex(
            h, op1, op2, (int)l->n, (int)l->m, (int)l->k, one,
            l->b + off[1], t.data, (int)ld1, (long long)st_b,
            l->a + off[0], t.data, (int)ld2, (long long)st_a, zero,
            l->out + off[2], t.data, (int)l->n, (long long)st_o, (int)inner, t.compute,
            CUBLAS_GEMM_DEFAULT);
        DT_TRY(cublas_check(a, r, "cublasGemmStridedBatchedEx", l->device_index, err));
    }
    return DT_OK;
}

dt_status dt_cuda_matmul_run(const dt_matmul_loop *l, dt_error *err)
{
    DT_TRY(dt_matmul_loop_check(l, err));
    gemm_types t;
    if (!types_of(l->dtype, l->allow_tf32, &t))
        return dt_cuda_matmul_int_run(l, err);
    /* no device (or no driver) is said before cuBLAS is looked for */
    DT_TRY(dt_cuda_index_check(l->device_index, err));
    if (l->device_index >= DT_CUDA_MAX_DEVICES)
        return dt_error_set(err, DT_ERR_RUNTIME, "cuda:%d is beyond the devices served", l->device_index);
    const cublas_api *a = get_api(err);
    if (a == NULL)
        return err->status;
    dt_cuda_stream *s;
    cudaStream_t raw;
    DT_TRY(dt_cuda_stream_resolve(l->device_index, l->stream, &s, &raw, err));
    dt_cuda_guard g;
    DT_TRY(dt_cuda_guard_enter(&g, l->device_index, err));
    pthread_once(&devices_once, init_devices);
    device_blas *d = &devices[l->device_index];
    pthread_mutex_lock(&d->lock);
    dt_status st = bind_locked(a, d, l->device_index, s, err);
    if (st == DT_OK)
        st = blas_products(a, d->handle, l, err);
    pthread_mutex_unlock(&d->lock);
    dt_cuda_guard_exit(&g);
    return st;
}

/* ---- batched LU (Note [Batched factorizations] in cuda_solver.c) ---- */

/* With the device current (the caller's guard): d's handle bound to s,
 * d->lock held on DT_OK. */
static dt_status lock_bound(int index, dt_cuda_stream *s, const cublas_api **a, device_blas **d,
                            dt_error *err)
{
    if (index < 0 || index >= DT_CUDA_MAX_DEVICES)
        return dt_error_set(err, DT_ERR_RUNTIME, "cuda:%d is beyond the devices served", index);
    if ((*a = get_api(err)) == NULL)
        return err->status;
    pthread_once(&devices_once, init_devices);
    *d = &devices[index];
    pthread_mutex_lock(&(*d)->lock);
    dt_status st = bind_locked(*a, *d, index, s, err);
    if (st != DT_OK)
        pthread_mutex_unlock(&(*d)->lock);
    return st;
}

dt_status dt_cuda_blas_lu_batched(int index, dt_cuda_stream *s, dt_dtype dtype, int n, void **a,
                                  int *piv, int *info, int count, dt_error *err)
{
    const cublas_api *api;
    device_blas *d;
    DT_TRY(lock_bound(index, s, &api, &d, err));
    cublasHandle_t h = d->handle;
    cublasStatus_t r = CUBLAS_STATUS_NOT_SUPPORTED;
    switch (dtype) {
    case DT_FLOAT32: r = api->sgetrf_batched(h, n, (float *const *)a, n, piv, info, count); break;
    case DT_FLOAT64: r = api->dgetrf_batched(h, n, (double *const *)a, n, piv, info, count); break;
    case DT_COMPLEX64: r = api->cgetrf_batched(h, n, (cuComplex *const *)a, n, piv, info, count); break;
    case DT_COMPLEX128:
        r = api->zgetrf_batched(h, n, (cuDoubleComplex *const *)a, n, piv, info, count);
        break;
    default: break;
    }
    pthread_mutex_unlock(&d->lock);
    return cublas_check(api, r, "cublas<t>getrfBatched", index, err);
}

dt_status dt_cuda_blas_lu_solve_batched(int index, dt_cuda_stream *s, dt_dtype dtype, int n, int nrhs,
                                        void **a, const int *piv, void **b, int count, dt_error *err)
{
    const cublas_api *api;
    device_blas *d;
    DT_TRY(lock_bound(index, s, &api, &d, err));
    cublasHandle_t h = d->handle;
    cublasOperation_t N = CUBLAS_OP_N;
    int info = 0;
    cublasStatus_t r = CUBLAS_STATUS_NOT_SUPPORTED;
    switch (dtype) {
    case DT_FLOAT32:
        r = api->sgetrs_batched(h, N, n, nrhs, (const float *const *)a, n, piv, (float *const *)b, n,
                                &info, count);
        break;
    case DT_FLOAT64:
        r = api->dgetrs_batched(h, N, n, nrhs, (const double *const *)a, n, piv, (double *const *)b, n,
                                &info, count);
        break;
    case DT_COMPLEX64:
        r = api->cgetrs_batched(h, N, n, nrhs, (const cuComplex *const *)a, n, piv,
                                (cuComplex *const *)b, n, &info, count);
        break;
    case DT_COMPLEX128:
        r = api->zgetrs_batched(h, N, n, nrhs, (const cuDoubleComplex *const *)a, n, piv,
                                (cuDoubleComplex *const *)b, n, &info, count);
        break;
    default: break;
    }
    pthread_mutex_unlock(&d->lock);
    DT_TRY(cublas_check(api, r, "cublas<t>getrsBatched", index, err));
    if (info != 0) /* argument -info refused: our call is wrong */
        return dt_error_set(err, DT_ERR_RUNTIME, "cublas<t>getrsBatched on cuda:%d refused argument %d",
                            index, -info);
    return DT_OK;
}
