/* emu_runtime.h - what the CPU emulation of the CUDA runtime offers
 * beyond CUDA's own API (csrc/emu/emu_runtime.cpp): the configuration it
 * read, and questions the kernel half and tests may ask.  C-callable.
 *
 * Configuration (read once, on the first runtime call):
 *   DEVTENSOR_EMULATE_CUDA=N              devices, 0-8 (unset: 1)
 *   DEVTENSOR_EMULATE_CUDA_MEMORY=4G      budget per device (K/M/G/T,
 *                                         binary); "1G,2G" one per device
 *   DEVTENSOR_EMULATE_CUDA_PINNED=4G      budget of pinned host memory
 *   DEVTENSOR_EMULATE_CUDA_PEER=all       peer-access matrix: all, none,
 *                                         or directed pairs "0-1,1-0"
 *   DEVTENSOR_EMULATE_CUDA_PROTECT=auto   auto | pkey | check
 *                                         (Note [Device memory the host
 *                                         cannot read])
 *   DEVTENSOR_EMULATE_CUDA_POISON=0       1: fill new device memory with
 *                                         0xCB and freed memory with 0xDB
 *   DEVTENSOR_EMULATE_DELAY_US=0          every queued operation starts
 *                                         this much later (tests of
 *                                         missing synchronisation)
 *
 * Note [CUDA libraries on the CPU]
 * Every call csrc/cuda makes into a CUDA library (cuBLAS, cuSOLVER,
 * cuFFT, cuRAND, CUB) comes with the library's header in csrc/emu/include,
 * declaring the calls made, and a plain reference implementation of
 * exactly those calls in csrc/emu (handles, streams, leading dimensions,
 * strides, workspaces, status codes checked as the library documents
 * them), so that the calling code runs in CI on emulated devices like the
 * kernels.  The first is cuBLAS: include/cublas_v2.h and emu_blas.cpp,
 * whose work is queued with emu_runtime_enqueue below; then cuSOLVER's
 * dense API: include/cusolverDn.h (with cusolver_common.h and
 * cuComplex.h) and emu_solver.cpp, emu_solver_routines.cpp, computing in
 * emu_dense.cpp; then cuFFT: include/cufft.h and emu_fft.cpp; then CUB's
 * radix sort: include/cub/device/device_radix_sort.cuh and emu_cub.cpp.
 * What they share is emu_library.h.  g++ finds the toolkit's own headers on this machine's
 * default include path, so the build alone would not notice a call
 * without one:
 * tests/test_emu_kernels.py (test_every_cuda_library_has_an_emulated_header)
 * does.
 */
#ifndef DT_EMU_RUNTIME_H
#define DT_EMU_RUNTIME_H

#include <stddef.h>

#include <driver_types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* NULL if the configuration was valid; else what was wrong with it (the
 * runtime then answers cudaErrorInitializationError). */
const char *emu_runtime_config_error(void);

/* 1 if device memory is protected from host threads by a protection key
 * (a host read faults); 0 if only the API calls check pointer kinds. */
int emu_runtime_protected(void);

/* The device whose memory [ptr, ptr+n) lies wholly inside a live
 * allocation of, or -1. */
int emu_runtime_device_of(const void *ptr, size_t n);

/* 1 if `device` enabled access to `peer`'s memory (or device == peer). */
int emu_runtime_peer_enabled(int device, int peer);

/* Queue run(arg) on `stream` as one stream-ordered operation, as a
 * library's kernel launch is (Note [Library work on streams] in
 * emu_runtime.cpp).  cudaSuccess, or: cudaErrorInvalidValue (run is NULL),
 * cudaErrorInvalidResourceHandle (no such stream, or a stream of a device
 * that is not current), the runtime's initialisation error, or the
 * device's sticky error.  release(arg), if not NULL, is called exactly
 * once: after run, when the operation is skipped after a sticky error, or
 * before an error return.  What run returns other than cudaSuccess
 * becomes the device's sticky error.  Leaves the calling thread's last
 * error alone. */
cudaError_t emu_runtime_enqueue(cudaStream_t stream, cudaError_t (*run)(void *arg), void *arg,
                                void (*release)(void *arg));

#ifdef __cplusplus
}
#endif

#endif /* DT_EMU_RUNTIME_H */
