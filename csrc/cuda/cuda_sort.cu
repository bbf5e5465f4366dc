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
 * 4-bit digit per pass, three kernels over tiles of kTile pairs, each block
 * a run of tiles_per_block tiles in order:
 * - k_sort_count: each thread counts the digits of its items of each tile,
 *   read striped (coalesced); the block's count of each digit goes to
 *   counts[digit * blocks + b];
 * - k_sort_starts (one block): the exclusive scan of counts in that
 *   order, digit-major, so digit d of block b starts after every smaller
 *   digit and after digit d of the blocks before b;
 * - k_sort_scatter, per tile: the tile is read striped into shared memory;
 *   thread t takes the kItems pairs [t * kItems, (t + 1) * kItems), the
 *   block scans the (digit, thread) counts digit-major, and each pair goes
 *   to its place in the tile sorted by digit (stable: threads and items in
 *   order); then the sorted tile is written striped, each digit's pairs
 *   after those of the tiles and blocks before: runs of neighbouring
 *   places, so the writes coalesce.
 * k_sort_finish writes the positions within rows, or the elements they
 * name.  Work: two key and two position buffers (32 bytes an element) and
 * the counts (16 * blocks int64) in the last MiB.  CUB's onesweep sort (8
 * bits a pass, one kernel, 32-bit keys where they fit) is the measure of
 * what this leaves: on an H200 the first version of this file, a
 * contiguous run per thread read and written uncoalesced, sorted 2^26
 * float32 in 148 ms against CuPy's 1.8 ms.
 *
 * Note [CUB's radix sort]
 * Each word's passes are CUB's DeviceRadixSort::SortPairs by default
 * (onesweep, 8 bits a pass; stable, so word after word composes as here),
 * over the same key and position double buffers, bits [0, bits) of the
 * word only; its temporary storage comes from the caching allocator.  In
 * the emulation CUB is csrc/emu/emu_cub.cpp's reference (Note [CUDA
 * libraries on the CPU]), so this calling code runs in CI.
 * DEVTENSOR_CUDA_OWN_SORT=1 runs the passes above instead, on a GPU as in
 * the emulation: CI's random-thread-order stage sets it, so that their
 * barriers run in both orders, and a GPU check can time both sorts.
 */
#include "cuda_loops.cuh"

#include "env.h"

#include <cub/device/device_radix_sort.cuh>

#include "loop_check.h"
#include "sort_keys.h"

namespace {

using namespace dt_cuda_kernels;

constexpr int kDigits = 16;
constexpr int kItems = 8;                    /* a thread's pairs in a tile */
constexpr int kTile = kThreads * kItems;
#if defined(DEVTENSOR_EMULATED)
constexpr int64_t kMaxBlocks = 4;            /* so that CI runs blocks of many tiles */
#else
constexpr int64_t kMaxBlocks = 4096;         /* the counts fit the work memory's last MiB */
#endif
constexpr int kStartsThreads = 1024;

struct SortArgs {
    const char *in;
    char *out;
    unsigned long long *keys_in, *keys_out;
    long long *pos_in, *pos_out;
    long long *counts;       /* kDigits * blocks */
    int64_t numel, len, tiles_per_block;
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

__device__ inline int digit_of(unsigned long long key, int shift)
{
    return (int)((key >> shift) & (kDigits - 1));
}

/* a byte counter per digit, digits 0-7 in lo and 8-15 in hi (a tile gives
 * a thread at most kItems of a digit) */
__device__ inline void count_digit(unsigned long long *lo, unsigned long long *hi, int d)
{
    unsigned long long one = 1ull << ((d & 7) * 8);
    if (d < 8)
        *lo += one;
    else
        *hi += one;
}

__device__ inline unsigned digit_count(unsigned long long lo, unsigned long long hi, int d)
{
    return (unsigned)(((d < 8 ? lo : hi) >> ((d & 7) * 8)) & 0xff);
}

__global__ void __launch_bounds__(kThreads) k_sort_count(SortArgs a)
{
    __shared__ unsigned cnt[kDigits][kThreads];
    unsigned mine[kDigits];
#pragma unroll
    for (int d = 0; d < kDigits; d++)
        mine[d] = 0;
    int64_t first = (int64_t)blockIdx.x * a.tiles_per_block;
    for (int64_t tile = first; tile < first + a.tiles_per_block && tile * kTile < a.numel; tile++) {
        unsigned long long lo = 0, hi = 0;
#pragma unroll
        for (int i = 0; i < kItems; i++) {
            int64_t at = tile * kTile + i * kThreads + threadIdx.x;
            if (at < a.numel)
                count_digit(&lo, &hi, digit_of(a.keys_in[at], a.shift));
        }
#pragma unroll
        for (int d = 0; d < kDigits; d++)
            mine[d] += digit_count(lo, hi, d);
    }
#pragma unroll
    for (int d = 0; d < kDigits; d++)
        cnt[d][threadIdx.x] = mine[d];
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

/* the block's exclusive scan of off[d][t], digit-major (each thread kDigits
 * neighbouring entries, then the threads' sums) */
__device__ void scan_digit_counts(unsigned short (*off)[kThreads], unsigned *part)
{
    unsigned short *flat = &off[0][0];
    int mine = (int)threadIdx.x * kDigits;
    unsigned sum = 0;
    for (int i = 0; i < kDigits; i++)
        sum += flat[mine + i];
    part[threadIdx.x] = sum;
    __syncthreads();
    for (unsigned step = 1; step < kThreads; step *= 2) {
        unsigned v = threadIdx.x >= step ? part[threadIdx.x - step] : 0;
        __syncthreads();
        part[threadIdx.x] += v;
        __syncthreads();
    }
    unsigned run = threadIdx.x > 0 ? part[threadIdx.x - 1] : 0;
    for (int i = 0; i < kDigits; i++) {
        unsigned c = flat[mine + i];
        flat[mine + i] = (unsigned short)run;
        run += c;
    }
}

__global__ void __launch_bounds__(kThreads) k_sort_scatter(SortArgs a)
{
    __shared__ unsigned long long tile_keys[kTile];
    __shared__ long long tile_pos[kTile];
    __shared__ unsigned short off[kDigits][kThreads];
    __shared__ unsigned part[kThreads];
    __shared__ long long next[kDigits];      /* where this block's next pair of each digit goes */
    __shared__ int start[kDigits + 1];       /* each digit's first place in the sorted tile */
    if (threadIdx.x < kDigits)
        next[threadIdx.x] = a.counts[(int64_t)threadIdx.x * a.blocks + blockIdx.x];
    int64_t first = (int64_t)blockIdx.x * a.tiles_per_block;
    for (int64_t tile = first; tile < first + a.tiles_per_block && tile * kTile < a.numel; tile++) {
        int64_t base = tile * kTile;
        int n = a.numel - base < kTile ? (int)(a.numel - base) : kTile;
        for (int j = threadIdx.x; j < n; j += kThreads) {
            tile_keys[j] = a.keys_in[base + j];
            tile_pos[j] = a.pos_in[base + j];
        }
        __syncthreads();
        unsigned long long key[kItems];
        long long pos[kItems];
        int digit[kItems];
        unsigned long long lo = 0, hi = 0;
        int mine = (int)threadIdx.x * kItems;
#pragma unroll
        for (int i = 0; i < kItems; i++) {
            digit[i] = -1;
            if (mine + i < n) {
                key[i] = tile_keys[mine + i];
                pos[i] = tile_pos[mine + i];
                digit[i] = digit_of(key[i], a.shift);
                count_digit(&lo, &hi, digit[i]);
            }
        }
#pragma unroll
        for (int d = 0; d < kDigits; d++)
            off[d][threadIdx.x] = (unsigned short)digit_count(lo, hi, d);
        __syncthreads();
        scan_digit_counts(off, part); /* ends with a barrier: every run is read */
        __syncthreads();
        if (threadIdx.x < kDigits)
            start[threadIdx.x] = off[threadIdx.x][0];
        if (threadIdx.x == 0)
            start[kDigits] = n;
#pragma unroll
        for (int i = 0; i < kItems; i++) {
            if (digit[i] < 0)
                continue;
            int before = 0; /* my earlier pairs of the same digit */
#pragma unroll
            for (int j = 0; j < i; j++)
                before += digit[j] == digit[i];
            int to = off[digit[i]][threadIdx.x] + before;
            tile_keys[to] = key[i];
            tile_pos[to] = pos[i];
        }
        __syncthreads();
        for (int j = threadIdx.x; j < n; j += kThreads) {
            unsigned long long k = tile_keys[j];
            int d = digit_of(k, a.shift);
            int64_t to = next[d] + (j - start[d]);
            a.keys_out[to] = k;
            a.pos_out[to] = tile_pos[j];
        }
        __syncthreads();
        if (threadIdx.x < kDigits)
            next[threadIdx.x] += start[threadIdx.x + 1] - start[threadIdx.x];
        __syncthreads();
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

/* bits [0, bits) of the current word sorted by the passes of this file,
 * 4 bits each (Note [Radix sort kernels]); *cur names the buffers that hold
 * the result */
dt_status own_passes(SortArgs &a, unsigned long long **keys, long long **pos, int *cur, int bits,
                     cudaStream_t stream, int device, dt_error *err)
{
    void *args[] = {&a};
    for (int shift = 0; shift < bits; shift += 4) {
        a.shift = shift;
        a.keys_in = keys[*cur];
        a.pos_in = pos[*cur];
        a.keys_out = keys[1 - *cur];
        a.pos_out = pos[1 - *cur];
        DT_TRY(launch_result(cudaLaunchKernel(DT_KERNEL_ADDRESS(k_sort_count), dim3(a.blocks), dim3(kThreads), args,
                                              0, stream),
                             "sort", device, err));
        DT_TRY(launch_result(cudaLaunchKernel(DT_KERNEL_ADDRESS(k_sort_starts), dim3(1), dim3(kStartsThreads), args,
                                              0, stream),
                             "sort", device, err));
        DT_TRY(launch_result(cudaLaunchKernel(DT_KERNEL_ADDRESS(k_sort_scatter), dim3(a.blocks), dim3(kThreads),
                                              args, 0, stream),
                             "sort", device, err));
        *cur = 1 - *cur;
    }
    return DT_OK;
}

/* Note [CUB's radix sort]: CUB's sort of the current word's bits [0, bits);
 * temp == NULL asks only for *temp_bytes (bits 0..64, the most any word
 * needs) */
dt_status cub_passes(int64_t numel, unsigned long long **keys, long long **pos, int *cur, int bits, void *temp,
                     size_t *temp_bytes, cudaStream_t stream, int device, dt_error *err)
{
    cub::DoubleBuffer<unsigned long long> k(keys[*cur], keys[1 - *cur]);
    cub::DoubleBuffer<long long> v(pos[*cur], pos[1 - *cur]);
    DT_TRY(dt_cuda_check(cub::DeviceRadixSort::SortPairs(temp, *temp_bytes, k, v, numel, 0, bits, stream),
                         "cub::DeviceRadixSort::SortPairs", device, err));
    if (temp != NULL) /* the sorted positions: the next word's keys are filled from them */
        *cur = v.Current() == pos[0] ? 0 : 1;
    return DT_OK;
}

bool use_cub()
{
    static const bool on = [] {
        int own = 0; /* unset or malformed: CUB (Note [Environment variables]) */
        return dt_env_flag("DEVTENSOR_CUDA_OWN_SORT", &own) != 1 || own == 0;
    }();
    return on;
}

dt_status sort_words(const dt_sort_loop *l, SortArgs &a, unsigned long long **keys, long long **pos, void *temp,
                     size_t temp_bytes, cudaStream_t stream, dt_error *err)
{
    dt_sort_kind kind = dt_sort_kind_of(l->dtype);
    unsigned grid = grid_for(a.numel, l->device_index);
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
        if (temp != NULL) {
            DT_TRY(cub_passes(a.numel, keys, pos, &cur, bits, temp, &temp_bytes, stream, l->device_index, err));
            continue;
        }
        DT_TRY(own_passes(a, keys, pos, &cur, bits, stream, l->device_index, err));
    }
    a.pos_in = pos[cur];
    return launch_result(cudaLaunchKernel(DT_KERNEL_ADDRESS(k_sort_finish), dim3(grid), dim3(kThreads), args, 0,
                                          stream),
                         "sort", l->device_index, err);
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
    int64_t tiles = (numel + kTile - 1) / kTile;
    a.tiles_per_block = (tiles + kMaxBlocks - 1) / kMaxBlocks;
    a.blocks = (int)((tiles + a.tiles_per_block - 1) / a.tiles_per_block);
    if (use_cub()) {
        size_t temp_bytes = 0;
        int cur = 0;
        DT_TRY(cub_passes(numel, keys, pos, &cur, 64, NULL, &temp_bytes, stream, l->device_index, err));
        void *temp, *ctx;
        DT_TRY(dt_cuda_alloc(l->device_index, temp_bytes > 0 ? temp_bytes : 1, l->stream, &temp, &ctx, err));
        dt_status st = sort_words(l, a, keys, pos, temp, temp_bytes, stream, err);
        dt_cuda_free(l->device_index, temp, ctx); /* stream-ordered: Note [Streams and reuse] */
        return st;
    }
    return sort_words(l, a, keys, pos, NULL, 0, stream, err);
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
