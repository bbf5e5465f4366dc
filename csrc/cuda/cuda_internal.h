/* cuda_internal.h - what the files of the CUDA backend share.
 *
 * Nothing here crosses the backend ABI (backend.h is the only contract with
 * the core).  The files of csrc/cuda each own one concern:
 *   cuda_device.c   the once-only probe, device indices, properties, peers,
 *                   the device guard and the CUDA -> dt_error mapping
 *   cuda_stream.c   streams, events, the per-thread current stream
 *   cuda_alloc.c    the caching allocator
 *   cuda_copy.c     transfers, the pinned staging ring, pinned host memory
 *   cuda_loops.cu   the elementwise launcher and kernel registry, and the
 *                   generator kernels; the elementwise kernels themselves
 *                   are in cuda_loops_{cast,arith,math,complex,compare}.cu
 *                   (C++ templates shared through cuda_loops.cuh)
 *   cuda_blas.c     matrix products: cuBLAS (opened on first use), handles,
 *                   workspaces; cuda_matmul.cu the integer and bool kernel
 *   cuda_solver.c   factorizations: cuSOLVER (opened on first use); its
 *                   kernels in cuda_solver_kernels.cu
 *   cuda_backend.c  the dt_backend_iface table
 *   cuda_module.c   the Python module that exports the table in a capsule
 * C11 files include this header; so do the .cu files (as C++).
 */
#ifndef DT_CUDA_INTERNAL_H
#define DT_CUDA_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#include "backend.h"

DT_EXTERN_C_BEGIN

/* Device indices above this are not served (the per-thread current-stream
 * table is a fixed array); the probe clamps the device count to it. */
#define DT_CUDA_MAX_DEVICES 64

/* ---- errors (cuda_device.c) ---- */

/* Fill err with "CUDA error in <call> on cuda:<device>: <CUDA's string>"
 * (device < 0: "on the host") and return DT_ERR_DEVICE_OOM for
 * cudaErrorMemoryAllocation, DT_ERR_RUNTIME otherwise.  Clears CUDA's
 * last-error slot so a later launch check does not see a stale error. */
dt_status dt_cuda_error_set(dt_error *err, cudaError_t e, const char *call, int device);

static inline dt_status dt_cuda_check(cudaError_t e, const char *call, int device, dt_error *err)
{
    return e == cudaSuccess ? DT_OK : dt_cuda_error_set(err, e, call, device);
}

/* Run a CUDA call and turn a failure into a dt_status naming the call:
 *     st = DT_CUDA_CALL(err, dev, cudaMemcpyAsync, (dst, src, n, kind, s));  */
#define DT_CUDA_CALL(err, dev, fn, args) dt_cuda_check(fn args, #fn, (dev), (err))

/* ---- devices (cuda_device.c) ---- */

int dt_cuda_device_count(void);                 /* probes once; 0 when unavailable */
const char *dt_cuda_unavailable_reason(void);   /* NULL when devices exist */
/* DT_OK if `index` names a device; otherwise a RuntimeError saying why. */
dt_status dt_cuda_index_check(int index, dt_error *err);
/* Multiprocessor count of a valid device (cached; 1 if it cannot be read). */
int dt_cuda_device_sm_count(int index);

/* Make `index` the calling thread's current device for a while (validates
 * the index); exit restores the previous one. */
typedef struct dt_cuda_guard {
    int prev;
    int changed;
} dt_cuda_guard;
dt_status dt_cuda_guard_enter(dt_cuda_guard *g, int index, dt_error *err);
void dt_cuda_guard_exit(dt_cuda_guard *g);

dt_status dt_cuda_device_get(int *index, dt_error *err);
dt_status dt_cuda_device_set(int index, dt_error *err);
dt_status dt_cuda_device_props(int index, dt_device_props *out, dt_error *err);
dt_status dt_cuda_peer_can_access(int index, int peer, int *out, dt_error *err);
/* Enable index -> peer access once (idempotent, thread-safe); *ok = 0 when
 * the pair cannot access each other. */
dt_status dt_cuda_peer_enable(int index, int peer, int *ok, dt_error *err);
dt_status dt_cuda_device_synchronize(int index, dt_error *err);

/* ---- streams and events (cuda_stream.c) ---- */

/* The opaque stream handle handed to the core.  NULL is the legacy default
 * stream.  See Note [Stream handles] in cuda_stream.c. */
typedef struct dt_cuda_stream {
    cudaStream_t handle;
    int device;
    int priority;
    volatile int destroyed;
} dt_cuda_stream;

typedef struct dt_cuda_event {
    cudaEvent_t handle;
    int device;
    int timing;
} dt_cuda_event;

/* The stream to use on device `index` for a request that named `stream`
 * (NULL: the thread's current stream of that device).  Fails if the
 * stream belongs to another device or was destroyed.  *raw is its CUDA
 * handle (0 for the legacy default stream). */
dt_status dt_cuda_stream_resolve(int index, void *stream, dt_cuda_stream **out, cudaStream_t *raw,
                                 dt_error *err);
static inline cudaStream_t dt_cuda_stream_raw(const dt_cuda_stream *s)
{
    return s != NULL ? s->handle : (cudaStream_t)0;
}

dt_status dt_cuda_stream_create(int index, int priority, void **stream, dt_error *err);
void dt_cuda_stream_destroy(int index, void *stream);
dt_status dt_cuda_stream_synchronize(int index, void *stream, dt_error *err);
dt_status dt_cuda_stream_query(int index, void *stream, int *done, dt_error *err);
dt_status dt_cuda_stream_wait_event(int index, void *stream, void *event, dt_error *err);
void *dt_cuda_stream_get(int index);
dt_status dt_cuda_stream_native(int index, void *stream, uintptr_t *native, dt_error *err);
dt_status dt_cuda_stream_wait_native(int index, void *stream, uintptr_t native, dt_error *err);
dt_status dt_cuda_stream_set(int index, void *stream, dt_error *err);
dt_status dt_cuda_event_create(int index, int enable_timing, void **event, dt_error *err);
void dt_cuda_event_destroy(int index, void *event);
dt_status dt_cuda_event_record(int index, void *event, void *stream, dt_error *err);
dt_status dt_cuda_event_synchronize(void *event, dt_error *err);
dt_status dt_cuda_event_query(void *event, int *done, dt_error *err);
dt_status dt_cuda_event_elapsed_ms(void *start, void *end, float *ms, dt_error *err);

/* ---- the caching allocator (cuda_alloc.c) ---- */

dt_status dt_cuda_alloc(int index, size_t nbytes, void *stream, void **ptr, void **ctx, dt_error *err);
void dt_cuda_free(int index, void *ptr, void *ctx);
dt_status dt_cuda_alloc_record_stream(int index, void *ptr, void *ctx, void *stream, dt_error *err);
dt_status dt_cuda_alloc_stats(int index, dt_memory_stats *out, dt_error *err);
dt_status dt_cuda_alloc_reset_peak(int index, dt_error *err);
dt_status dt_cuda_alloc_empty_cache(int index, dt_error *err);
dt_status dt_cuda_mem_get_info(int index, size_t *free_bytes, size_t *total_bytes, dt_error *err);
/* Called by stream_destroy after the stream was synchronized: its cached
 * blocks become blocks of the legacy default stream. */
void dt_cuda_alloc_stream_retire(int index, dt_cuda_stream *stream);

/* ---- transfers and pinned memory (cuda_copy.c) ---- */

dt_status dt_cuda_copy(dt_copy_kind kind, void *dst, int dst_index, const void *src, int src_index,
                       size_t nbytes, void *stream, int non_blocking, dt_error *err);
dt_status dt_cuda_host_alloc_pinned(size_t nbytes, void **ptr, dt_error *err);
void dt_cuda_host_free_pinned(void *ptr);
int dt_cuda_host_is_pinned(const void *ptr);
dt_status dt_cuda_pointer_device(const void *first, const void *last, int *index, dt_error *err);

/* ---- kernels (cuda_loops.cu) ---- */

dt_status dt_cuda_loop_run(const dt_loop *loop, dt_error *err);
dt_status dt_cuda_gen_run(const dt_gen *gen, dt_error *err);

/* ---- index kernels (cuda_index.cu) ---- */

dt_status dt_cuda_index_run(const dt_index_loop *loop, dt_error *err);
/* The reductions (cuda_reduce.cu). */
dt_status dt_cuda_reduce_run(const dt_reduce_loop *loop, dt_error *err);
dt_status dt_cuda_scan_run(const dt_scan_loop *loop, dt_error *err);
/* Binary search (cuda_search.cu). */
dt_status dt_cuda_search_run(const dt_search_loop *loop, dt_error *err);
dt_status dt_cuda_sort_run(const dt_sort_loop *loop, dt_error *err);

/* ---- matrix products ---- */

/* cuBLAS for floating and complex dtypes (cuda_blas.c), the rest by
 * dt_cuda_matmul_int_run (cuda_matmul.cu) */
dt_status dt_cuda_matmul_run(const dt_matmul_loop *loop, dt_error *err);
dt_status dt_cuda_matmul_int_run(const dt_matmul_loop *loop, dt_error *err);
/* Called by stream_destroy after the stream was synchronized: its cuBLAS
 * workspace is freed (Note [cuBLAS handles and workspaces]). */
void dt_cuda_blas_stream_retire(int index, dt_cuda_stream *stream);
/* cuBLAS's batched LU of count n x n column-major matrices (lda n) at the
 * device pointers a[] (in device memory), float32, float64, complex64 or
 * complex128, queued on s with the device current: getrfBatched (piv: n
 * 1-based pivots per matrix, info one per matrix, both device memory) and
 * getrsBatched (b[]: n x nrhs right-hand sides, overwritten).  Note
 * [Batched factorizations] in cuda_solver.c. */
dt_status dt_cuda_blas_lu_batched(int index, dt_cuda_stream *s, dt_dtype dtype, int n, void **a,
                                  int *piv, int *info, int count, dt_error *err);
dt_status dt_cuda_blas_lu_solve_batched(int index, dt_cuda_stream *s, dt_dtype dtype, int n, int nrhs,
                                        void **a, const int *piv, void **b, int count, dt_error *err);

/* ---- Fourier transforms: cuFFT (cuda_fft.c) ---- */

dt_status dt_cuda_fft_run(const dt_fft_loop *loop, dt_error *err);

/* ---- factorizations: cuSOLVER (cuda_solver.c) and its kernels (cuda_solver_kernels.cu) ---- */

dt_status dt_cuda_linalg_run(const dt_linalg_loop *loop, dt_error *err);

/* Each library's load as its first use does it (dlopen and every symbol;
 * linked in the emulated build), without touching the driver: DT_OK, or
 * err says what is missing.  For devtensor._cuda._libraries(). */
dt_status dt_cuda_blas_load(dt_error *err);
dt_status dt_cuda_fft_load(dt_error *err);
dt_status dt_cuda_solver_load(int geev, dt_error *err); /* geev: Xgeev's (Note [eig through Xgeev]) */
/* p64[i] = p32[i] - 1 (to64), else p32[i] = p64[i] + 1: LAPACK's 1-based pivots */
dt_status dt_cuda_solver_pivots(int *p32, int64_t *p64, int64_t n, int to64, cudaStream_t s, int dev,
                                dt_error *err);
dt_status dt_cuda_solver_info(const int *i32, int64_t *i64, int64_t n, cudaStream_t s, int dev,
                              dt_error *err);
/* zero the strict upper (upper) or strict lower triangle of count
 * column-major rows x cols matrices of item bytes */
dt_status dt_cuda_solver_zero_triangle(char *a, int64_t count, int64_t rows, int64_t cols, int upper,
                                       int item, cudaStream_t s, int dev, dt_error *err);
/* ptrs[i] = base + i * step bytes, i < count: a batched routine's matrices */
dt_status dt_cuda_solver_pointers(char *base, int64_t step, int64_t count, char **ptrs,
                                  cudaStream_t s, int dev, dt_error *err);
/* count matrices of a float dtype: dst (cols x rows) = conj(src (rows x
 * cols))^T, column-major, matrix b at src + b * src_step and dst + b *
 * dst_step elements */
dt_status dt_cuda_solver_conj_transpose(const void *src, int64_t rows, int64_t cols, int64_t count,
                                        int64_t src_step, void *dst, int64_t dst_step, dt_dtype dtype,
                                        cudaStream_t s, int dev, dt_error *err);
/* count blocks of n elements of item bytes, block b copied from src +
 * b * src_step to dst + b * dst_step elements */
dt_status dt_cuda_solver_copy_blocks(const void *src, int64_t n, int64_t count, int64_t src_step, void *dst,
                                     int64_t dst_step, int item, cudaStream_t s, int dev, dt_error *err);
/* A real Xgeev's output as complex (Note [eig through Xgeev]): w[j] =
 * wr[j] + i wr[n + j] (n of them); and where q is not NULL, q's column j
 * (n x n, column-major) from vr's (LAPACK's layout of conjugate pairs),
 * of float32 or float64 (w and q of the complex dtype of that precision) */
dt_status dt_cuda_solver_eig_unpack(const void *wr, const void *vr, void *w, void *q, int64_t n,
                                    dt_dtype dtype, cudaStream_t s, int dev, dt_error *err);
/* backend.h's LU_DET on the loop's stream (Note [Determinants from LU] in csrc/core/linalg.c) */
dt_status dt_cuda_solver_lu_det(const dt_linalg_loop *l, cudaStream_t s, int dev, dt_error *err);

/* ---- the table (cuda_backend.c) ---- */

const dt_backend_iface *dt_cuda_backend_iface(void);

DT_EXTERN_C_END

#endif /* DT_CUDA_INTERNAL_H */
