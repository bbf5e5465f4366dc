/* cub/device/device_radix_sort.cuh - devtensor's own declaration of the one
 * CUB call csrc/cuda makes, cub::DeviceRadixSort::SortPairs over
 * DoubleBuffers of 64-bit keys and int64 values (csrc/cuda/cuda_sort.cu,
 * Note [CUB's radix sort]), implemented on the CPU by csrc/emu/emu_cub.cpp
 * (Note [CUDA libraries on the CPU] in csrc/emu/emu_runtime.h).  CUB's
 * names and documented behaviour, not NVIDIA's header: a NULL temporary
 * storage asks for its size; the sort is stable, by bits [begin_bit,
 * end_bit) of the keys, queued on the stream; afterwards Current() of both
 * buffers names the sorted keys and values (the selectors flip once per
 * 8-bit pass, as CUB's onesweep passes alternate the buffers).  C++ only.
 */
#ifndef DT_EMU_CUB_DEVICE_RADIX_SORT_CUH
#define DT_EMU_CUB_DEVICE_RADIX_SORT_CUH

#include <cuda_runtime_api.h>

#include <stddef.h>
#include <stdint.h>

#include <type_traits>

/* the reference (emu_cub.cpp): keys[selector] and values[selector] hold
 * the input; *selector becomes the index of the buffers that will hold the
 * output */
extern "C" cudaError_t emu_cub_sort_pairs_u64_i64(void *temp, size_t *temp_bytes, unsigned long long *keys[2],
                                                  long long *values[2], int *selector, int64_t num_items,
                                                  int begin_bit, int end_bit, cudaStream_t stream);

namespace cub {

template <typename T> struct DoubleBuffer {
    T *d_buffers[2];
    int selector;
    DoubleBuffer() : d_buffers{nullptr, nullptr}, selector(0) {}
    DoubleBuffer(T *current, T *alternate) : d_buffers{current, alternate}, selector(0) {}
    T *Current() { return d_buffers[selector]; }
    T *Alternate() { return d_buffers[selector ^ 1]; }
};

struct DeviceRadixSort {
    template <typename KeyT, typename ValueT, typename NumItemsT>
    static cudaError_t SortPairs(void *d_temp_storage, size_t &temp_storage_bytes, DoubleBuffer<KeyT> &d_keys,
                                 DoubleBuffer<ValueT> &d_values, NumItemsT num_items, int begin_bit = 0,
                                 int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0)
    {
        static_assert(std::is_same<KeyT, unsigned long long>::value && std::is_same<ValueT, long long>::value,
                      "the emulated CUB sorts unsigned long long keys with long long values only");
        if (d_keys.selector != d_values.selector)
            return cudaErrorInvalidValue; /* (the emulation's own check: the caller's buffers move in pairs) */
        int selector = d_keys.selector;
        cudaError_t e = emu_cub_sort_pairs_u64_i64(d_temp_storage, &temp_storage_bytes, d_keys.d_buffers,
                                                   d_values.d_buffers, &selector, (int64_t)num_items, begin_bit,
                                                   end_bit, stream);
        if (e == cudaSuccess)
            d_keys.selector = d_values.selector = selector;
        return e;
    }
};

} // namespace cub

#endif /* DT_EMU_CUB_DEVICE_RADIX_SORT_CUH */
