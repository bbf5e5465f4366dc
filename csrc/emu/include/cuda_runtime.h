/* cuda_runtime.h - devtensor's own cuda_runtime.h for the CPU emulation:
 * the C API of cuda_runtime_api.h plus, in C++, the convenience overload
 * CUDA documents for launching a kernel by its typed address. */
#ifndef DT_EMU_CUDA_RUNTIME_H
#define DT_EMU_CUDA_RUNTIME_H

#include "cuda_runtime_api.h"

#ifdef __cplusplus
/* cudaLaunchKernel(kernel, ...) with a function pointer of any type: a
 * function pointer does not convert to const void * implicitly in C++. */
template <class T>
static inline cudaError_t cudaLaunchKernel(T *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem = 0,
                                           cudaStream_t stream = 0)
{
    return ::cudaLaunchKernel(reinterpret_cast<const void *>(func), gridDim, blockDim, args, sharedMem, stream);
}
#endif

#endif /* DT_EMU_CUDA_RUNTIME_H */
