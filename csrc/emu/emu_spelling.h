/* emu_spelling.h - the spellings that differ between nvcc and the CPU
 * emulation (csrc/emu/emu_device.h), for .cu files to use in both:
 *
 *   DT_DYNAMIC_SHARED(type, name)   extern __shared__ type name[]
 *   DT_KERNEL_ADDRESS(kernel)       (const void *)&kernel, for
 *                                   cudaLaunchKernel; emulated, it also
 *                                   registers the kernel (Note [Kernel
 *                                   registry] in emu_launch.cpp)
 *   DT_LAUNCH(k, grid, block, shared, stream)(args...)
 *                                   k<<<grid, block, shared, stream>>>(args...)
 *
 * Under nvcc this file defines them; in an emulated build emu_device.h
 * (force-included before anything else) already has.
 *
 * Note [One dynamic shared array]
 * nvcc rejects `extern __shared__ T name[]` declared with two different
 * T in one translation unit (templates instantiated for several types do
 * that), so every use declares the same unsigned char array, 16-byte
 * aligned as dynamic shared memory is at least, and names a typed pointer
 * to it.
 */
#ifndef DT_EMU_SPELLING_H
#define DT_EMU_SPELLING_H

#if !defined(DEVTENSOR_EMULATED)
#define DT_DYNAMIC_SHARED(type, name)                                \
    extern __shared__ __align__(16) unsigned char dt_dynamic_shared_[]; \
    type *const name = reinterpret_cast<type *>(dt_dynamic_shared_)
#define DT_KERNEL_ADDRESS(...) ((const void *)&__VA_ARGS__)
#define DT_LAUNCH(kernel, grid, block, shared, stream) kernel<<<grid, block, shared, stream>>>
#endif

#endif /* DT_EMU_SPELLING_H */
