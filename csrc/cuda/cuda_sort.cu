/* cuda_sort.cu - the CUDA backend's sort (backend.h's dt_sort_loop): a
 * stable LSD radix sort of (key, position) pairs over the whole tensor,
 * radix keys as sort_keys.h makes them; run on the CPU by the emulation in
 * CI.
 *
 * Note [Radix sort kernels]
 * Every element is a (64-bit key word, int64 position) pair; positions
 * count over the whole tensor, so that rows are sorted by one more word,
 * the row (position / len), after the element's own words.  For each word:
 * k_sort_fill loads the word of the element each position names; then one
 * 4-bit digit per pass, three kernels:
 * - k_sort_count: block b owns a tile of kThreads * items pairs, each
 *   thread a contiguous run of `items`; the block's count of each digit
 *   goes to counts[digit * blocks + b];
 * - k_sort_starts (one block): the exclusive scan of counts in that
 *   order, digit-major, so digit d of block b starts after every smaller
 *   digit and after digit d of the blocks before b;
 * - k_sort_scatter: each thread counts its run again, the block's
 *   threads' counts are scanned per digit in shared memory, and each
 *   thread moves its run in order: stable, as runs and blocks are in order.
 * k_sort_finish writes the positions within rows, or the elements they
 * name.  Work: two key and two position buffers (32 bytes an element) and
 * the counts (16 * blocks int64) in the last MiB; blocks <= 4096 by giving
 * a thread more items.  Moves are per thread, not coalesced: CUB's onesweep
 * sort is the measure of what this leaves (not measured: no GPU yet).
 */
#include "cuda_loops.cuh"

#include "loop_check.h"
#include "sort_keys.h"

namespace {

using namespace dt_cuda_kernels;

constexpr int kDigits = 16;
constexpr int64_t kMaxBlocks = 4096;
constexpr int kStartsThreads = 1024;

struct SortArgs {
    const char *in;
    char *out;
    unsigned long long *keys_in, *keys_out;
    long long *pos_in, *pos_out;
    long long *counts;       /* kDigits * blocks */
    int64_t numel, len, items;
    int blocks, shift, word, words, item, descending, arg, dtype;
};

__device__ uint64_t load_bits(const char *p, int bytes)
{
    if (bytes == 1)
        return *(const unsigned char *)p;
    if (bytes == 2)
        return *(const unsigned short *)p;
    if (bytes == 4)
        return *(const unsigned int *)p;
    return *(const unsigned long long *)p;
}

/* the key word `word` of the element at position at (the last word: its row) */
__device__ uint64_t word_at(const SortArgs &a, int64_t at)
{
    if (a.word == a.words)
        return (uint64_t)(at / a.len);
    dt_sort_kind k = dt_sort_kind_of(a.dtype);
    const char *p = a.in + at * a.item;
    if (k.kind != 3)
        return dt_sort_key(&k, load_bits(p, a.item), 1, a.descending);
    return dt_sort_complex_word(&k, load_bits(p, a.item / 2), load_bits(p + a.item / 2, a.item / 2), a.word,
                                a.descending);
}

__global__ void k_sort_fill(SortArgs a)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < a.numel;
         i += (int64_t)gridDim.x * blockDim.x) {
        int64_t at = a.word == 0 ? i : a.pos_in[i];
        a.keys_in[i] = word_at(a, at);
        a.pos_in[i] = at;
    }
}

/* the run of thread t of block b: [*lo, *hi) */
__device__ void run_of(const SortArgs &a, int64_t *lo, int64_t *hi)
{
    int64_t begin = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) * a.items;
    *lo = begin < a.numel ? begin : a.numel;
    *hi = begin + a.items < a.numel ? begin + a.items : a.numel;
}

/* cnt[d][t] = thread t's count of digit d in its run */
__device__ void count_run(const SortArgs &a, unsigned (*cnt)[kThreads])
{
    unsigned mine[kDigits];
    for (int d = 0; d < kDigits; d++)
        mine[d] = 0;
    int64_t lo, hi;
    run_of(a, &lo, &hi);
    for (int64_t i = lo; i < hi; i++)
        mine[(a.keys_in[i] >> a.shift) & (kDigits - 1)]++;
    for (int d = 0; d < kDigits; d++)
        cnt[d][threadIdx.x] = mine[d];
}

__global__ void __launch_bounds__(kThreads) k_sort_count(SortArgs a)
{
    __shared__ unsigned cnt[kDigits][kThreads];
    count_run(a, cnt);
    __syncthreads();
    if (threadIdx.x < kDigits) {
        long long total = 0;
        for (int t = 0; t < kThreads; t++)
            total += cnt[threadIdx.x][t];
        a.counts[(int64_t)threadIdx.x * a.blocks + blockIdx.x] = total;
    }
}

__global__ void __launch_bounds__(kStartsThreads) k_sort_starts(SortArgs a)
{
    __shared__ long long part[kStartsThreads];
    int64_t n = (int64_t)kDigits * a.blocks, per = (n + kStartsThreads - 1) / kStartsThreads;
    int64_t lo = threadIdx.x * per < n ? threadIdx.x * per : n, hi = lo + per < n ? lo + per : n;
    long long sum = 0;
    for (int64_t i = lo; i < hi; i++)
        sum += a.counts[i];
    part[threadIdx.x] = sum;
    __syncthreads();
    for (int step = 1; step < kStartsThreads; step *= 2) { /* inclusive scan of the parts */
        long long v = threadIdx.x >= (unsigned)step ? part[threadIdx.x - step] : 0;
        __syncthreads();
        part[threadIdx.x] += v;
        __syncthreads();
    }
    long long run = threadIdx.x > 0 ? part[threadIdx.x - 1] : 0;
    for (int64_t i = lo; i < hi; i++) {
        long long c = a.counts[i];
        a.counts[i] = run;
        run += c;
    }
}

__global__ void __launch_bounds__(kThreads) k_sort_scatter(SortArgs a)
{
    __shared__ unsigned cnt[kDigits][kThreads];
    count_run(a, cnt);
    __syncthreads();
    if (threadIdx.x < kDigits) { /* exclusive scan of each digit's counts over the threads */
        unsigned run = 0;
        for (int t = 0; t < kThreads; t++) {
            unsigned c = cnt[threadIdx.x][t];
            cnt[threadIdx.x][t] = run;
            run += c;
        }
    }
    __syncthreads();
    int64_t at[kDigits];
    for (int d = 0; d < kDigits; d++)
        at[d] = a.counts[(int64_t)d * a.blocks + blockIdx.x] + cnt[d][threadIdx.x];
    int64_t lo, hi;
    run_of(a, &lo, &hi);
    for (int64_t i = lo; i < hi; i++) {
        unsigned long long k = a.keys_in[i];
        int64_t to = at[(k >> a.shift) & (kDigits - 1)]++;
        a.keys_out[to] = k;
        a.pos_out[to] = a.pos_in[i];
    }
}

__global__ void k_sort_finish(SortArgs a)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < a.numel;
         i += (int64_t)gridDim.x * blockDim.x) {
        int64_t at = a.pos_in[i];
        if (a.arg) {
            ((long long *)a.out)[i] = at % a.len;
        } else {
            const char *from = a.in + at * a.item;
            char *to = a.out + i * a.item;
            for (int b = 0; b < a.item; b++)
                to[b] = from[b];
        }
    }
}

int bit_length(uint64_t v)
{
    int n = 0;
    while (v != 0) {
        n++;
        v >>= 1;
    }
    return n;
}

dt_status sort_launch(const dt_sort_loop *l, cudaStream_t stream, dt_error *err)
{
    SortArgs a;
    memset(&a, 0, sizeof a);
    int64_t numel = l->n_rows * l->len;
    char *work = (char *)l->work;
    unsigned long long *keys[2] = {(unsigned long long *)work, (unsigned long long *)work + numel};
    long long *pos[2] = {(long long *)work + 2 * numel, (long long *)work + 3 * numel};
    dt_sort_kind kind = dt_sort_kind_of(l->dtype);
    a.in = l->in;
    a.out = l->out;
    a.counts = (long long *)(work + 32 * numel);
    a.numel = numel;
    a.len = l->len;
    a.item = dt_dtype_get_info(l->dtype)->itemsize;
    a.descending = l->descending;
    a.arg = l->arg;
    a.dtype = (int)l->dtype;
    a.words = dt_sort_word_count(&kind);
    int64_t tile = (numel + kMaxBlocks - 1) / kMaxBlocks;
    a.items = (tile + kThreads - 1) / kThreads;
    if (a.items < 16)
        a.items = 16;
    a.blocks = (int)((numel + a.items * kThreads - 1) / (a.items * kThreads));
    unsigned grid = grid_for(numel, l->device_index);
    void *args[] = {&a};
    int cur = 0;
    int last = l->n_rows > 1 ? a.words : a.words - 1;
    for (int w = 0; w <= last; w++) {
        int bits = w == a.words ? bit_length((uint64_t)(l->n_rows - 1)) : dt_sort_word_bits(&kind, w);
        a.word = w;
        a.keys_in = keys[cur];
        a.pos_in = pos[cur];
        DT_TRY(launch_result(cudaLaunchKernel(DT_KERNEL_ADDRESS(k_sort_fill), dim3(grid), dim3(kThreads), args, 0,
                                              stream),
                             "sort", l->device_index, err));
        for (int shift = 0; shift < bits; shift += 4) {
            a.shift = shift;
            a.keys_in = keys[cur];
            a.pos_in = pos[cur];
            a.keys_out = keys[1 - cur];
            a.pos_out = pos[1 - cur];
            DT_TRY(launch_result(cudaLaunchKernel(DT_KERNEL_ADDRESS(k_sort_count), dim3(a.blocks), dim3(kThreads),
                                                  args, 0, stream),
                                 "sort", l->device_index, err));
            DT_TRY(launch_result(cudaLaunchKernel(DT_KERNEL_ADDRESS(k_sort_starts), dim3(1), dim3(kStartsThreads),
                                                  args, 0, stream),
                                 "sort", l->device_index, err));
            DT_TRY(launch_result(cudaLaunchKernel(DT_KERNEL_ADDRESS(k_sort_scatter), dim3(a.blocks),
                                                  dim3(kThreads), args, 0, stream),
                                 "sort", l->device_index, err));
            cur = 1 - cur;
        }
    }
    a.pos_in = pos[cur];
    return launch_result(cudaLaunchKernel(DT_KERNEL_ADDRESS(k_sort_finish), dim3(grid), dim3(kThreads), args, 0,
                                          stream),
                         "sort", l->device_index, err);
}

} // namespace

extern "C" dt_status dt_cuda_sort_run(const dt_sort_loop *l, dt_error *err)
{
    DT_TRY(dt_sort_loop_check(l, err));
    cudaStream_t stream;
    DT_TRY(dt_cuda_stream_resolve(l->device_index, l->stream, NULL, &stream, err));
    dt_cuda_guard g;
    DT_TRY(dt_cuda_guard_enter(&g, l->device_index, err));
    (void)cudaGetLastError();
    dt_status st = sort_launch(l, stream, err);
    dt_cuda_guard_exit(&g);
    return st;
}
