/* emu_kernels.cu - small CUDA kernels for the CPU emulation's tests,
 * written as CUDA code (nvcc compiles this file too), with host wrappers
 * that launch them through cudaLaunchKernel as cuda_loops.cu does.
 *
 * Built for the tests with
 *     g++ -std=c++17 -include csrc/emu/emu_device.h -x c++ emu_kernels.cu
 * and driven by emu_driver.cpp (tests/test_emu_kernels.py).
 */
#include <cuda_runtime.h>

#include <stdint.h>

#include "../../csrc/emu/emu_spelling.h"
#include "emu_kernels.h"

/* ---------------------------------------------------------------------------
 * Elementwise: a grid-stride loop.
 */
__global__ void k_axpb(const float *x, float *y, float a, float b, int64_t n)
{
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step)
        y[i] = a * x[i] + b;
}

cudaError_t launch_axpb(const float *x, float *y, float a, float b, int64_t n, unsigned grid, unsigned block)
{
    void *args[] = {&x, &y, &a, &b, &n};
    return cudaLaunchKernel(DT_KERNEL_ADDRESS(k_axpb), dim3(grid), dim3(block), args, 0, 0);
}

/* every built-in variable, in a 3-D grid of 3-D blocks */
__global__ void k_builtins(unsigned *out)
{
    unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    unsigned b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    unsigned per = blockDim.x * blockDim.y * blockDim.z;
    out[b * per + t] = threadIdx.x | threadIdx.y << 4 | threadIdx.z << 8 | blockIdx.x << 12 | blockIdx.y << 16 |
                       blockIdx.z << 20 | (unsigned)warpSize << 24;
}

cudaError_t launch_builtins(unsigned *out, dim3 grid, dim3 block)
{
    void *args[] = {&out};
    return cudaLaunchKernel(DT_KERNEL_ADDRESS(k_builtins), grid, block, args, 0, 0);
}

/* the same kernel as <<<>>> (DT_LAUNCH) */
cudaError_t launch_axpb_chevrons(const float *x, float *y, float a, float b, int64_t n)
{
    DT_LAUNCH(k_axpb, 4, 64, 0, 0)(x, y, a, b, n);
    return cudaSuccess;
}

/* ---------------------------------------------------------------------------
 * Block reductions.
 */
template <class T> __device__ __forceinline__ T warp_sum(T v)
{
    for (int offset = warpSize / 2; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

/* per block: grid-stride partial sums, then warp shuffles and shared memory;
 * blockDim.x a multiple of 32, at most 1024 */
__global__ void k_reduce_shfl(const float *x, double *block_sums, int64_t n)
{
    __shared__ double partial[32];
    double v = 0;
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step)
        v += x[i];
    unsigned lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
    v = warp_sum(v);
    if (lane == 0)
        partial[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < blockDim.x / warpSize ? partial[lane] : 0.0;
        v = warp_sum(v);
        if (lane == 0)
            block_sums[blockIdx.x] = v;
    }
}

cudaError_t launch_reduce_shfl(const float *x, double *block_sums, int64_t n, unsigned grid, unsigned block)
{
    void *args[] = {&x, &block_sums, &n};
    return cudaLaunchKernel(DT_KERNEL_ADDRESS(k_reduce_shfl), dim3(grid), dim3(block), args, 0, 0);
}

/* the shared-memory tree of the textbook, one element per thread; 256
 * threads.  with_first_barrier = 0 drops the __syncthreads between the
 * stores and the first reads: the bug the orders must catch. */
template <int WithFirstBarrier> __global__ void k_reduce_tree(const int *x, int *block_sums)
{
    __shared__ int s[256];
    unsigned t = threadIdx.x;
    s[t] = x[blockIdx.x * blockDim.x + t];
    if (WithFirstBarrier)
        __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0)
        block_sums[blockIdx.x] = s[0];
}

cudaError_t launch_reduce_tree(const int *x, int *block_sums, unsigned grid, int with_first_barrier)
{
    void *args[] = {&x, &block_sums};
    const void *k = with_first_barrier ? DT_KERNEL_ADDRESS(k_reduce_tree<1>) : DT_KERNEL_ADDRESS(k_reduce_tree<0>);
    return cudaLaunchKernel(k, dim3(grid), dim3(256), args, 0, 0);
}

/* dynamic shared memory: each block reverses its slice */
__global__ void k_reverse_dyn(const int *x, int *y)
{
    DT_DYNAMIC_SHARED(int, s);
    unsigned t = threadIdx.x, n = blockDim.x, base = blockIdx.x * n;
    s[t] = x[base + t];
    __syncthreads();
    y[base + t] = s[n - 1 - t];
}

cudaError_t launch_reverse_dyn(const int *x, int *y, unsigned grid, unsigned block, size_t shared)
{
    void *args[] = {&x, &y};
    return cudaLaunchKernel(DT_KERNEL_ADDRESS(k_reverse_dyn), dim3(grid), dim3(block), args, shared, 0);
}

/* __syncthreads_count / _and / _or of (t % 3 == 0) */
__global__ void k_sync_reduce(int *out)
{
    int p = threadIdx.x % 3 == 0;
    int c = __syncthreads_count(p);
    int a = __syncthreads_and(p);
    int o = __syncthreads_or(p);
    int all = __syncthreads_and(1);
    if (threadIdx.x == 0) {
        out[0] = c;
        out[1] = a;
        out[2] = o;
        out[3] = all;
    }
}

cudaError_t launch_sync_reduce(int *out, unsigned block)
{
    void *args[] = {&out};
    return cudaLaunchKernel(DT_KERNEL_ADDRESS(k_sync_reduce), dim3(1), dim3(block), args, 0, 0);
}

/* threads past n return before the barrier: it must still complete */
__global__ void k_early_exit(int *out, int n)
{
    __shared__ int s[256];
    unsigned t = threadIdx.x;
    if ((int)t >= n)
        return;
    s[t] = (int)t;
    __syncthreads();
    out[t] = s[n - 1 - (int)t];
}

cudaError_t launch_early_exit(int *out, int n)
{
    void *args[] = {&out, &n};
    return cudaLaunchKernel(DT_KERNEL_ADDRESS(k_early_exit), dim3(1), dim3(256), args, 0, 0);
}

/* ---------------------------------------------------------------------------
 * Warp intrinsics: out[kind][lane] for one warp.
 */
__global__ void k_shuffles(const int *in, int *out, int width, int arg)
{
    unsigned l = threadIdx.x;
    int v = in[l];
    out[0 * 32 + l] = __shfl_sync(0xffffffffu, v, arg, width);
    out[1 * 32 + l] = __shfl_up_sync(0xffffffffu, v, (unsigned)arg, width);
    out[2 * 32 + l] = __shfl_down_sync(0xffffffffu, v, (unsigned)arg, width);
    out[3 * 32 + l] = __shfl_xor_sync(0xffffffffu, v, arg, width);
}

cudaError_t launch_shuffles(const int *in, int *out, int width, int arg)
{
    void *args[] = {&in, &out, &width, &arg};
    return cudaLaunchKernel(DT_KERNEL_ADDRESS(k_shuffles), dim3(1), dim3(32), args, 0, 0);
}

/* shuffles of 64-bit and float values, and within half a warp */
__global__ void k_shuffle_types(double *d, long long *ll, float *f, int *half)
{
    unsigned l = threadIdx.x;
    d[l] = __shfl_xor_sync(0xffffffffu, 1.5 * l, 1);
    ll[l] = __shfl_sync(0xffffffffu, (long long)l << 40, 31 - (int)l);
    f[l] = __shfl_down_sync(0xffffffffu, 0.25f * l, 3);
    if (l < 16)
        half[l] = __shfl_xor_sync(0x0000ffffu, (int)l, 8);
    else
        half[l] = __shfl_xor_sync(0xffff0000u, (int)l, 8);
}

cudaError_t launch_shuffle_types(double *d, long long *ll, float *f, int *half)
{
    void *args[] = {&d, &ll, &f, &half};
    return cudaLaunchKernel(DT_KERNEL_ADDRESS(k_shuffle_types), dim3(1), dim3(32), args, 0, 0);
}

/* votes of (lane % 3 == 0) on the full warp, and of lane < 20 on lanes 0-15 */
__global__ void k_votes(unsigned *out)
{
    unsigned l = threadIdx.x % 32, w = threadIdx.x / 32;
    unsigned *o = out + w * 8;
    unsigned active = __activemask(); /* converged: every lane */
    int p = l % 3 == 0;
    unsigned b = __ballot_sync(0xffffffffu, p);
    int all = __all_sync(0xffffffffu, p), any = __any_sync(0xffffffffu, p);
    int none = __any_sync(0xffffffffu, 0), every = __all_sync(0xffffffffu, 1);
    __syncwarp();
    if (l == 0) {
        o[0] = b;
        o[1] = (unsigned)all;
        o[2] = (unsigned)any;
        o[3] = (unsigned)none;
        o[4] = (unsigned)every;
    }
    if (l < 16) {
        unsigned bh = __ballot_sync(0x0000ffffu, l < 20);
        int ah = __all_sync(0x0000ffffu, l < 20);
        if (l == 0) {
            o[5] = bh;
            o[6] = (unsigned)ah;
            o[7] = active;
        }
    }
}

cudaError_t launch_votes(unsigned *out, unsigned block)
{
    void *args[] = {&out};
    return cudaLaunchKernel(DT_KERNEL_ADDRESS(k_votes), dim3(1), dim3(block), args, 0, 0);
}

/* __syncwarp waits only for lanes that have not exited (and exist: 48
 * threads make a second warp of 16 lanes) */
__global__ void k_syncwarp_exited(int *out)
{
    __shared__ int s[64];
    unsigned t = threadIdx.x, l = t % 32;
    if (l >= 20)
        return;
    s[t] = (int)t;
    __syncwarp();
    out[t] = s[t - l + (l ^ 1u)];
}

cudaError_t launch_syncwarp_exited(int *out)
{
    void *args[] = {&out};
    return cudaLaunchKernel(DT_KERNEL_ADDRESS(k_syncwarp_exited), dim3(1), dim3(48), args, 0, 0);
}

/* ---------------------------------------------------------------------------
 * Atomics, every type: each of `threads` threads of every block adds.
 */
__global__ void k_atomics(AtomicCells *c)
{
    int t = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    atomicAdd(&c->i_add, 1);
    atomicSub(&c->i_sub, 2);
    atomicAdd(&c->u_add, 3u);
    atomicSub(&c->u_sub, 1u);
    atomicAdd(&c->ull_add, 1ull << 33);
    atomicAdd(&c->f_add, 0.5f);
    atomicAdd(&c->d_add, 0.25);
    atomicMax(&c->i_max, t - 100);
    atomicMin(&c->i_min, 100 - t);
    atomicMax(&c->u_max, (unsigned)t);
    atomicMin(&c->u_min, (unsigned)t + 5u);
    atomicMax(&c->ll_max, (long long)t << 35);
    atomicMin(&c->ull_min, (unsigned long long)(t + 7) << 34);
    atomicAnd(&c->i_and, ~(1 << (t % 31)));
    atomicOr(&c->u_or, 1u << (t % 32));
    atomicXor(&c->ull_xor, 1ull << (t % 64));
    atomicExch(&c->i_exch, 42);
    atomicExch(&c->f_exch, 2.5f);
    atomicExch(&c->ull_exch, 7ull);
    atomicInc(&c->u_inc, 9u);
    atomicDec(&c->u_dec, 9u);
    /* an increment by compare-and-swap */
    unsigned long long old = c->ull_cas, seen;
    do {
        seen = old;
        old = atomicCAS(&c->ull_cas, seen, seen + 2);
    } while (old != seen);
    int iold = c->i_cas, iseen;
    do {
        iseen = iold;
        iold = atomicCAS(&c->i_cas, iseen, iseen + 1);
    } while (iold != iseen);
}

cudaError_t launch_atomics(AtomicCells *c, unsigned grid, unsigned block)
{
    void *args[] = {&c};
    return cudaLaunchKernel(DT_KERNEL_ADDRESS(k_atomics), dim3(grid), dim3(block), args, 0, 0);
}

/* ---------------------------------------------------------------------------
 * Faults.
 */
/* half the block at one __syncthreads, half at another */
__global__ void k_divergent_barrier(int *out)
{
    if (threadIdx.x < 16) {
        __syncthreads();
        out[threadIdx.x] = 1;
    } else {
        __syncthreads();
        out[threadIdx.x] = 2;
    }
}

/* lane 5 has returned when the others shuffle with the full mask */
__global__ void k_shfl_exited(int *out)
{
    if (threadIdx.x == 5)
        return;
    out[threadIdx.x] = __shfl_sync(0xffffffffu, (int)threadIdx.x, 0);
}

/* 48 threads: the second warp has 16 lanes, and names 32 */
__global__ void k_shfl_absent(int *out)
{
    out[threadIdx.x] = __shfl_down_sync(0xffffffffu, (int)threadIdx.x, 1);
}

/* a mask without the caller's own lane */
__global__ void k_syncwarp_not_self(int *out)
{
    __syncwarp(0xfffffffeu);
    out[threadIdx.x] = 1;
}

/* lane 0 waits at a shuffle for lane 1, which waits at __syncthreads */
__global__ void k_warp_vs_barrier(int *out)
{
    if (threadIdx.x == 0)
        out[0] = __shfl_sync(0x3u, 1, 1);
    else
        __syncthreads();
}

/* unbounded recursion with a big frame */
__device__ __noinline__ int deep(volatile char *prev, int depth)
{
    volatile char frame[2048];
    frame[0] = (char)depth;
    frame[2047] = prev != nullptr ? prev[0] : 0;
    if (depth > 1000000)
        return frame[0];
    return deep(frame, depth + 1) + frame[2047];
}

__global__ void k_stack_overflow(int *out)
{
    out[threadIdx.x] = threadIdx.x == 3 ? deep(nullptr, 0) : 0;
}

/* one thread too many for the static __shared__ array (AddressSanitizer) */
__global__ void k_shared_overrun(int *out)
{
    __shared__ int s[64];
    s[threadIdx.x] = (int)threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = s[63 - threadIdx.x % 64];
}

cudaError_t launch_fault(int which, int *out, unsigned block)
{
    void *args[] = {&out};
    const void *k = which == FAULT_DIVERGENT_BARRIER ? DT_KERNEL_ADDRESS(k_divergent_barrier)
                    : which == FAULT_SHFL_EXITED     ? DT_KERNEL_ADDRESS(k_shfl_exited)
                    : which == FAULT_SHFL_ABSENT     ? DT_KERNEL_ADDRESS(k_shfl_absent)
                    : which == FAULT_SYNCWARP_SELF   ? DT_KERNEL_ADDRESS(k_syncwarp_not_self)
                    : which == FAULT_WARP_VS_BARRIER ? DT_KERNEL_ADDRESS(k_warp_vs_barrier)
                    : which == FAULT_STACK_OVERFLOW  ? DT_KERNEL_ADDRESS(k_stack_overflow)
                                                     : DT_KERNEL_ADDRESS(k_shared_overrun);
    return cudaLaunchKernel(k, dim3(1), dim3(block), args, 0, 0);
}

/* ---------------------------------------------------------------------------
 * Launch configuration: the kernel is trivial, the configuration is not.
 */
__global__ void k_nothing(int *out)
{
    if (out != nullptr)
        out[0] = 1;
}

cudaError_t launch_nothing(dim3 grid, dim3 block, size_t shared)
{
    int *out = nullptr;
    void *args[] = {&out};
    return cudaLaunchKernel(DT_KERNEL_ADDRESS(k_nothing), grid, block, args, shared, 0);
}

/* a host function is not a kernel */
void not_a_kernel(int *) {}

cudaError_t launch_unregistered(void)
{
    int *out = nullptr;
    void *args[] = {&out};
    return cudaLaunchKernel((const void *)&not_a_kernel, dim3(1), dim3(1), args, 0, 0);
}
