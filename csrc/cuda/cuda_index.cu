/* cuda_index.cu - the CUDA backend's index kernels (dt_index_loop,
 * backend.h): byte offsets from index arrays with a bounds check on the
 * device, gather, the last-write-wins scatter, and the count and compaction
 * that turn a boolean mask into positions.  What they are for, and the
 * order the core runs them in: Note [Advanced indexing on devices] in
 * csrc/core/gather.c.
 *
 * Note [Bounds on the device]
 * An index out of range must raise IndexError and leave the context
 * usable, so no kernel asserts or traps: OFFSETS atomically keeps the
 * smallest position of a bad index in a flag the core reads after the
 * launch, and writes no offset for it (the core then runs nothing that
 * uses the offsets).
 *
 * Note [Last write wins]
 * NumPy assigns x[idx] = v in order, so with repeated indices the last
 * value stays.  Threads of a GPU write in no order, so SCATTER runs after
 * CLAIM, which atomicMax'es each element's position i into one int64 slot
 * per target element: only the thread whose i is the highest writes.  The
 * emulation runs blocks one after another and cannot show a race here
 * (Note [What emulation cannot catch]); compute-sanitizer's racecheck can.
 *
 * Offsets are 64-bit (Calc64): an index kernel is bound by its random
 * accesses, not by the offset arithmetic.
 */
#include "error.h"

#include <cuda_runtime.h>

#include <stdint.h>
#include <string.h>

#include "cuda_loops.cuh"

namespace {

/* The kernels move raw words of the element size (RawOf), and 8-byte
 * elements aligned to only 4 (complex64) as two 4-byte words. */
struct alignas(4) Halves8 {
    uint32_t lo, hi;
};
__global__ void __launch_bounds__(kThreads)
    k_index_offsets(char *off, const char *idx, Calc64 c, int64_t n, int64_t first, int64_t len, int64_t stride,
                    int accumulate, long long *bad)
{
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) {
        int64_t o[kMaxOps];
        offsets_of<2>(c, i, o);
        int64_t v = *reinterpret_cast<const int64_t *>(idx + o[1]);
        int64_t *p = reinterpret_cast<int64_t *>(off + o[0]);
        if (v < -len || v >= len) {
            atomicMin(bad, (long long)(first + i)); /* Note [Bounds on the device] */
            if (!accumulate)
                *p = 0; /* defined, for the next axis to add to; never used */
            continue;
        }
        if (v < 0)
            v += len;
        /* in unsigned arithmetic: an empty result's offsets are never checked
         * against the storage (nor used), and may wrap */
        *p = (int64_t)((accumulate ? (uint64_t)*p : 0u) + (uint64_t)v * (uint64_t)stride);
    }
}

/* Where an element's data[2] leads: its byte offset, or in a direct loop
 * (one indexed axis: Note [Direct loops]) the index itself, checked against
 * the axis and turned into an offset here; false for a bad index, whose
 * position is min'ed into bad. */
struct Axis {
    int64_t len, stride, first; /* first: the C-order position of element 0 of this launch */
    long long *bad;
};

template <bool DIRECT>
__device__ __forceinline__ bool offset_at(const char *p, const Axis &ax, int64_t i, int64_t &off)
{
    int64_t v = *reinterpret_cast<const int64_t *>(p);
    if constexpr (!DIRECT) {
        off = v;
        return true;
    } else {
        if (v < -ax.len || v >= ax.len) {
            if (ax.bad != nullptr)
                atomicMin(ax.bad, (long long)(ax.first + i)); /* Note [Bounds on the device] */
            return false;
        }
        off = (int64_t)((uint64_t)(v < 0 ? v + ax.len : v) * (uint64_t)ax.stride); /* as OFFSETS */
        return true;
    }
}

template <class T, bool DIRECT>
__global__ void __launch_bounds__(kThreads)
    k_gather(char *out, const char *src, const char *off, Calc64 c, int64_t n, Axis ax)
{
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) {
        int64_t o[kMaxOps], at;
        offsets_of<3>(c, i, o);
        if (offset_at<DIRECT>(off + o[2], ax, i, at))
            *reinterpret_cast<T *>(out + o[0]) = *reinterpret_cast<const T *>(src + o[1] + at);
    }
}

/* Note [Last write wins] */
template <bool DIRECT>
__global__ void __launch_bounds__(kThreads) k_claim(const char *dst, const char *off, Calc64 c, int64_t n, Axis ax,
                                                    const char *base, int itemsize, long long *winner)
{
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) {
        int64_t o[kMaxOps], at;
        offsets_of<3>(c, i, o);
        if (offset_at<DIRECT>(off + o[2], ax, i, at))
            atomicMax(winner + (dst + o[1] + at - base) / itemsize, (long long)(ax.first + i));
    }
}

template <class T, bool DIRECT>
__global__ void __launch_bounds__(kThreads) k_scatter(const char *val, char *dst, const char *off, Calc64 c,
                                                      int64_t n, Axis ax, const char *base, int itemsize,
                                                      const long long *winner)
{
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) {
        int64_t o[kMaxOps], at;
        offsets_of<3>(c, i, o);
        if (!offset_at<DIRECT>(off + o[2], ax, i, at))
            continue;
        char *to = dst + o[1] + at;
        if (winner[(to - base) / itemsize] == (long long)(ax.first + i))
            *reinterpret_cast<T *>(to) = *reinterpret_cast<const T *>(val + o[0]);
    }
}

/* block b counts the non-zero bytes of its chunk (every thread of the block
 * takes the same number of turns, so the barrier is reached by all) */
__global__ void __launch_bounds__(kThreads)
    k_count(const unsigned char *mask, int64_t n, int64_t chunk, long long *counts)
{
    int64_t start = (int64_t)blockIdx.x * chunk;
    int64_t end = start + chunk < n ? start + chunk : n;
    long long total = 0;
    for (int64_t tile = start; tile < end; tile += kThreads) {
        int64_t i = tile + threadIdx.x;
        total += __syncthreads_count(i < end && mask[i] != 0);
    }
    if (threadIdx.x == 0)
        counts[blockIdx.x] = total;
}

/* counts[0..nblocks) becomes their exclusive sums, counts[nblocks] the total;
 * nblocks <= DT_INDEX_MAX_BLOCKS, so one thread does it in microseconds */
__global__ void k_scan_counts(long long *counts, int nblocks)
{
    if (blockIdx.x != 0 || threadIdx.x != 0)
        return;
    long long sum = 0;
    for (int b = 0; b < nblocks; b++) {
        long long c = counts[b];
        counts[b] = sum;
        sum += c;
    }
    counts[nblocks] = sum;
}

/* block b writes the positions of its chunk's non-zero bytes from
 * offsets[b] on, a tile of kThreads at a time, each thread's place in the
 * tile by an inclusive scan in shared memory */
__global__ void __launch_bounds__(kThreads)
    k_compact(const unsigned char *mask, int64_t n, int64_t chunk, const long long *offsets, int64_t *out)
{
    __shared__ int scan[kThreads];
    int64_t start = (int64_t)blockIdx.x * chunk;
    int64_t end = start + chunk < n ? start + chunk : n;
    long long base = offsets[blockIdx.x];
    const int t = threadIdx.x;
    for (int64_t tile = start; tile < end; tile += kThreads) {
        int64_t i = tile + t;
        int f = i < end && mask[i] != 0;
        scan[t] = f;
        __syncthreads();
        for (int s = 1; s < kThreads; s <<= 1) {
            int v = t >= s ? scan[t - s] : 0;
            __syncthreads();
            scan[t] += v;
            __syncthreads();
        }
        if (f)
            out[base + scan[t] - 1] = i;
        base += scan[kThreads - 1];
        __syncthreads(); /* scan is rewritten by the next tile */
    }
}

/* Every index kernel, by element size index (size_index), alignment and
 * directness.  Taking the addresses here is what registers them in the
 * emulation, so the kernel coverage gate sees the ones no test launches. */
struct IndexKernels {
    const void *gather[5][2][2]; /* [size][aligned][direct]: [3][0] moves complex64 in halves */
    const void *scatter[5][2][2];
    const void *claim[2];
    const void *offsets, *count, *scan, *compact;
};

template <class T, bool DIRECT> void add_moves(IndexKernels &k, int size, int aligned)
{
    k.gather[size][aligned][DIRECT] = DT_KERNEL_ADDRESS(k_gather<T, DIRECT>);
    k.scatter[size][aligned][DIRECT] = DT_KERNEL_ADDRESS(k_scatter<T, DIRECT>);
    if (aligned && size != 3) { /* the core refuses addresses below a dtype's alignment */
        k.gather[size][0][DIRECT] = k.gather[size][1][DIRECT];
        k.scatter[size][0][DIRECT] = k.scatter[size][1][DIRECT];
    }
}

template <int N> void add_sized(IndexKernels &k)
{
    add_moves<typename RawOf<N>::type, false>(k, size_index(N), 1);
    add_moves<typename RawOf<N>::type, true>(k, size_index(N), 1);
}

const IndexKernels &index_kernels()
{
    static const IndexKernels *kernels = [] {
        static IndexKernels k;
        memset(&k, 0, sizeof k);
        add_sized<1>(k);
        add_sized<2>(k);
        add_sized<4>(k);
        add_sized<8>(k);
        add_sized<16>(k);
        add_moves<Halves8, false>(k, 3, 0);
        add_moves<Halves8, true>(k, 3, 0);
        k.claim[0] = DT_KERNEL_ADDRESS(k_claim<false>);
        k.claim[1] = DT_KERNEL_ADDRESS(k_claim<true>);
        k.offsets = DT_KERNEL_ADDRESS(k_index_offsets);
        k.count = DT_KERNEL_ADDRESS(k_count);
        k.scan = DT_KERNEL_ADDRESS(k_scan_counts);
        k.compact = DT_KERNEL_ADDRESS(k_compact);
        return &k;
    }();
    return *kernels;
}

const char *const kind_names[] = {"index offsets", "gather", "scatter claim", "scatter", "nonzero count",
                                  "nonzero compaction"};

dt_status launched(const dt_index_loop *l, cudaError_t e, dt_error *err)
{
    return launch_result(e, kind_names[l->kind], l->device_index, err);
}

/* one launch over `ndim` (<= kMaxDims) inner dims with bases `base`, the
 * first element at C-order position `first` of the whole loop */
dt_status launch_part(const dt_index_loop *l, int ndim, const int64_t *shape, const int64_t *const strides[3],
                      char *const base[3], int64_t numel, int64_t first, cudaStream_t stream, dt_error *err)
{
    const IndexKernels &ks = index_kernels();
    Calc64 c;
    memset(&c, 0, sizeof c);
    c.ndim = ndim;
    for (int d = 0; d < ndim; d++) {
        int src = ndim - 1 - d; /* innermost first */
        c.size[d] = shape[src];
        for (int j = 0; j < 3; j++)
            c.stride[j][d] = strides[j][src];
    }
    char *d0 = base[0], *d1 = base[1], *d2 = base[2];
    int64_t len = l->axis_len, stride = l->axis_stride;
    int accumulate = l->accumulate, itemsize = l->itemsize;
    long long *flag = (long long *)l->flag, *bad = (long long *)l->bad;
    char *claim_base = l->claim_base;
    Axis ax = {len, stride, first, bad};
    dim3 grid(grid_for(numel, l->device_index)), block(kThreads);
    int sz = size_index((size_t)l->itemsize), al = l->aligned != 0, dr = l->direct != 0;
    cudaError_t e;
    switch (l->kind) {
    case DT_IDX_OFFSETS: {
        void *args[] = {&d0, &d1, &c, &numel, &first, &len, &stride, &accumulate, &bad};
        e = cudaLaunchKernel(ks.offsets, grid, block, args, 0, stream);
        break;
    }
    case DT_IDX_GATHER: {
        void *args[] = {&d0, &d1, &d2, &c, &numel, &ax};
        e = cudaLaunchKernel(ks.gather[sz][al][dr], grid, block, args, 0, stream);
        break;
    }
    case DT_IDX_CLAIM: {
        void *args[] = {&d1, &d2, &c, &numel, &ax, &claim_base, &itemsize, &flag};
        e = cudaLaunchKernel(ks.claim[dr], grid, block, args, 0, stream);
        break;
    }
    default: { /* DT_IDX_SCATTER */
        void *args[] = {&d0, &d1, &d2, &c, &numel, &ax, &claim_base, &itemsize, &flag};
        e = cudaLaunchKernel(ks.scatter[sz][al][dr], grid, block, args, 0, stream);
        break;
    }
    }
    return launched(l, e, err);
}

/* Note [Offset calculator] in cuda_loops.cu: past kMaxDims dims, one launch
 * per index of the outer ones */
dt_status run_strided_index(const dt_index_loop *l, cudaStream_t stream, dt_error *err)
{
    int outer = l->ndim > kMaxDims ? l->ndim - kMaxDims : 0;
    int inner = l->ndim - outer;
    int64_t part = 1;
    for (int d = outer; d < l->ndim; d++)
        part *= l->shape[d];
    const int64_t *strides[3] = {l->strides[0] + outer, l->strides[1] + outer, l->strides[2] + outer};
    int64_t idx[DT_MAX_NDIM] = {0};
    for (int64_t first = 0;; first += part) {
        char *base[3];
        for (int j = 0; j < 3; j++) {
            base[j] = l->data[j];
            for (int d = 0; d < outer; d++)
                base[j] += idx[d] * l->strides[j][d];
        }
        DT_TRY(launch_part(l, inner, l->shape + outer, strides, base, part, first, stream, err));
        int d = outer - 1;
        while (d >= 0 && ++idx[d] == l->shape[d])
            idx[d--] = 0;
        if (d < 0)
            return DT_OK;
    }
}

dt_status run_mask(const dt_index_loop *l, cudaStream_t stream, dt_error *err)
{
    const IndexKernels &ks = index_kernels();
    const unsigned char *mask = (const unsigned char *)l->data[1];
    int64_t n = l->numel, chunk = l->chunk;
    long long *flag = (long long *)l->flag;
    int nblocks = l->nblocks;
    if (l->kind == DT_IDX_COUNT) {
        void *args[] = {&mask, &n, &chunk, &flag};
        DT_TRY(launched(l, cudaLaunchKernel(ks.count, dim3(nblocks), dim3(kThreads), args, 0, stream), err));
        void *scan_args[] = {&flag, &nblocks};
        return launched(l, cudaLaunchKernel(ks.scan, dim3(1), dim3(1), scan_args, 0, stream), err);
    }
    int64_t *out = (int64_t *)l->data[0];
    void *args[] = {&mask, &n, &chunk, &flag, &out};
    return launched(l, cudaLaunchKernel(ks.compact, dim3(nblocks), dim3(kThreads), args, 0, stream), err);
}

dt_status validate(const dt_index_loop *l, dt_error *err)
{
    if (l->kind < DT_IDX_OFFSETS || l->kind > DT_IDX_COMPACT)
        return dt_error_set(err, DT_ERR_VALUE, "run_index: unknown kind %d", l->kind);
    if (l->numel < 1)
        return dt_error_set(err, DT_ERR_VALUE, "run_index: no elements");
    int needs_flag = l->kind != DT_IDX_OFFSETS && l->kind != DT_IDX_GATHER;
    int needs_bad = l->kind == DT_IDX_OFFSETS || (l->direct && (l->kind == DT_IDX_GATHER || l->kind == DT_IDX_CLAIM));
    if ((needs_flag && l->flag == NULL) || (needs_bad && l->bad == NULL))
        return dt_error_set(err, DT_ERR_VALUE, "run_index: %s needs its flag memory", kind_names[l->kind]);
    if (l->kind == DT_IDX_COUNT || l->kind == DT_IDX_COMPACT) {
        if (l->nblocks < 1 || l->nblocks > DT_INDEX_MAX_BLOCKS || l->chunk < 1 ||
            (l->numel - 1) / l->chunk >= l->nblocks)
            return dt_error_set(err, DT_ERR_VALUE, "run_index: %d blocks of %lld do not cover %lld bytes",
                                l->nblocks, (long long)l->chunk, (long long)l->numel);
        if (l->data[1] == NULL || (l->kind == DT_IDX_COMPACT && l->data[0] == NULL))
            return dt_error_set(err, DT_ERR_VALUE, "run_index: an operand has no data");
        return DT_OK;
    }
    if (l->ndim < 1 || l->ndim > DT_MAX_NDIM)
        return dt_error_set(err, DT_ERR_VALUE, "run_index: ndim %d out of range", l->ndim);
    int64_t numel = 1;
    for (int d = 0; d < l->ndim; d++) {
        if (l->shape[d] < 1 || numel > INT64_MAX / l->shape[d])
            return dt_error_set(err, DT_ERR_VALUE, "run_index: bad shape[%d] = %lld", d, (long long)l->shape[d]);
        numel *= l->shape[d];
    }
    if (numel != l->numel)
        return dt_error_set(err, DT_ERR_VALUE, "run_index: numel does not match the shape");
    if (l->kind != DT_IDX_OFFSETS) {
        int s = l->itemsize;
        if (s != 1 && s != 2 && s != 4 && s != 8 && s != 16)
            return dt_error_set(err, DT_ERR_VALUE, "run_index: no kernel for elements of %d bytes", s);
        if (l->kind != DT_IDX_GATHER && l->claim_base == NULL)
            return dt_error_set(err, DT_ERR_VALUE, "run_index: a scatter needs its claim base");
    }
    int used = l->kind == DT_IDX_OFFSETS ? 2 : 3;
    for (int j = l->kind == DT_IDX_CLAIM ? 1 : 0; j < used; j++)
        if (l->data[j] == NULL)
            return dt_error_set(err, DT_ERR_VALUE, "run_index: operand %d has no data", j);
    return DT_OK;
}

} // namespace

extern "C" dt_status dt_cuda_index_run(const dt_index_loop *l, dt_error *err)
{
    if (l == NULL)
        return dt_error_set(err, DT_ERR_VALUE, "run_index: no loop");
    DT_TRY(validate(l, err));
    cudaStream_t stream;
    DT_TRY(dt_cuda_stream_resolve(l->device_index, l->stream, NULL, &stream, err));
    dt_cuda_guard g;
    DT_TRY(dt_cuda_guard_enter(&g, l->device_index, err));
    (void)cudaGetLastError(); /* a stale error must not be blamed on this launch */
    dt_status st = l->kind >= DT_IDX_COUNT ? run_mask(l, stream, err) : run_strided_index(l, stream, err);
    dt_cuda_guard_exit(&g);
    return st;
}
