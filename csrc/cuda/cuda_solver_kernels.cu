/* cuda_solver_kernels.cu - the small kernels around cuSOLVER (cuda_solver.c):
 * int pivots and info to and from the loop's int64, zeroing a triangle,
 * batched conjugate transposes and block copies, the pointer arrays of the
 * batched routines, a real eig's output made complex, and determinants
 * from LU factors; run on the CPU by the emulation in CI. */
#include "cuda_loops.cuh"

namespace {

using namespace dt_cuda_kernels;

__global__ void k_pivots(int *p32, long long *p64, int64_t n, int to64)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (int64_t)gridDim.x * blockDim.x) {
        if (to64)
            p64[i] = (long long)p32[i] - 1;
        else
            p32[i] = (int)(p64[i] + 1);
    }
}

__global__ void k_info(const int *i32, long long *i64, int64_t n)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (int64_t)gridDim.x * blockDim.x)
        i64[i] = i32[i];
}

/* element (i, j) of matrix p (column-major rows x cols) is zeroed where
 * i < j (upper) or i > j (!upper) */
__global__ void k_zero_triangle(char *a, int64_t count, int64_t rows, int64_t cols, int upper,
                                int item)
{
    int64_t total = count * rows * cols;
    for (int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; e < total;
         e += (int64_t)gridDim.x * blockDim.x) {
        int64_t i = e % rows, j = (e / rows) % cols;
        if (upper ? i < j : i > j)
            memset(a + e * item, 0, (size_t)item);
    }
}

/* count matrices: dst (cols x rows) = conj(src (rows x cols))^T, both
 * column-major, matrix b at src + b * src_step and dst + b * dst_step
 * elements */
template <class T, bool Complex>
__global__ void k_conj_transpose(const char *src, char *dst, int64_t rows, int64_t cols, int64_t count,
                                 int64_t src_step, int64_t dst_step)
{
    const int64_t per = rows * cols, total = per * count, item = (Complex ? 2 : 1) * (int64_t)sizeof(T);
    for (int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; e < total;
         e += (int64_t)gridDim.x * blockDim.x) {
        int64_t b = e / per, f = e % per, i = f % rows, j = f / rows;
        T v[2];
        memcpy(v, src + (b * src_step + f) * item, (size_t)item);
        if (Complex)
            v[1] = -v[1];
        memcpy(dst + (b * dst_step + j + i * cols) * item, v, (size_t)item);
    }
}

/* count blocks of n elements of item bytes: block b from src + b * src_step
 * to dst + b * dst_step elements */
__global__ void k_copy_blocks(const char *src, char *dst, int64_t n, int64_t count, int64_t src_step,
                              int64_t dst_step, int item)
{
    const int64_t total = n * count;
    for (int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; e < total;
         e += (int64_t)gridDim.x * blockDim.x) {
        int64_t b = e / n, f = e % n;
        memcpy(dst + (b * dst_step + f) * item, src + (b * src_step + f) * item, (size_t)item);
    }
}

/* ptrs[i] = base + i * step bytes */
__global__ void k_pointers(char *base, int64_t step, int64_t count, char **ptrs)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < count;
         i += (int64_t)gridDim.x * blockDim.x)
        ptrs[i] = base + i * step;
}

/* LAPACK's real geev layout to complex: w[j] = wr[j] + i wi[j] (wi = wr +
 * n); column j of q is vr's column j where wi[j] == 0, vr(:, j) + i
 * vr(:, j + 1) where wi[j] > 0 (the first of a pair), and vr(:, j - 1) -
 * i vr(:, j) where wi[j] < 0.  One thread per element of q (per w[j] when
 * q is NULL); a pair cut off at either end (never produced) reads as real. */
template <class T>
__global__ void k_eig_unpack(const T *wr, const T *vr, T *w, T *q, int64_t n)
{
    const int64_t total = q != nullptr ? n * n : n;
    for (int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; e < total;
         e += (int64_t)gridDim.x * blockDim.x) {
        const int64_t i = e % n, j = q != nullptr ? e / n : e;
        const T wi = wr[n + j];
        if (i == 0 || q == nullptr) {
            w[2 * j] = wr[j];
            w[2 * j + 1] = wi;
        }
        if (q == nullptr)
            continue;
        T re = vr[j * n + i], im = 0;
        if (wi > 0 && j + 1 < n)
            im = vr[(j + 1) * n + i];
        else if (wi < 0 && j > 0)
            re = vr[(j - 1) * n + i], im = -vr[j * n + i];
        q[2 * e] = re;
        q[2 * e + 1] = im;
    }
}

/* float's and double's log, exp and hypot by name, so the emulation's
 * host compiler picks the same precision as the device's */
template <class R> struct real_math;
template <> struct real_math<float> {
    __device__ static float log(float x) { return ::logf(x); }
    __device__ static float exp(float x) { return ::expf(x); }
    __device__ static float hypot(float x, float y) { return ::hypotf(x, y); }
};
template <> struct real_math<double> {
    __device__ static double log(double x) { return ::log(x); }
    __device__ static double exp(double x) { return ::exp(x); }
    __device__ static double hypot(double x, double y) { return ::hypot(x, y); }
};

/* backend.h's LU_DET (Note [Determinants from LU] in csrc/core/linalg.c):
 * one thread per matrix, its diagonal in order, as NumPy sums it.  a is
 * count column-major n x n matrices of R (Complex: pairs of R); q and w
 * hold one value per matrix (w unused when det). */
template <class R, bool Complex>
__global__ void k_lu_det(const R *a, const long long *piv, const long long *info, R *q, R *w,
                         int64_t n, int64_t count, int det)
{
    typedef real_math<R> M;
    const int c = Complex ? 2 : 1;
    for (int64_t p = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; p < count;
         p += (int64_t)gridDim.x * blockDim.x) {
        const R *m = a + p * n * n * c;
        R sr = 1, si = 0, logdet = 0;
        if (info[p] > 0) {
            sr = 0, logdet = -(R)INFINITY;
        } else {
            for (int64_t i = 0; i < n; i++)
                if (piv[p * n + i] != i)
                    sr = -sr;
            for (int64_t i = 0; i < n; i++) {
                const R *e = m + (i * n + i) * c;
                if (Complex) {
                    R mag = M::hypot(e[0], e[1]), ur = e[0] / mag, ui = e[1] / mag;
                    R nr = sr * ur - si * ui, ni = sr * ui + si * ur;
                    sr = nr, si = ni;
                    logdet += M::log(mag);
                } else {
                    R v = e[0];
                    if (v < 0)
                        sr = -sr, v = -v;
                    logdet += M::log(v);
                }
            }
        }
        R *out = q + p * c;
        if (det) {
            R ex = M::exp(logdet);
            out[0] = Complex ? sr * ex - si * 0 : sr * ex;
            if (Complex)
                out[1] = sr * 0 + si * ex;
        } else {
            out[0] = sr;
            if (Complex)
                out[1] = si;
            w[p] = logdet;
        }
    }
}

dt_status launch(const void *kernel, int64_t items, void **args, cudaStream_t stream, int dev,
                 const char *what, dt_error *err)
{
    if (items <= 0)
        return DT_OK;
    (void)cudaGetLastError();
    dim3 grid(grid_for(items, dev));
    return launch_result(cudaLaunchKernel(kernel, grid, dim3(kThreads), args, 0, stream), what, dev, err);
}

} // namespace

extern "C" dt_status dt_cuda_solver_pivots(int *p32, int64_t *p64, int64_t n, int to64, cudaStream_t s,
                                           int dev, dt_error *err)
{
    long long *q = (long long *)p64;
    void *args[] = {&p32, &q, &n, &to64};
    return launch(DT_KERNEL_ADDRESS(k_pivots), n, args, s, dev, "pivots", err);
}

extern "C" dt_status dt_cuda_solver_info(const int *i32, int64_t *i64, int64_t n, cudaStream_t s, int dev,
                                         dt_error *err)
{
    long long *q = (long long *)i64;
    void *args[] = {&i32, &q, &n};
    return launch(DT_KERNEL_ADDRESS(k_info), n, args, s, dev, "info", err);
}

extern "C" dt_status dt_cuda_solver_zero_triangle(char *a, int64_t count, int64_t rows, int64_t cols,
                                                  int upper, int item, cudaStream_t s, int dev,
                                                  dt_error *err)
{
    void *args[] = {&a, &count, &rows, &cols, &upper, &item};
    return launch(DT_KERNEL_ADDRESS(k_zero_triangle), count * rows * cols, args, s, dev, "triangle",
                  err);
}

extern "C" dt_status dt_cuda_solver_conj_transpose(const void *src, int64_t rows, int64_t cols, int64_t count,
                                                   int64_t src_step, void *dst, int64_t dst_step, dt_dtype dtype,
                                                   cudaStream_t s, int dev, dt_error *err)
{
    const char *in = (const char *)src;
    char *out = (char *)dst;
    void *args[] = {&in, &out, &rows, &cols, &count, &src_step, &dst_step};
    const void *k = dtype == DT_FLOAT32 ? DT_KERNEL_ADDRESS((k_conj_transpose<float, false>))
                  : dtype == DT_FLOAT64 ? DT_KERNEL_ADDRESS((k_conj_transpose<double, false>))
                  : dtype == DT_COMPLEX64 ? DT_KERNEL_ADDRESS((k_conj_transpose<float, true>))
                  : DT_KERNEL_ADDRESS((k_conj_transpose<double, true>));
    return launch(k, rows * cols * count, args, s, dev, "conj_transpose", err);
}

extern "C" dt_status dt_cuda_solver_copy_blocks(const void *src, int64_t n, int64_t count, int64_t src_step,
                                                void *dst, int64_t dst_step, int item, cudaStream_t s, int dev,
                                                dt_error *err)
{
    const char *in = (const char *)src;
    char *out = (char *)dst;
    void *args[] = {&in, &out, &n, &count, &src_step, &dst_step, &item};
    return launch(DT_KERNEL_ADDRESS(k_copy_blocks), n * count, args, s, dev, "copy_blocks", err);
}

extern "C" dt_status dt_cuda_solver_pointers(char *base, int64_t step, int64_t count, char **ptrs,
                                             cudaStream_t s, int dev, dt_error *err)
{
    void *args[] = {&base, &step, &count, &ptrs};
    return launch(DT_KERNEL_ADDRESS(k_pointers), count, args, s, dev, "pointers", err);
}

extern "C" dt_status dt_cuda_solver_eig_unpack(const void *wr, const void *vr, void *w, void *q, int64_t n,
                                               dt_dtype dtype, cudaStream_t s, int dev, dt_error *err)
{
    void *args[] = {&wr, &vr, &w, &q, &n};
    const void *k = dtype == DT_FLOAT32 ? DT_KERNEL_ADDRESS(k_eig_unpack<float>)
                                        : DT_KERNEL_ADDRESS(k_eig_unpack<double>);
    return launch(k, q != NULL ? n * n : n, args, s, dev, "eig_unpack", err);
}

extern "C" dt_status dt_cuda_solver_lu_det(const dt_linalg_loop *l, cudaStream_t s, int dev, dt_error *err)
{
    const void *a = l->a;
    const long long *piv = (const long long *)l->piv, *info = (const long long *)l->info;
    void *q = l->q, *w = l->w;
    int64_t n = l->n, count = l->count;
    int det = l->full;
    void *args[] = {&a, &piv, &info, &q, &w, &n, &count, &det};
    const void *k = l->dtype == DT_FLOAT32 ? DT_KERNEL_ADDRESS((k_lu_det<float, false>))
                  : l->dtype == DT_FLOAT64 ? DT_KERNEL_ADDRESS((k_lu_det<double, false>))
                  : l->dtype == DT_COMPLEX64 ? DT_KERNEL_ADDRESS((k_lu_det<float, true>))
                  : DT_KERNEL_ADDRESS((k_lu_det<double, true>));
    return launch(k, count, args, s, dev, "lu_det", err);
}
