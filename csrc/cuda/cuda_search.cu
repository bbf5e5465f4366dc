/* cuda_search.cu - the CUDA backend's binary search (backend.h's
 * dt_search_loop): a thread per value, grid-stride, each searching the
 * sorted tensor in NumPy's sort order (reduce_ops.h's dt_order_lt); run on
 * the CPU by the emulation in CI. */
#include "cuda_loops.cuh"

#include "loop_check.h"
#include "reduce_ops.h"

namespace {

using namespace dt_cuda_kernels;

struct SearchArgs {
    const char *sorted, *values;
    long long *out;
    int right, ndim;
    int64_t n, sorted_stride, numel;
    int64_t shape[kMaxDims], value_strides[kMaxDims];
};

#define DT_SEARCH_TAG(CODE, X)                                                              \
    struct Find_##X {                                                                       \
        static __device__ dt_C_##X load(const char *p)                                      \
        {                                                                                   \
            dt_T_##X raw;                                                                   \
            memcpy(&raw, p, sizeof raw);                                                    \
            return dt_load_##X(raw);                                                        \
        }                                                                                   \
        static __device__ bool lt(dt_C_##X a, dt_C_##X b) { return dt_order_lt_##X(a, b); } \
    };
DT_FOR_EACH_DTYPE(DT_SEARCH_TAG)
#undef DT_SEARCH_TAG

template <class F>
__global__ void k_search(SearchArgs a)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < a.numel;
         i += (int64_t)gridDim.x * blockDim.x) {
        int64_t off = 0, rest = i;
        for (int d = a.ndim - 1; d >= 0; d--) {
            off += (rest % a.shape[d]) * a.value_strides[d];
            rest /= a.shape[d];
        }
        auto v = F::load(a.values + off);
        int64_t lo = 0, hi = a.n;
        while (lo < hi) {
            int64_t mid = lo + (hi - lo) / 2;
            auto x = F::load(a.sorted + mid * a.sorted_stride);
            if (a.right ? !F::lt(v, x) : F::lt(x, v))
                lo = mid + 1;
            else
                hi = mid;
        }
        a.out[i] = lo;
    }
}

const void *search_kernel(dt_dtype d)
{
    static const void *table[DT_NUM_DTYPES];
    static bool ready = [] {
#define DT_SEARCH_ROW(CODE, X) table[CODE] = DT_KERNEL_ADDRESS(k_search<Find_##X>);
        DT_FOR_EACH_DTYPE(DT_SEARCH_ROW)
#undef DT_SEARCH_ROW
        return true;
    }();
    (void)ready;
    return table[d];
}

} // namespace

extern "C" dt_status dt_cuda_search_run(const dt_search_loop *l, dt_error *err)
{
    DT_TRY(dt_search_loop_check(l, err));
    if (l->ndim > kMaxDims)
        return dt_error_set(err, DT_ERR_NOT_IMPLEMENTED, "run_search: the CUDA kernel takes up to %d axes, not %d",
                            kMaxDims, l->ndim);
    SearchArgs a;
    memset(&a, 0, sizeof a);
    a.sorted = l->sorted;
    a.values = l->values;
    a.out = (long long *)l->out;
    a.right = l->right;
    a.ndim = l->ndim;
    a.n = l->n;
    a.sorted_stride = l->sorted_stride;
    a.numel = l->numel;
    for (int d = 0; d < l->ndim; d++) {
        a.shape[d] = l->shape[d];
        a.value_strides[d] = l->value_strides[d];
    }
    cudaStream_t stream;
    DT_TRY(dt_cuda_stream_resolve(l->device_index, l->stream, NULL, &stream, err));
    dt_cuda_guard g;
    DT_TRY(dt_cuda_guard_enter(&g, l->device_index, err));
    (void)cudaGetLastError();
    void *args[] = {&a};
    dim3 grid(grid_for(l->numel, l->device_index));
    dt_status st = launch_result(cudaLaunchKernel(search_kernel(l->dtype), grid, dim3(kThreads), args, 0, stream),
                                 "searchsorted", l->device_index, err);
    dt_cuda_guard_exit(&g);
    return st;
}
