/* emu_launch.h - launching a kernel on the CPU emulation: what the
 * emulated runtime's cudaLaunchKernel calls (C-callable).
 *
 * A kernel is known by the address DT_KERNEL_ADDRESS gave (emu_device.h);
 * the registry holds, per kernel, a trampoline that unpacks `void **args`
 * by the kernel's parameter types, and each parameter's size, so a launch
 * can copy its arguments when it is made (Note [Kernel registry] in
 * emu_launch.cpp).
 *
 *     emu_launch *l;
 *     cudaError_t e = emu_launch_prepare(kernel, grid, block, args, shared, &l);
 *     if (e == cudaSuccess)
 *         e = emu_launch_run(l);     (now, or later from a stream's queue)
 */
#ifndef DT_EMU_LAUNCH_H
#define DT_EMU_LAUNCH_H

#include <vector_types.h>
#include <driver_types.h>

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct emu_launch emu_launch; /* one launch's config and a copy of its arguments */

/* The limits emu_launch_prepare checks (CUDA's for compute capability
 * 7.0 and later, and the default shared memory a kernel may use). */
#define EMU_MAX_THREADS_PER_BLOCK 1024u
#define EMU_MAX_BLOCK_X 1024u
#define EMU_MAX_BLOCK_Y 1024u
#define EMU_MAX_BLOCK_Z 64u
#define EMU_MAX_GRID_X 2147483647u
#define EMU_MAX_GRID_YZ 65535u
#define EMU_MAX_DYNAMIC_SHARED (48u * 1024u)

/* Validate and copy the arguments (their sizes are known from the
 * registry); the errors cudaLaunchKernel returns synchronously:
 *   cudaErrorInvalidDeviceFunction  kernel not registered
 *   cudaErrorInvalidConfiguration   a zero dimension, a block or grid
 *                                   dimension over its limit, more than
 *                                   1024 threads per block
 *   cudaErrorInvalidValue           more than 48 KiB of dynamic shared
 *                                   memory; args NULL for a kernel with
 *                                   parameters; out NULL
 *   cudaErrorMemoryAllocation       no memory for the copy
 * On success *out is the launch, to run or free; else *out is NULL. */
cudaError_t emu_launch_prepare(const void *kernel, dim3 grid, dim3 block, void **args, size_t shared_bytes,
                               emu_launch **out);
/* Run every block on this thread, then free l.  cudaSuccess, or the error
 * of the fault that stopped it (emu_last_fault() says what happened). */
cudaError_t emu_launch_run(emu_launch *l);
void emu_launch_free(emu_launch *l);
/* what the last failing launch (prepare or run, any thread) reported; ""
 * if none failed; valid until the next failure */
const char *emu_last_fault(void);

/* Launch counts per registered kernel, for coverage tests: kernels are
 * numbered in registration order. */
size_t emu_kernel_count(void);
const char *emu_kernel_name(size_t i);
unsigned long long emu_kernel_launches(size_t i);

/* The order threads run in between barriers (Note [Orders] in
 * emu_fiber.cpp): "forward", "reverse" or "random:SEED"; NULL goes back
 * to $DEVTENSOR_EMULATE_ORDER.  0, or -1 for a spec it does not know. */
int emu_set_order(const char *spec);

#ifdef __cplusplus
}
#endif

#endif /* DT_EMU_LAUNCH_H */
