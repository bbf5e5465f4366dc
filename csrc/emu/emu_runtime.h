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
 * csrc/cuda calls no CUDA library yet, only the runtime.  The first call
 * into cuBLAS, cuSOLVER, cuFFT, cuRAND or CUB (reductions, linear algebra
 * and FFT will make them) comes with the library's header in
 * csrc/emu/include, declaring the calls made, and a plain reference
 * implementation of exactly those calls in csrc/emu (handles, streams,
 * leading dimensions, strides, workspaces, status codes checked as the
 * library documents them), so that the calling code runs in CI on
 * emulated devices like the kernels.  g++ finds the toolkit's own headers
 * on this machine's default include path, so the build alone would not
 * notice a call without one: tests/test_emu_kernels.py
 * (test_every_cuda_library_has_an_emulated_header) does.
 */
#ifndef DT_EMU_RUNTIME_H
#define DT_EMU_RUNTIME_H

#include <stddef.h>

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

#ifdef __cplusplus
}
#endif

#endif /* DT_EMU_RUNTIME_H */
