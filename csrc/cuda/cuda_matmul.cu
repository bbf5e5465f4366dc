/* cuda_matmul.cu - the CUDA backend's integer and bool matrix products
 * (cuBLAS has none that wrap as NumPy's do; cuda_blas.c sends floating and
 * complex dtypes to cuBLAS and the rest here): a thread per output
 * element, a 16 x 16 tile of them per block, the grid's z walking the
 * batch; run on the CPU by the emulation in CI.
 *
 * Note [Wrapping integer products]
 * NumPy's integer matmul wraps in the dtype.  Sums and products modulo
 * 2**w do not depend on signedness, so every integer dtype of a width is
 * one kernel over its unsigned type, computed in an unsigned type at least
 * as wide as int (uint8 * uint8 must not be promoted to a signed int) and
 * stored truncated.  bool is any(a and b).
 */
#include "cuda_loops.cuh"

#include "loop_check.h"

namespace {

using namespace dt_cuda_kernels;

constexpr int kTile = 16;

struct MatmulArgs {
    const char *a, *b;
    char *out;
    int64_t m, n, k, count;
    int64_t a_rs, a_cs, b_rs, b_cs;
    int batch_ndim;
    int64_t batch_shape[kMaxDims];
    int64_t batch_strides[3][kMaxDims];
};

/* U: the storage as unsigned; M: the arithmetic type (Note [Wrapping
 * integer products]); Bool: any(a and b) */
template <class U, class M, bool Bool>
__global__ void k_matmul_int(MatmulArgs g)
{
    int64_t j = (int64_t)blockIdx.x * kTile + threadIdx.x;
    int64_t i = (int64_t)blockIdx.y * kTile + threadIdx.y;
    if (i >= g.m || j >= g.n)
        return;
    for (int64_t p = blockIdx.z; p < g.count; p += gridDim.z) {
        int64_t off[3] = {0, 0, 0}, rest = p;
        for (int d = g.batch_ndim - 1; d >= 0; d--) {
            int64_t c = rest % g.batch_shape[d];
            rest /= g.batch_shape[d];
            for (int q = 0; q < 3; q++)
                off[q] += c * g.batch_strides[q][d];
        }
        const char *arow = g.a + off[0] + i * g.a_rs;
        const char *bcol = g.b + off[1] + j * g.b_cs;
        M acc = 0;
        for (int64_t q = 0; q < g.k; q++) {
            U x, y;
            memcpy(&x, arow + q * g.a_cs, sizeof x);
            memcpy(&y, bcol + q * g.b_rs, sizeof y);
            if (Bool)
                acc = acc | (M)(x != 0 && y != 0);
            else
                acc = (M)(acc + (M)x * (M)y);
        }
        U r = (U)acc;
        memcpy(g.out + off[2] + (i * g.n + j) * (int64_t)sizeof(U), &r, sizeof r);
    }
}

const void *int_kernel(dt_dtype d)
{
    switch (d) {
    case DT_BOOL: return DT_KERNEL_ADDRESS((k_matmul_int<uint8_t, uint32_t, true>));
    case DT_INT8: case DT_UINT8: return DT_KERNEL_ADDRESS((k_matmul_int<uint8_t, uint32_t, false>));
    case DT_INT16: case DT_UINT16: return DT_KERNEL_ADDRESS((k_matmul_int<uint16_t, uint32_t, false>));
    case DT_INT32: case DT_UINT32: return DT_KERNEL_ADDRESS((k_matmul_int<uint32_t, uint32_t, false>));
    case DT_INT64: case DT_UINT64: return DT_KERNEL_ADDRESS((k_matmul_int<uint64_t, uint64_t, false>));
    default: return NULL;
    }
}

} // namespace

extern "C" dt_status dt_cuda_matmul_int_run(const dt_matmul_loop *l, dt_error *err)
{
    DT_TRY(dt_matmul_loop_check(l, err));
    const void *kernel = int_kernel(l->dtype);
    if (kernel == NULL)
        return dt_error_set(err, DT_ERR_TYPE, "matmul: no CUDA kernel for dtype %s",
                            dt_dtype_get_info(l->dtype)->name);
    if (l->batch_ndim > kMaxDims)
        return dt_error_set(err, DT_ERR_NOT_IMPLEMENTED, "matmul: the CUDA kernel takes up to %d "
                            "batch axes, not %d", kMaxDims, l->batch_ndim);
    int64_t tiles_n = (l->n + kTile - 1) / kTile, tiles_m = (l->m + kTile - 1) / kTile;
    if (tiles_n > 0x7fffffff || tiles_m > 65535)
        return dt_error_set(err, DT_ERR_NOT_IMPLEMENTED, "matmul: an integer product of %lld rows "
                            "is larger than the CUDA kernel's grid", (long long)l->m);
    MatmulArgs g;
    memset(&g, 0, sizeof g);
    g.a = l->a, g.b = l->b, g.out = l->out;
    g.m = l->m, g.n = l->n, g.k = l->k;
    g.a_rs = l->a_rs, g.a_cs = l->a_cs, g.b_rs = l->b_rs, g.b_cs = l->b_cs;
    g.batch_ndim = l->batch_ndim;
    g.count = 1;
    for (int d = 0; d < l->batch_ndim; d++) {
        g.batch_shape[d] = l->batch_shape[d];
        g.count *= l->batch_shape[d];
        for (int q = 0; q < 3; q++)
            g.batch_strides[q][d] = l->batch_strides[q][d];
    }
    cudaStream_t stream;
    DT_TRY(dt_cuda_stream_resolve(l->device_index, l->stream, NULL, &stream, err));
    dt_cuda_guard guard;
    DT_TRY(dt_cuda_guard_enter(&guard, l->device_index, err));
    (void)cudaGetLastError();
    void *args[] = {&g};
    dim3 grid((unsigned)tiles_n, (unsigned)tiles_m, (unsigned)(g.count < 65535 ? g.count : 65535));
    dt_status st = launch_result(cudaLaunchKernel(kernel, grid, dim3(kTile, kTile), args, 0, stream),
                                 "matmul", l->device_index, err);
    dt_cuda_guard_exit(&guard);
    return st;
}
