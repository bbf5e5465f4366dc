/* emu_cub.cpp - CUB's DeviceRadixSort::SortPairs on the CPU: a plain
 * reference of exactly the call csrc/cuda makes (declared by our own
 * csrc/emu/include/cub/device/device_radix_sort.cuh), its temporary-storage
 * protocol and argument checks, with the sort queued on the stream like
 * CUB's kernels, so that the calling code runs in CI on emulated devices
 * (Note [CUDA libraries on the CPU] in emu_runtime.h).  Correct before
 * fast: std::stable_sort of the pairs by the key bits asked for.
 *
 * Note [The emulated CUB's buffers]
 * CUB's onesweep sort makes one pass per 8 bits, each from one buffer of
 * the pair to the other, so the sorted keys and values end in the
 * alternate buffers after an odd number of passes and in the current ones
 * after an even number; the reference does the same, so that the caller's
 * handling of both outcomes runs (a float32 key's 32 bits: 4 passes; a row
 * word of a few bits: 1).  The temporary storage asked for is what a
 * histogram per pass and a lookback word per tile of 4096 items would
 * take; the reference fills it with garbage, as the library leaves it.
 */
#include <cub/device/device_radix_sort.cuh>

#include "emu_library.h"
#include "emu_runtime.h"

#include <stdint.h>
#include <string.h>

#include <algorithm>
#include <new>
#include <utility>
#include <vector>

namespace {

using dt_emu::accessible;
using dt_emu::current_device;

constexpr int64_t kTileItems = 4096;

struct Job {
    unsigned long long *keys_in, *keys_out;
    long long *values_in, *values_out;
    void *temp;
    size_t temp_bytes;
    int64_t n;
    int begin, end;
};

cudaError_t job_run(void *arg)
{
    const Job &j = *static_cast<Job *>(arg);
    memset(j.temp, 0xFF, j.temp_bytes); /* the library's scratch: nothing to rely on */
    unsigned long long mask = j.end - j.begin >= 64 ? ~0ull : ((1ull << (j.end - j.begin)) - 1);
    std::vector<std::pair<unsigned long long, long long>> pairs;
    try {
        pairs.resize((size_t)j.n);
    } catch (const std::bad_alloc &) {
        return cudaErrorMemoryAllocation; /* (host memory for the reference; no exception leaves) */
    }
    for (int64_t i = 0; i < j.n; i++)
        pairs[(size_t)i] = {j.keys_in[i], j.values_in[i]};
    std::stable_sort(pairs.begin(), pairs.end(), [&](const auto &a, const auto &b) {
        return ((a.first >> j.begin) & mask) < ((b.first >> j.begin) & mask);
    });
    for (int64_t i = 0; i < j.n; i++) {
        j.keys_out[i] = pairs[(size_t)i].first;
        j.values_out[i] = pairs[(size_t)i].second;
    }
    return cudaSuccess;
}

void job_release(void *arg) { delete static_cast<Job *>(arg); }

} // namespace

extern "C" cudaError_t emu_cub_sort_pairs_u64_i64(void *temp, size_t *temp_bytes, unsigned long long *keys[2],
                                                  long long *values[2], int *selector, int64_t num_items,
                                                  int begin_bit, int end_bit, cudaStream_t stream)
{
    if (temp_bytes == nullptr || selector == nullptr || (*selector != 0 && *selector != 1))
        return cudaErrorInvalidValue;
    if (num_items < 0 || begin_bit < 0 || end_bit > 64)
        return cudaErrorInvalidValue;
    int bits = end_bit > begin_bit ? end_bit - begin_bit : 0;
    int passes = (bits + 7) / 8;
    size_t need = (size_t)passes * 256 * sizeof(long long) +
                  (size_t)((num_items + kTileItems - 1) / kTileItems) * sizeof(long long) + 256;
    if (temp == nullptr) { /* the size query: no work */
        *temp_bytes = need;
        return cudaSuccess;
    }
    if (*temp_bytes < need)
        return cudaErrorInvalidValue; /* as CUB's: too little temporary storage */
    if (num_items == 0 || passes == 0)
        return cudaSuccess;
    int device = current_device();
    if (device < 0)
        return cudaErrorInitializationError;
    size_t bytes = (size_t)num_items * sizeof(long long);
    int cur = *selector;
    for (int b = 0; b < 2; b++)
        if (!accessible(device, keys[b], bytes) || !accessible(device, values[b], bytes))
            return cudaErrorInvalidValue; /* (the emulation's check: CUB's kernels would fault) */
    if (!accessible(device, temp, need))
        return cudaErrorInvalidValue;
    int out = passes % 2 == 0 ? cur : cur ^ 1; /* Note [The emulated CUB's buffers] */
    Job *j = new (std::nothrow) Job();
    if (j == nullptr)
        return cudaErrorMemoryAllocation;
    *j = Job{keys[cur], keys[out], values[cur], values[out], temp, need, num_items, begin_bit, end_bit};
    cudaError_t e = emu_runtime_enqueue(stream, job_run, j, job_release);
    if (e == cudaSuccess)
        *selector = out;
    return e;
}
