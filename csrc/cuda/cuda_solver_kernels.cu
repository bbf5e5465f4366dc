/* cuda_solver_kernels.cu - the small kernels around cuSOLVER (cuda_solver.c):
 * int pivots and info to and from the loop's int64, zeroing a triangle, a
 * conjugate transpose, the pointer arrays of the batched routines, and a
 * real eig's output made complex; run on the CPU by the emulation in CI. */
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

/* dst (cols x rows) = conj(src (rows x cols))^T, both column-major */
template <class T, bool Complex>
__global__ void k_conj_transpose(const char *src, char *dst, int64_t rows, int64_t cols)
{
    int64_t total = rows * cols;
    for (int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; e < total;
         e += (int64_t)gridDim.x * blockDim.x) {
        int64_t i = e % rows, j = e / rows;
        T v[2];
        memcpy(v, src + e * (Complex ? 2 : 1) * (int64_t)sizeof(T), (Complex ? 2 : 1) * sizeof(T));
        if (Complex)
            v[1] = -v[1];
        memcpy(dst + (j + i * cols) * (Complex ? 2 : 1) * (int64_t)sizeof(T), v,
               (Complex ? 2 : 1) * sizeof(T));
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

extern "C" dt_status dt_cuda_solver_conj_transpose(const void *src, int64_t rows, int64_t cols,
                                                   void *dst, dt_dtype dtype, cudaStream_t s, int dev,
                                                   dt_error *err)
{
    const char *in = (const char *)src;
    char *out = (char *)dst;
    void *args[] = {&in, &out, &rows, &cols};
    const void *k = dtype == DT_FLOAT32 ? DT_KERNEL_ADDRESS((k_conj_transpose<float, false>))
                  : dtype == DT_FLOAT64 ? DT_KERNEL_ADDRESS((k_conj_transpose<double, false>))
                  : dtype == DT_COMPLEX64 ? DT_KERNEL_ADDRESS((k_conj_transpose<float, true>))
                  : DT_KERNEL_ADDRESS((k_conj_transpose<double, true>));
    return launch(k, rows * cols, args, s, dev, "conj_transpose", err);
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
